#!/usr/bin/env python3
"""Measures `thunderstorm run` as systemd would see it, on this machine.

  scripts/measure-run.py --binary PATH [--runs 10] [--rss-runs 5]

1. Start to READY=1: the time from spawning the daemon with board/desk-simulated.json (every part
   simulated) to the READY=1 datagram on $NOTIFY_SOCKET, median of --runs, each on a fresh state
   directory, each ended with SIGTERM (which must exit 0).
2. Peak RSS with a weather fetch over HTTPS: the same board with the weather from a loopback
   HTTPS server (a self-signed certificate for 127.0.0.1 that the daemon verifies for real: the
   run is in a private mount namespace whose /etc/ssl/certs is the system's hashed directory plus
   that certificate). The daemon runs until the status line says the weather is ok, then two
   seconds more; GNU time's maximum resident set size, median of --rss-runs. Needs root (unshare,
   mount), openssl and /usr/bin/time.

Only loopback addresses are used. Prints one JSON object.
"""
import argparse, json, os, shutil, signal, socket, ssl, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forecast_server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def board(weather):
    with open(os.path.join(ROOT, "board", "desk-simulated.json")) as f:
        b = json.load(f)
    b["weather"] = weather
    return b


def notify_socket(directory):
    path = os.path.join(directory, "notify.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    return s, path


def wait_for(sock, predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        sock.settimeout(max(0.01, end - time.monotonic()))
        try:
            text = sock.recv(4096).decode()
        except socket.timeout:
            break
        if predicate(text):
            return text, time.monotonic()
    return None, None


def start_to_ready(binary, runs):
    samples = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as d:
            sock, path = notify_socket(d)
            board_path = os.path.join(d, "board.json")
            with open(board_path, "w") as f:
                json.dump(board({"simulated": True}), f)
            env = dict(os.environ, NOTIFY_SOCKET=path)
            t0 = time.monotonic()
            p = subprocess.Popen([binary, "run", "--board", board_path, "--state-dir", os.path.join(d, "state")],
                                 env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
            text, t1 = wait_for(sock, lambda t: "READY=1" in t, 10)
            p.send_signal(signal.SIGTERM)
            _, err = p.communicate(timeout=5)
            if text is None or p.returncode != 0:
                sys.exit(f"no READY=1 or exit {p.returncode}: {err.decode()}")
            samples.append((t1 - t0) * 1000)
    return samples


def https_server(directory):
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    if not os.path.exists(forecast_server.FORECAST):
        sys.exit(f"no forecast body at {forecast_server.FORECAST} (set THUNDERSTORM_CORPUS)")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = forecast_server.serve(wrap=lambda s: context.wrap_socket(s, server_side=True))
    capath = os.path.join(directory, "capath")
    shutil.copytree("/etc/ssl/certs", capath, symlinks=True)
    shutil.copy(cert, os.path.join(capath, "thunderstorm-test.pem"))
    subprocess.run(["openssl", "rehash", capath], check=True, capture_output=True)
    return server, capath


def peak_rss(binary, runs):
    samples = []
    with tempfile.TemporaryDirectory() as d:
        server, capath = https_server(d)
        port = server.server_address[1]
        for i in range(runs):
            run_dir = os.path.join(d, f"run{i}")
            os.mkdir(run_dir)
            sock, path = notify_socket(run_dir)
            board_path = os.path.join(run_dir, "board.json")
            with open(board_path, "w") as f:
                json.dump(board({"provider": "open-meteo", "baseURL": f"https://127.0.0.1:{port}"}), f)
            rss_file = os.path.join(run_dir, "rss")
            command = ["unshare", "-m", "sh", "-c", 'mount --bind "$0" /etc/ssl/certs && exec "$@"', capath,
                       "/usr/bin/time", "-f", "%M", "-o", rss_file,
                       binary, "run", "--board", board_path, "--state-dir", os.path.join(run_dir, "state")]
            p = subprocess.Popen(command, env=dict(os.environ, NOTIFY_SOCKET=path), stdin=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
            text, _ = wait_for(sock, lambda t: "Net ok" in t, 30)
            time.sleep(2)
            # unshare execs sh, which execs time; the daemon is time's child.
            with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                os.kill(int(f.read().split()[0]), signal.SIGTERM)
            _, err = p.communicate(timeout=10)
            if text is None:
                sys.exit(f"the weather never came: {err.decode()[-2000:]}")
            with open(rss_file) as f:
                samples.append(int(f.read().split()[-1]))
        server.shutdown()
    return samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rss-runs", type=int, default=5)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    ready = start_to_ready(binary, args.runs)
    result = {"start_to_ready_ms": {"median": round(statistics.median(ready), 1), "samples": [round(s, 1) for s in ready]}}
    if args.rss_runs > 0:
        rss = peak_rss(binary, args.rss_runs)
        result["peak_rss_kib_https_fetch"] = {"median": statistics.median(rss), "samples": rss}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
