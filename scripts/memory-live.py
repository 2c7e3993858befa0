#!/usr/bin/env python3
"""Memory over simulated days with live weather from a flaky loopback server.

    scripts/memory-live.py --binary PATH [--days 1 10 30] [--seed N] [--keep DIR]

For each number of days, one `simulate --headless --weather live --base-url http://127.0.0.1:PORT`
process runs that many days of virtual time; every fetch goes over a real socket to a server on
127.0.0.1 that answers, at random (seeded): the corpus forecast (60 %), 500, 503, 429 with
Retry-After, a closed connection before any answer, a body cut short of its Content-Length, an
answer after 300 ms, or a body that is not JSON. Prints, per run, the report's first and last
`daily` samples (RSS, heap in use and free from mallinfo2, descriptors), the highest RSS of the
samples, GNU time's peak RSS, the fetches and what the server answered. Exits 1 if a run fails.
"""
import argparse, json, os, random, socket, subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forecast_server  # noqa: E402

# (answer, weight): what the flaky server does with one request.
ANSWERS = [("ok", 60), ("500", 8), ("503", 6), ("429", 6), ("close", 6), ("truncated", 6), ("slow", 4), ("garbage", 4)]


def flaky_server(seed):
    if not os.path.exists(forecast_server.FORECAST):
        sys.exit(f"no forecast body at {forecast_server.FORECAST} (set THUNDERSTORM_CORPUS)")
    with open(forecast_server.FORECAST, "rb") as f:
        body = f.read()
    rng, lock, counts = random.Random(seed), threading.Lock(), {name: 0 for name, _ in ANSWERS}
    names, weights = [n for n, _ in ANSWERS], [w for _, w in ANSWERS]

    class Flaky(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def answer(self, status, payload, headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self):
            with lock:
                what = rng.choices(names, weights)[0]
                counts[what] += 1
            if what == "ok":
                self.answer(200, body, [("Content-Type", "application/json")])
            elif what in ("500", "503"):
                self.answer(int(what), b'{"error":true,"reason":"flaky"}', [("Content-Type", "application/json")])
            elif what == "429":
                self.answer(429, b'{"error":true,"reason":"Daily API request limit exceeded"}', [("Retry-After", "60")])
            elif what == "close":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            elif what == "truncated":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            elif what == "slow":
                time.sleep(0.3)
                self.answer(200, body, [("Content-Type", "application/json")])
            else:
                self.answer(200, b"<html>captive portal</html>", [("Content-Type", "text/html")])

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, counts, lock


def run(binary, days, port, workdir, seed):
    report = os.path.join(workdir, f"live-{days}d.json")
    rss = os.path.join(workdir, f"live-{days}d.time")
    argv = ["/usr/bin/time", "-f", "%M", "-o", rss, binary, "simulate", "--headless", "--duration", str(days * 86400),
            "--weather", "live", "--base-url", f"http://127.0.0.1:{port}", "--start", "2026-01-01T00:00:00Z",
            "--seed", str(seed), "--report", report]
    t0 = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{days} days: simulate exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    with open(report) as f, open(rss) as g:
        return json.load(f), int(g.read().split()[-1]), time.monotonic() - t0, " ".join(argv[5:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--days", type=int, nargs="+", default=[1, 10, 30])
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--keep", help="keep the reports here")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="memory-live-")
    os.makedirs(workdir, exist_ok=True)
    for days in args.days:
        server, counts, lock = flaky_server(args.seed + days)
        report, peak, wall, command = run(os.path.abspath(args.binary), days, server.server_address[1], workdir, args.seed)
        server.shutdown()
        daily = report["daily"]
        first, last = daily[0], daily[-1]
        highest = max(daily, key=lambda s: s["rss_kb"])
        with lock:
            answered = ", ".join(f"{k} {v}" for k, v in counts.items())
        print(f"{days} d ({wall:.0f} s): {command}")
        for s in (first, last):
            print(f"  day {s['day']}: RSS {s['rss_kb']} KB, heap in use {s.get('heap_kb', '?')} KB, "
                  f"free in arenas {s.get('heap_free_kb', '?')} KB, {s['descriptors']} descriptors")
        print(f"  highest daily RSS {highest['rss_kb']} KB on day {highest['day']}; peak RSS (GNU time) {peak} KB; "
              f"{report['weather']['fetches']} fetches, weather {report['weather']['state']}; timeline {len(report['timeline'])} lines")
        print(f"  the server answered: {answered}", flush=True)


if __name__ == "__main__":
    main()
