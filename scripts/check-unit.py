#!/usr/bin/env python3
"""Checks board/thunderstorm.service against what it is for, on a machine without systemd running.

  scripts/check-unit.py --binary PATH [--max-exposure 2.0]

1. Exposure: `systemd-analyze security --offline=yes` must score it at most --max-exposure.
2. `systemd-analyze verify` on a copy whose ExecStart names the built binary (the installed path
   does not exist here).
3. The system-call filter: `thunderstorm run` is traced with strace through what the daemon does
   (start and first frame; a GPS on a real pseudo-terminal; a weather fetch over a loopback HTTP
   server, with name lookup on the worker thread; a key that commits a setting; SIGHUP with a
   changed board; SIGTERM), and every system call it made must be allowed by the unit's
   SystemCallFilter= lines, expanded with `systemd-analyze syscall-filter`. A run under the real
   filter would die (or get EPERM) at the first one that is not.

Needs systemd-analyze (Debian's systemd package) and strace; uses only loopback addresses.
"""
import argparse, json, os, pty, re, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forecast_server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNIT = os.path.join(ROOT, "board", "thunderstorm.service")
EPOCH = ("$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D\r\n"
         "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33\r\n"
         "$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D\r\n")


def fail(message):
    print(f"check-unit: {message}", file=sys.stderr)
    sys.exit(1)


def exposure(limit):
    out = subprocess.run(["systemd-analyze", "security", "--offline=yes", UNIT], capture_output=True, text=True).stdout
    match = re.search(r"Overall exposure level for \S+: ([0-9.]+)", out)
    if not match:
        fail(f"no exposure score in: {out[-500:]}")
    score = float(match.group(1))
    print(f"exposure: {score} (limit {limit}) — systemd-analyze security --offline=yes board/thunderstorm.service")
    if score > limit:
        fail(f"exposure {score} is above {limit}")
    return score


def verify(binary):
    with tempfile.TemporaryDirectory() as d:
        with open(UNIT) as f:
            text = f.read().replace("/usr/local/bin/thunderstorm", binary)
        path = os.path.join(d, "thunderstorm.service")
        with open(path, "w") as f:
            f.write(text)
        result = subprocess.run(["systemd-analyze", "verify", path], capture_output=True, text=True)
        if result.returncode != 0 or result.stderr.strip():
            fail(f"systemd-analyze verify: {result.stderr.strip()}")
    print("verify: ok — systemd-analyze verify (ExecStart pointed at the built binary)")


def expand(name, seen=None):
    """The system calls a filter item names: a group, expanded through its nested groups."""
    if not name.startswith("@"):
        return {name}
    seen = seen if seen is not None else set()
    if name in seen:
        return set()
    seen.add(name)
    out = subprocess.run(["systemd-analyze", "syscall-filter", name], capture_output=True, text=True, check=True).stdout
    calls = set()
    for line in out.splitlines()[1:]:
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        calls |= expand(item, seen)
    return calls


def allowed_syscalls():
    allowed, denied, seen_allow = set(), set(), False
    with open(UNIT) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("SystemCallFilter="):
                continue
            value = line.split("=", 1)[1]
            if value.startswith("~"):
                for item in value[1:].split():
                    denied |= expand(item)
            else:
                seen_allow = True
                for item in value.split():
                    allowed |= expand(item)
    if not seen_allow:
        fail("the unit has no allow-list SystemCallFilter=")
    return allowed - denied


def board(tty, port):
    return {
        "schema": 1, "name": "syscall trace",
        "gps": {"device": tty, "baud": 9600},
        "display": {"kind": "ssd1306", "simulated": True},
        "buttons": [{"name": n, "simulated": True} for n in "ABC"],
        "sensor": {"kind": "bme280", "simulated": True},
        "weather": {"provider": "open-meteo", "baseURL": f"http://localhost:{port}"},
        "defaultLocation": {"name": "Berlin", "latitude": 52.52, "longitude": 13.405},
        "timeZone": "Europe/Berlin",
    }


