#!/usr/bin/python3
"""A stand-in for `thunderstorm run` that scripts/systemd-boot-test.sh installs as
/usr/local/bin/thunderstorm, so board/thunderstorm.service runs it unchanged, under all of its
hardening. It does what the daemon's contract says the daemon does (files, state directory,
adjtimex, poll/timerfd/eventfd/signalfd, a thread, sockets, dlopen of libssl and libz, tzdata, CA
certificates) and what the sandbox must refuse (setting the clock, netlink sockets, writable and
executable memory, namespaces, real-time scheduling, writing /etc), and reports through the
notify protocol: READY=1, then STATUS=probe: … with what was unexpected, WATCHDOG=1 every half of
$WATCHDOG_USEC, a new STATUS on SIGHUP, STOPPING=1 and exit 0 on SIGTERM.

  thunderstorm board check FILE                 exit 0 (install.sh asks)
  thunderstorm run --board FILE --state-dir DIR the probe; PROBE_STALL=1 in the environment (or a
                                                file DIR/stall) stops the watchdog pings after READY
"""
import ctypes
import ctypes.util
import errno
import mmap
import os
import select
import signal
import socket
import sys
import threading
import time

if sys.argv[1:3] == ["board", "check"]:
    sys.exit(0)
if sys.argv[1:2] != ["run"]:
    print("usage: thunderstorm run --board FILE --state-dir DIR", file=sys.stderr)
    sys.exit(64)
args = dict(zip(sys.argv[2::2], sys.argv[3::2]))
board, state_dir = args.get("--board"), args.get("--state-dir")
if not board or not state_dir:
    print("usage: thunderstorm run --board FILE --state-dir DIR", file=sys.stderr)
    sys.exit(64)

libc = ctypes.CDLL(None, use_errno=True)


def notify(message):
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
        s.sendto(message.encode(), address)


def c_call(result):
    """Raises OSError for a libc call that returned -1."""
    if result == -1:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return result


results = []  # (name, expected, ok, detail)


def probe(name, expect_ok, fn):
    try:
        detail = fn()
        ok = True
    except Exception as error:  # noqa: BLE001 - every failure is a result here
        ok, detail = False, f"{type(error).__name__}: {error}"
    results.append((name, expect_ok, ok, detail))
    verdict = "as expected" if ok == expect_ok else "UNEXPECTED"
    print(f"probe {name}: {'allowed' if ok else 'refused'} ({detail}) - {verdict}", file=sys.stderr, flush=True)


# --- what the daemon does: must work ---------------------------------------------------------
def identity():
    groups = []
    for gid in os.getgroups():
        try:
            import grp
            groups.append(grp.getgrgid(gid).gr_name)
        except KeyError:
            groups.append(str(gid))
    return f"uid {os.getuid()} gid {os.getgid()} groups {','.join(sorted(groups))}"


def read_board():
    with open(board, "rb") as f:
        return f"{len(f.read())} bytes"


