"""The virtual board's guest agent: runs shell commands for the host over a virtio-serial port.

One JSON object per line each way. Request: {"id": N, "sh": "...", "timeout": S}. Reply:
{"id": N, "rc": R, "out": "...", "err": "...", "started": T0, "ended": T1} with the guest's
CLOCK_MONOTONIC around the command (so the host can relate its actions to the guest's log
stamps). Each request runs in a thread of its own, so a long command (a held button) does not
hold up the others. rc is -9 when the timeout killed the command. Started by
vboard-agent.service; the host learns it is up from its {"hello": ...} line.
"""
import json
import os
import subprocess
import sys
import threading
import time

PORT = "/dev/virtio-ports/vboard.agent"


def main():
    fd = os.open(PORT, os.O_RDWR)
    rx = os.fdopen(fd, "rb", buffering=0)
    lock = threading.Lock()

    def send(obj):
        data = (json.dumps(obj) + "\n").encode()
        with lock:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]

    def serve(request):
        started = time.monotonic()
        try:
            done = subprocess.run(["/bin/sh", "-c", request["sh"]], capture_output=True,
                                  timeout=request.get("timeout", 120), stdin=subprocess.DEVNULL)
            rc, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as timeout:
            rc, out, err = -9, timeout.stdout or b"", (timeout.stderr or b"") + b"\nagent: timed out"
        send({"id": request["id"], "rc": rc, "out": out.decode(errors="replace"),
              "err": err.decode(errors="replace"), "started": started, "ended": time.monotonic()})

    send({"hello": os.uname().release, "monotonic": time.monotonic()})
    buffer = b""
    while True:
        chunk = rx.read(65536)
        if not chunk:  # the host is not connected: the port reads EOF until it is
            time.sleep(0.2)
            continue
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if not line.strip():
                continue
            try:
                request = json.loads(line)
            except ValueError:
                send({"error": "not JSON: %r" % line[:80]})
                continue
            if request.get("ping"):
                send({"id": request.get("id"), "pong": time.monotonic()})
                continue
            threading.Thread(target=serve, args=(request,), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