def trace(binary):
    have_forecast = os.path.exists(forecast_server.FORECAST)

    def fetched(status):
        # With the corpus the answer decodes ("Net ok"); without it the empty object is refused,
        # which still runs the whole fetch (lookup, connect, request, decode) on the worker.
        return "Net ok" in status or (not have_forecast and "Net " in status and "asking" not in status)

    server = forecast_server.serve()
    master, slave = pty.openpty()
    os.set_blocking(master, False)  # a daemon that stops reading must not hang this check
    tty = os.ttyname(slave)
    with tempfile.TemporaryDirectory() as d:
        board_path = os.path.join(d, "board.json")
        with open(board_path, "w") as f:
            json.dump(board(tty, server.server_address[1]), f)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(os.path.join(d, "notify.sock"))
        notify.settimeout(0.2)
        out = os.path.join(d, "strace")
        env = dict(os.environ, NOTIFY_SOCKET=os.path.join(d, "notify.sock"), WATCHDOG_USEC="1000000")
        p = subprocess.Popen(["strace", "-f", "-qq", "-o", out, binary, "run", "--board", board_path,
                              "--state-dir", os.path.join(d, "state")],
                             env=env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        # Signals go to the traced daemon, strace's child, not to strace.
        daemon = None
        for _ in range(100):
            try:
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                    daemon = int(f.read().split()[0])
                break
            except (OSError, IndexError, ValueError):
                time.sleep(0.05)
        if daemon is None:
            p.kill()
            fail("strace did not start the daemon")
        def kill_both():
            # strace's child, the daemon, keeps stderr open: killing strace alone would leave
            # the read of stderr in fail() waiting for ever.
            try:
                os.kill(daemon, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.kill()

        seen, deadline, pressed = [], time.monotonic() + 30, False
        while time.monotonic() < deadline and not any(fetched(m) for m in seen):
            if p.poll() is not None:
                fail(f"the traced daemon exited ({p.returncode}) early: {p.stderr.read().decode()[-1500:]}")
            try:
                os.write(master, EPOCH.encode())
            except BlockingIOError:
                pass
            try:
                seen.append(notify.recv(4096).decode())
            except socket.timeout:
                pass
            if not pressed and any("READY=1" in m for m in seen):
                p.stdin.write(b"a")
                p.stdin.flush()
                pressed = True
        if not any(fetched(m) for m in seen):
            kill_both()
            fail(f"the traced daemon never showed the weather: {seen[-3:]} {p.stderr.read().decode()[-1500:]}")
        with open(board_path, "w") as f:
            json.dump(dict(board(tty, server.server_address[1]), name="syscall trace, reloaded"), f)
        try:
            os.kill(daemon, signal.SIGHUP)
            time.sleep(1)
            os.kill(daemon, signal.SIGTERM)
        except ProcessLookupError:
            kill_both()
            fail(f"the traced daemon ended by itself: {p.stderr.read().decode()[-1500:]}")
        try:
            _, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            kill_both()
            fail("the traced daemon did not stop")
        if p.returncode != 0:
            fail(f"the traced daemon exited {p.returncode}: {err.decode()[-1500:]}")
        calls = set()
        with open(out) as f:
            for line in f:
                match = re.match(r"\d+\s+(?:<\.\.\. )?([a-z0-9_]+)[( ]", line)
                if match and match.group(1) not in ("exited", "killed", "resumed", "restart_syscall"):
                    calls.add(match.group(1))
    os.close(master)
    os.close(slave)
    server.shutdown()
    return calls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--max-exposure", type=float, default=2.0)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    exposure(args.max_exposure)
    verify(binary)
    allowed = allowed_syscalls()
    used = trace(binary)
    # execve is the service manager's, before the filter applies to the new image.
    outside = sorted(used - allowed - {"execve"})
    print(f"system calls: {len(used)} used by a traced run, {len(allowed)} allowed by SystemCallFilter=")
    if outside:
        fail(f"the daemon makes system calls its unit forbids: {', '.join(outside)}")
    print("system calls: every one the daemon made is allowed")


if __name__ == "__main__":
    main()