def state_commit():
    path = os.path.join(state_dir, "probe.tmp")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, b"probe\n")
        os.fdatasync(fd)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(path, os.path.join(state_dir, "probe"))
    import fcntl
    lock = os.open(state_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.fsync(lock)
    os.close(lock)
    mode = oct(os.stat(os.path.join(state_dir, "probe")).st_mode & 0o777)
    return f"wrote, synced, renamed, locked ({mode})"


def adjtimex_read():
    timex = ctypes.create_string_buffer(512)  # struct timex with modes = 0: read only
    state = c_call(libc.adjtimex(timex))
    names = {0: "TIME_OK", 1: "TIME_INS", 2: "TIME_DEL", 3: "TIME_OOP", 4: "TIME_WAIT", 5: "TIME_ERROR (not synchronised)"}
    return f"state {state} {names.get(state, '?')}"


def timerfd_poll():
    fd = c_call(libc.timerfd_create(1, 0o2000000))  # CLOCK_MONOTONIC, TFD_CLOEXEC
    spec = (ctypes.c_long * 4)(0, 0, 0, 20_000_000)  # it_interval 0, it_value 20 ms
    c_call(libc.timerfd_settime(fd, 0, spec, None))
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    ready = poller.poll(1000)
    os.close(fd)
    if not ready:
        raise TimeoutError("timerfd did not fire within 1 s")
    return "fired after 20 ms"


def eventfd_thread():
    fd = os.eventfd(0, os.EFD_CLOEXEC)
    worker = threading.Thread(target=lambda: os.eventfd_write(fd, 1))
    worker.start()
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    ready = poller.poll(1000)
    worker.join()
    value = os.eventfd_read(fd) if ready else 0
    os.close(fd)
    if value != 1:
        raise RuntimeError("the worker thread's eventfd write did not arrive")
    return "a worker thread woke the poll"


def signalfd_create():
    mask = ctypes.create_string_buffer(128)
    c_call(libc.sigemptyset(mask))
    c_call(libc.sigaddset(mask, signal.SIGUSR1))
    fd = c_call(libc.signalfd(-1, mask, 0o2000000))  # SFD_CLOEXEC
    os.close(fd)
    return "created"


def sockets_allowed():
    for family in (socket.AF_INET, socket.AF_INET6, socket.AF_UNIX):
        socket.socket(family, socket.SOCK_STREAM).close()
    return "AF_INET, AF_INET6, AF_UNIX"


def dlopen_libs():
    ctypes.CDLL("libssl.so.3")
    ctypes.CDLL("libz.so.1")
    return "libssl.so.3, libz.so.1"


def system_files():
    with open("/usr/share/zoneinfo/Europe/Berlin", "rb") as f:
        f.read()
    certificates = len(os.listdir("/etc/ssl/certs"))
    return f"zoneinfo read, {certificates} entries in /etc/ssl/certs"


def memory():
    region = mmap.mmap(-1, 1 << 16, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    region[0:5] = b"hello"
    region.close()
    return "mmap read/write"


def pseudo_devices():
    for path in ("/dev/null", "/dev/urandom"):
        with open(path, "rb") as f:
            f.read(1)
    return "/dev/null, /dev/urandom"


# --- what the sandbox must refuse ------------------------------------------------------------
def settimeofday():
    tv = (ctypes.c_long * 2)(int(time.time()), 0)
    c_call(libc.settimeofday(tv, None))
    return "the clock was set!"


def adjtimex_write():
    timex = ctypes.create_string_buffer(512)
    ctypes.c_uint.from_buffer(timex, 0).value = 0x4000  # ADJ_TICK: a write, with tick 0 (invalid anyway)
    c_call(libc.adjtimex(timex))
    return "adjtimex accepted a write!"


def netlink():
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()
    return "a netlink socket!"


def packet():
    socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0).close()
    return "a packet socket!"


def write_exec_memory():
    region = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    region.close()
    return "writable and executable memory!"


def write_etc():
    with open("/etc/thunderstorm-probe", "w") as f:
        f.write("x")
    return "wrote /etc!"


def read_home():
    return f"{os.listdir('/root')}"


def user_namespace():
    c_call(libc.unshare(0x10000000))  # CLONE_NEWUSER
    return "a user namespace!"


def realtime():
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    return "real-time scheduling!"


def nice_up():
    os.setpriority(os.PRIO_PROCESS, 0, -5)
    return "a higher priority!"


def kernel_log():
    with open("/dev/kmsg", "rb"):
        pass
    return "the kernel log!"


def personality():
    c_call(libc.personality(0x0040000))  # ADDR_NO_RANDOMIZE
    return "a new personality!"


def run_probes():
    results.clear()
    probe("identity", True, identity)
    probe("read the board file", True, read_board)
    probe("state directory commit", True, state_commit)
    probe("adjtimex read (modes 0)", True, adjtimex_read)
    probe("timerfd + poll", True, timerfd_poll)
    probe("eventfd + thread", True, eventfd_thread)
    probe("signalfd", True, signalfd_create)
    probe("sockets", True, sockets_allowed)
    probe("dlopen", True, dlopen_libs)
    probe("tzdata and CA certificates", True, system_files)
    probe("memory", True, memory)
    probe("pseudo devices", True, pseudo_devices)
    probe("settimeofday", False, settimeofday)
    probe("adjtimex write", False, adjtimex_write)
    probe("AF_NETLINK", False, netlink)
    probe("AF_PACKET", False, packet)
    probe("W+X memory", False, write_exec_memory)
    probe("write /etc", False, write_etc)
    probe("read /root", False, read_home)
    probe("user namespace", False, user_namespace)
    probe("SCHED_FIFO", False, realtime)
    probe("nice -5", False, nice_up)
    probe("/dev/kmsg", False, kernel_log)
    probe("personality", False, personality)
    unexpected = [name for name, expected, ok, _ in results if ok != expected]
    if unexpected:
        return f"probe: {len(unexpected)} of {len(results)} unexpected: {', '.join(unexpected)}"
    return f"probe: all {len(results)} as expected"


status = run_probes()
print(status, file=sys.stderr, flush=True)
notify(f"READY=1\nSTATUS={status}")

watchdog_usec = int(os.environ.get("WATCHDOG_USEC", "0"))
stall = os.environ.get("PROBE_STALL") == "1" or os.path.exists(os.path.join(state_dir, "stall"))
if stall:
    print("probe: not sending WATCHDOG=1 (stall requested)", file=sys.stderr, flush=True)

stop = threading.Event()
reloads = 0


def on_term(signum, frame):
    stop.set()


def on_hup(signum, frame):
    global reloads, status
    reloads += 1
    status = run_probes() + f"; reloaded {reloads}"
    print(f"probe: SIGHUP, board re-read ({read_board()})", file=sys.stderr, flush=True)
    notify(f"READY=1\nSTATUS={status}")


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGINT, on_term)
signal.signal(signal.SIGHUP, on_hup)
interval = watchdog_usec / 2e6 if watchdog_usec else 5.0
while not stop.wait(interval):
    if watchdog_usec and not stall:
        notify("WATCHDOG=1")
notify("STOPPING=1")
print("probe: SIGTERM, exiting 0", file=sys.stderr, flush=True)
sys.exit(0)
