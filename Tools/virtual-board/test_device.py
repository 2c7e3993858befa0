"""The installed daemon on a real kernel, on each root (Debian 12 and 13): install, first frame,
fix, glass, buttons with bounce, press to glass, a power cut after an acknowledged commit.

Run by scripts/virtual-board.sh test (which builds the image and the release binary). The tests
of one root share one VM and run in order; a failure in an early one fails the later ones too.
"""
import json
import os
import re
import tempfile
import time

import pytest

import device as dev
import vboard

ROOTS = os.environ.get("VBOARD_ROOTS", "bookworm trixie").split()
BINARY = os.environ.get("VBOARD_BINARY")
DEB = os.environ.get("VBOARD_DEB")
RESULTS = os.environ.get("VBOARD_RESULTS")
NOTHING = ("no daemon to install: VBOARD_BINARY or VBOARD_DEB (arm64 roots: the package, "
           "dist/thunderstorm_VERSION_arm64.deb) is not set; run scripts/virtual-board.sh test")

pytestmark = pytest.mark.skipif(not (BINARY or DEB), reason=NOTHING)


def record(root, key, value):
    """Figures for the closing note: one line per figure in $VBOARD_RESULTS."""
    line = "%s %s %s" % (root, key, value)
    print(line)
    if RESULTS:
        with open(RESULTS, "a") as f:
            f.write(line + "\n")


class Board:
    """One root's VM with its parts running and the daemon installed."""

    def __init__(self, root):
        self.root = root
        self.workdir = tempfile.mkdtemp(prefix="vboard-%s-" % root)
        self.disk = vboard.Disk(root, self.workdir)
        self.vm = vboard.VM(self.disk, self.workdir)
        self.device = dev.Device(self.vm, BINARY)
        self.gps = None

    def start_parts(self):
        d = self.device
        self.chip = d.buttons()
        self.bus = d.i2c()
        d.weather()
        self.gps = vboard.GPSFeeder(self.vm)
        self.gps.start()
        self.board = dev.board_file(self.bus, gps=d.gps_device)
        self.board_path = d.write_board(self.board)


@pytest.fixture(scope="module", params=ROOTS)
def board(request):
    b = Board(request.param)
    record(b.root, "boot_to_agent_s", "%.1f" % b.vm.boot())
    yield b
    if b.gps:
        b.gps.stop()
    b.vm.shutdown()
    b.disk.remove()


@pytest.mark.ci_arm64
def test_install_ready_fix_glass(board):
    b, d = board, board.device
    b.start_parts()
    t0 = time.monotonic()
    d.install_daemon(b.board_path)
    d.wait_active()
    record(b.root, "install_to_ready_s", "%.1f (%s)" % (time.monotonic() - t0, "apt install + thunderstorm setup" if d.packaged else "setup-pi.sh + install.sh"))
    # READY=1 comes after the first frame: the service is active only then.
    props = d.show("ActiveEnterTimestampMonotonic", "ExecMainStartTimestampMonotonic", "NRestarts")
    ready_s = (int(props["ActiveEnterTimestampMonotonic"]) - int(props["ExecMainStartTimestampMonotonic"])) / 1e6
    record(b.root, "start_to_ready_s", "%.2f" % ready_s)
    assert props["NRestarts"] == "0"
    log = d.fetch_log(b.workdir)
    first = dev.bus_times(log)
    assert first, "READY=1 before any byte reached the panel"
    # The fix from the GPS on ttyS1 (ttyAMA0 on arm64) reaches STATUS=.
    status = d.wait_status(r"GPS .*(3D|fix)", timeout=120)
    record(b.root, "status", repr(status))
    # The glass: the place, the weather and the time. The clock needs a time the daemon trusts:
    # no NTP in the VM, so GPS time once two epochs agree (ClockGate); until then the system
    # clock is shown marked unsure ("Clock unsure" in STATUS=).
    d.wait_status(r"^(?!.*Clock (unsure|not set))", timeout=120)
    d.wait_journal(r"weather", timeout=120)
    time.sleep(3)
    log = d.fetch_log(b.workdir)
    glass = d.glass(log, png=os.path.join(b.workdir, "now.png"))
    assert glass["modelErrors"] == [], glass
    record(b.root, "glass_text", repr(dev.texts(glass)))
    clock = b.vm.sh("TZ=Europe/Berlin date +%H:%M").strip()
    check_now_screen(glass, clock)


def test_gpio_through_libgpiod_on_trixie_uapi_on_bookworm(board):
    """GPIO goes through libgpiod 2 where it is installed (the trixie root: libgpiod.so.3 in the
    daemon's /proc/PID/maps) and through the kernel's uAPI v2 where it is not (bookworm has only
    libgpiod 1.6); the daemon's log line at start and `hal probe` say the same. The button
    scenarios after this one run on each root through its path."""
    b, d = board, board.device
    pid = d.show("MainPID")["MainPID"]
    maps = b.vm.sh("cat /proc/%s/maps" % pid)
    said = [l.split("GPIO: ", 1)[1] for l in d.journal().splitlines() if "GPIO: " in l]
    probe = b.vm.sh("PATH=/usr/local/bin:/usr/bin:$PATH thunderstorm hal probe").splitlines()[0]
    record(b.root, "gpio_path", repr(probe))
    assert said and probe == "GPIO: " + said[0], (said, probe)
    if "trixie" in b.root:
        assert re.fullmatch(r"GPIO: libgpiod 2\.\d+(\.\d+)* \(libgpiod\.so\.3\)", probe), probe
        assert "libgpiod.so.3" in maps, "libgpiod.so.3 is not mapped in the daemon"
    else:
        assert probe.startswith("GPIO: the kernel's uAPI v2 (libgpiod.so.3 not found: apt install libgpiod3"), probe
        assert "libgpiod" not in maps, "a libgpiod is mapped in the daemon on %s" % b.root


def test_clock_behind_gps_time_weather_fresh(board):
    """The review's case on a real kernel: the system clock 3 days behind (no NTP in the VM:
    not synchronised), GPS time from the receiver on ttyS1. The daemon is restarted so its
    first fetch happens under the wrong system clock: the glass must show the weather (it was
    stamped by GPS time, not by CLOCK_REALTIME, and is fresh), the clock the true time."""
    b, d = board, board.device
    b.vm.sh("date -s '-3 days' >/dev/null")
    try:
        before = d.journal_count()
        b.vm.sh("systemctl restart thunderstorm")
        d.wait_active()
        d.wait_journal(r"clock: now GPS time", after=before, timeout=120)
        d.wait_journal(r"weather", after=before, timeout=120)
        time.sleep(3)
        glass = glass_now(b)
        record(b.root, "glass_text_clock_3d_behind", repr(dev.texts(glass)))
        check_now_screen(glass, b.vm.sh("TZ=Europe/Berlin date +%H:%M").strip())  # the same time of day
    finally:
        b.vm.sh("date -s '+3 days' >/dev/null")


# Run in the guest: steps CLOCK_REALTIME by argv[1] seconds, then clears STA_UNSYNC as an NTP
# daemon does after a step (adjtimex(2): ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR), and prints
# CLOCK_MONOTONIC right after the step (the I²C log is stamped on that clock). With "unsync"
# it sets STA_UNSYNC again: the VM has no NTP, as before the test.
NTP_STEP = """
import ctypes, sys, time
class Timex(ctypes.Structure):
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("pad", ctypes.c_long * 32)]
libc = ctypes.CDLL(None, use_errno=True)
t = Timex()
if sys.argv[1] == "unsync":
    t.modes, t.status = 0x10, 0x40
    print(libc.adjtimex(ctypes.byref(t)))
    sys.exit(0)
time.clock_settime(time.CLOCK_REALTIME, time.clock_gettime(time.CLOCK_REALTIME) + float(sys.argv[1]))
stepped = time.clock_gettime(time.CLOCK_MONOTONIC)
t.modes, t.status, t.maxerror, t.esterror = 0x10 | 0x4 | 0x8, 0, 1000, 100
print("%.6f %d" % (stepped, libc.adjtimex(ctypes.byref(t))))
"""


def glass_clock(glass):
    """The clock in the top row as minutes of the day, and whether it is marked unsure."""
    top = sorted((t for t in glass["text"] if t["y"] == -2), key=lambda t: t["x"])
    text = " ".join(t["text"] for t in top)
    m = re.search(r"(\d{1,2}):(\d\d)(?: ([AP])M)?(\?)?$", text)
    assert m, "no clock in the top row: %r" % text
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "P" else 0) if m.group(3) else int(m.group(1))
    return hour * 60 + int(m.group(2)), bool(m.group(4))


def test_ntp_step_redrawn_within_a_second(board):
    """An NTP step of +1 h and then -1 h while the daemon runs: the TFD_TIMER_CANCEL_ON_SET timerfd
    wakes the loop, the kernel's flag is read again, and the clock on the glass follows. The
    time from the step to the frame on the bus is recorded; it must be under 1.5 s."""
    b, d = board, board.device
    b.vm.sh("cat > /tmp/ntp_step.py <<'EOF'\n%s\nEOF" % NTP_STEP)
    latencies = []
    try:
        for step in (3600, -3600):
            before = d.journal_count()
            out = b.vm.sh("python3 /tmp/ntp_step.py %d" % step).split()
            stepped = float(out[0])
            assert out[1] != "-1", out  # adjtimex's state, or -1 and errno
            d.wait_journal(r"clock: ", after=before, timeout=15)
            deadline = time.monotonic() + 10
            end = None
            while end is None and time.monotonic() < deadline:
                time.sleep(0.5)
                end = dev.frame_end_after(dev.bus_times(d.fetch_log(b.workdir)), stepped)
            assert end is not None, "no frame within 10 s of the step"
            latencies.append(end - stepped)
            time.sleep(1)
            shown, unsure = glass_clock(glass_now(b))
            now = b.vm.sh("TZ=Europe/Berlin date +%H:%M").strip()
            expected = int(now[:2]) * 60 + int(now[3:])
            assert abs(shown - expected) % (24 * 60) <= 1 and not unsure, (shown, expected, now)
        record(b.root, "ntp_step_to_glass_ms", "+1 h %.1f, -1 h %.1f" % (latencies[0] * 1000, latencies[1] * 1000))
        assert max(latencies) < 1.5, latencies
    finally:
        b.vm.sh("python3 /tmp/ntp_step.py unsync", check=False)


def check_now_screen(glass, clock):
    """The now screen of the corpus forecast (Open-Meteo, Berlin: -3.3 °C, 88 %, 11.2 km/h from
    94°, overcast) where the screens draw it: a glass shifted or garbled on the way reads as
    something else, or at another place."""
    at = {(t["text"], t["x"], t["y"]) for t in glass["text"]}
    for expected in [("Berlin", 0, 0), ("-3", 0, 16), ("°C", 34, 16), ("88%", 0, 52), ("11 km/h E", 30, 52)]:
        assert expected in at, "%r not on the glass: %s" % (expected, sorted(at))
    assert any(i["icon"] == "cloudy" and (i["x"], i["y"]) == (96, 16) for i in glass["icons"]), glass["icons"]
    shown = [t for t in glass["text"] if re.fullmatch(r"\d{1,2}:\d\d", t["text"])]  # 24-hour
    assert shown and shown[0]["y"] == -2 and shown[0]["x"] + 0 >= 64, glass["text"]
    hours, minutes = map(int, clock.split(":"))
    on_glass = [int(v) for v in shown[0]["text"].split(":")]
    assert abs((on_glass[0] * 60 + on_glass[1]) - (hours * 60 + minutes)) % (24 * 60) <= 1, (shown, clock)
    assert glass["unreadPixels"] == 0, glass


def glass_now(b, address=None):
    log = b.device.fetch_log(b.workdir)
    glass = b.device.glass(log, address=address)
    assert glass["modelErrors"] == [], glass
    return glass


def settle(b, pattern, after):
    """Waits for the journal line a committed change writes, then for the frame to reach the bus."""
    _, line = b.device.wait_journal(pattern, after=after)
    time.sleep(1.5)
    return line


@pytest.mark.ci_arm64
def test_each_gesture_once_with_bounce(board):
    """Every button, short and long, with contact bounce on press and release: one gesture
    each (a second would undo a toggle, save twice or skip a screen), the store commits it, and
    the next frames show it."""
    b, d = board, board.device
    # Short presses toggle a setting each: one "settings:" line each, and the glass follows.
    for name, pattern, seen in [("A", r"fahrenheit", "°F"), ("B", r"imperial", "mph"), ("C", r"12h", None)]:
        before = d.journal_count()
        d.press(name, hold_ms=120, bounce=4)
        line = settle(b, r"settings: .*" + pattern, before)
        changes = [l for l in d.journal().splitlines()[before:] if "settings:" in l]
        assert len(changes) == 1, changes
        shown = dev.texts(glass_now(b))
        if seen:
            assert any(seen in t for t in shown), (name, shown)
        else:  # the 12-hour clock: "11:35 PM"
            clock = [t for t in shown if re.fullmatch(r"\d{1,2}:\d\d [AP]M", t)]
            assert clock and 1 <= int(clock[0].split(":")[0]) <= 12, shown
        record(b.root, "press_%s" % name, line.split("]: ", 1)[-1])
    # Long B (save the position): exactly one place saved.
    d.press("B", hold_ms=1300, bounce=4)
    d.wait_status(r"Store ok, 1 place\b", timeout=30)
    time.sleep(2)
    assert "1 place" in d.show("StatusText")["StatusText"]
    # Long C (next screen): the hours screen, not the days screen after it.
    d.press("C", hold_ms=1300, bounce=4)
    time.sleep(2)
    shown = dev.texts(glass_now(b))
    assert "Next hours" in shown and "Today" not in shown, shown
    # Long A (next place): the saved place, then back to the GPS entry with a second one.
    d.press("A", hold_ms=1300, bounce=4)
    time.sleep(2)
    saved = dev.texts(glass_now(b))
    record(b.root, "after_next_place", repr(saved))
    d.press("A", hold_ms=1300, bounce=4)
    # Long C through the rest of the screens back to now: each press shows another screen.
    seen = []
    for _ in range(6):
        d.press("C", hold_ms=1300, bounce=4)
        time.sleep(2)
        shown = dev.texts(glass_now(b))
        seen.append(shown[:3])
        if "Berlin" in shown:
            break
    record(b.root, "screens", repr(seen))
    assert "Berlin" in shown, seen
    assert all(seen[i] != seen[i + 1] for i in range(len(seen) - 1)), seen


@pytest.mark.ci_arm64
def test_press_to_glass(board):
    """20 short presses of C (12/24 h): from the gpio-sim edge (the guest's CLOCK_MONOTONIC right
    after the pull was written) to the last byte of the frame on the bus (the adapter's stamp
    on the same clock). A short press is known at its release, so both are reported: from the
    first press edge and from the last release edge."""
    b, d = board, board.device
    from_press, from_release, lost = [], [], []
    for i in range(20):
        before = d.journal_count()
        edge = d.press("C", hold_ms=60, bounce=3)
        try:
            d.wait_journal(r"settings:", after=before, timeout=15)
        except AssertionError:
            lost.append(i)  # no gesture from this press: counted and reported below
            continue
        # The frame is on the bus once a burst of writes follows the release (half a second
        # later the burst is long over); the daemon may be slow to draw under load.
        deadline = time.monotonic() + 15
        end = None
        while end is None and time.monotonic() < deadline:
            time.sleep(0.5)
            end = dev.frame_end_after(dev.bus_times(d.fetch_log(b.workdir)), edge["released"])
        assert end is not None, "no frame on the bus within 15 s of the press"
        from_press.append(end - edge["down"])
        from_release.append(end - edge["released"])
    record(b.root, "press_to_glass_median_ms", "%.1f from the press, %.1f from the release (%d presses; min %.1f max %.1f from the release)"
           % (dev.median_ms(from_press), dev.median_ms(from_release), len(from_release), min(from_release) * 1000, max(from_release) * 1000))
    record(b.root, "presses_lost", "%d of 20 %s; status: %s" % (len(lost), lost, d.show("StatusText")["StatusText"]))
    # Every press is one gesture: edge loss is read from the kernel's own sequence numbers
    # (gpio_v2_line_event.line_seqno), and a press whose edges the kernel dropped still counts.
    # (Before, a bouncing press under load was sometimes taken for an overflow by comparing
    # levels with edges, and resynchronised without a gesture.)
    assert not lost, "%d of 20 presses made no gesture: %s" % (len(lost), d.show("StatusText")["StatusText"])
    assert dev.median_ms(from_release) < 1000


def test_line_held_by_another_process(board):
    """GPIO17 taken by another program first: one clear line, the other buttons' group waits,
    and the button works once the line is free again."""
    b, d = board, board.device
    b.vm.sh("systemctl stop thunderstorm")
    chip = b.chip["chip"]
    if vboard.release_of(b.root) == "trixie":  # libgpiod 2.x: the real gpiomon
        holder = "gpiomon -c %s GPIO17" % chip
    else:  # bookworm's gpiomon is libgpiod 1.6: v1 uAPI only, which this kernel lacks
        holder = "python3 %s/guest/hold_line.py %s 17" % (dev.OPT, chip)
    b.vm.sh("systemd-run --unit vboard-holder --collect %s" % holder)
    time.sleep(2)
    assert b.vm.sh("systemctl is-active vboard-holder", check=False).strip() == "active", \
        b.vm.sh("journalctl -u vboard-holder --no-pager", check=False)
    before = d.journal_count()
    b.vm.sh("systemctl start thunderstorm")
    d.wait_active()
    _, line = d.wait_journal(r"cannot request the lines", after=before, timeout=30)
    record(b.root, "line_held", line.split("]: ", 1)[-1])
    assert re.search(r"busy|in use", line, re.I), line
    b.vm.sh("systemctl stop vboard-holder")
    d.wait_journal(r"buttons .*: requested", after=before, timeout=45)
    before = d.journal_count()
    d.press("A", hold_ms=120, bounce=4)
    d.wait_journal(r"settings: celsius", after=before)


def test_gps_silent_and_back(board):
    b, d = board, board.device
    b.gps.silent = True
    status = d.wait_status(r"GPS (silent|fix lost|no data)", timeout=60)
    record(b.root, "gps_silent_status", repr(status))
    b.gps.silent = False
    d.wait_status(r"GPS 3D fix", timeout=60)


@pytest.mark.ci_arm64
def test_reload_stop_and_pi5_label(board):
    """systemctl reload with a changed board file (the panel at 0x3D), then with a broken one
    (kept running on the last good one, one line), then stop: exit 0 and the panel off. Then the
    same buttons on a chip labelled like the Pi 5's (pinctrl-rp1)."""
    b, d = board, board.device
    # Only the name changed: every part is kept as it was, and the panel is not initialised
    # again (no display off, AEh, SSD1306 §10.1.12, on the real bus after the reload). A press
    # right after works on the kept line request.
    def inits():
        return sum(1 for l in open(d.fetch_log(b.workdir)) if re.search(r" 3C: 00 AE\b", l))
    count = inits()
    assert count >= 1, "no initialisation of the panel in the bus log at all"
    d.write_board(dict(b.board, name="Renamed on the wall"), "/etc/thunderstorm/board.json")
    before = d.journal_count()
    b.vm.sh("systemctl reload thunderstorm")
    _, line = d.wait_journal(r"board file applied", after=before, timeout=20)
    record(b.root, "reload_renamed", line.split("]: ", 1)[-1])
    assert re.search(r"kept as they were: GPS, display, sensor, buttons, weather worker", line), line
    before = d.journal_count()
    d.press("B", hold_ms=120, bounce=4)
    d.wait_journal(r"settings: ", after=before)
    assert inits() == count, "the panel was initialised again after a reload that kept it"
    moved = dict(b.board, display=dict(b.board["display"], address="0x3D"))
    d.write_board(moved, "/etc/thunderstorm/board.json")
    before = d.journal_count()
    b.vm.sh("systemctl reload thunderstorm")
    d.wait_journal(r"board file applied", after=before, timeout=20)
    time.sleep(4)
    glass = glass_now(b, address="0x3D")
    assert "Berlin" in dev.texts(glass), glass
    b.vm.sh("echo '{\"schema\": 1, \"display\": ' > /etc/thunderstorm/board.json")
    before = d.journal_count()
    b.vm.sh("systemctl reload thunderstorm")
    _, line = d.wait_journal(r"board file not applied", after=before, timeout=20)
    record(b.root, "reload_broken", line.split("]: ", 1)[-1])
    assert b.vm.sh("systemctl is-active thunderstorm").strip() == "active"
    b.vm.sh("systemctl stop thunderstorm")
    props = d.show("ExecMainStatus", "Result")
    assert props == {"ExecMainStatus": "0", "Result": "success"}, props
    log = d.fetch_log(b.workdir)
    last = [l for l in open(log) if l.startswith("t=") and " 3D: " in l][-1]
    assert last.split(" 3D: ", 1)[1].startswith("00") and " AE" in last, last  # display off (SSD1306 §10.1.12)
    # The Pi 5: the same board on pinctrl-rp1.
    b.chip = d.buttons(label="pinctrl-rp1")
    b.board = dev.board_file(b.bus, label="pinctrl-rp1", gps=d.gps_device)
    d.write_board(b.board, "/etc/thunderstorm/board.json")
    before = d.journal_count()
    b.vm.sh("systemctl start thunderstorm")
    d.wait_active()
    d.press("A", hold_ms=120, bounce=4)
    # One gesture on the rp1-labelled chip (which way A toggles depends on the scenarios run
    # before this one: CI's arm64 subset leaves out the one that pressed A last).
    d.wait_journal(r"settings: (fahrenheit|celsius)", after=before)


def switch_panel(b, devices, display, **options):
    """The daemon stopped, the adapter replaced by one with `devices` behind it (a fresh bus
    log), the board file naming `display`, and the daemon started again."""
    d = b.device
    b.vm.sh("systemctl stop thunderstorm vboard-i2c")
    b.bus = d.i2c(devices)
    board = dev.board_file(b.bus, label=b.chip["label"], display=display, gps=d.gps_device, **options)
    d.write_board(board, "/etc/thunderstorm/board.json")
    b.vm.sh("systemctl start thunderstorm")
    d.wait_active()
    d.wait_status(r"^(?!.*Clock (unsure|not set))", timeout=60)
    time.sleep(4)


def test_other_panels_and_a_broken_driver(board):
    """The SH1106 (column offset 2, as most 1.3-inch modules) and the HD44780 20x4 behind a
    PCF8574, each on the same real adapter, read back off the bus. A deliberately wrong column
    address (the SH1106 driven with offset 0 while the module shows columns 2-129) must make
    the glass check fail."""
    b, d = board, board.device
    b.vm.sh("systemctl stop thunderstorm")
    for key, value in [("temperature", "celsius"), ("units", "metric"), ("clock", "24h")]:
        b.vm.sh(d.bin + " store set --dir /var/lib/private/thunderstorm %s %s" % (key, value))
    switch_panel(b, "sh1106@3c,bme280@76", "sh1106")
    glass = d.glass(d.fetch_log(b.workdir), display="sh1106-128x64")
    assert glass["modelErrors"] == [], glass
    check_now_screen(glass, b.vm.sh("TZ=Europe/Berlin date +%H:%M").strip())
    record(b.root, "sh1106_text", repr(dev.texts(glass)))

    switch_panel(b, "sh1106@3c,bme280@76", "sh1106", columnOffset=0)
    broken = d.glass(d.fetch_log(b.workdir), display="sh1106-128x64")
    with pytest.raises(AssertionError):
        check_now_screen(broken, b.vm.sh("TZ=Europe/Berlin date +%H:%M").strip())
    record(b.root, "sh1106_wrong_column_reads", repr([(t["text"], t["x"], t["y"]) for t in broken["text"]]))

    switch_panel(b, "hd44780@27,bme280@76", "hd44780", geometry="20x4", address="0x27")
    lcd = d.glass(d.fetch_log(b.workdir), display="hd44780-20x4", address="0x27")
    record(b.root, "hd44780_rows", repr(lcd["rows"]))
    record(b.root, "hd44780_model_errors", repr(lcd["modelErrors"][:3]))
    rows = lcd["rows"]
    assert rows[0].startswith("Berlin") and re.search(r"\d\d:\d\d$", rows[0]), rows
    assert "-3°C" in rows[1] and "Cloudy" in rows[1], rows
    assert "88%" in rows[2] and "11 km/h E" in rows[2], rows

    switch_panel(b, "ssd1306@3c,ssd1306@3d,bme280@76", "ssd1306")


@pytest.mark.ci_arm64
def test_parts_appear_after_the_service_started(board):
    """The button chip and the I²C adapter come after the daemon (a HAT's driver loaded late, a
    USB adapter plugged in later): started without them it runs and says what is missing, then
    takes each when it appears, with no restart: the buttons' lines are requested, the panel
    draws, and a press is a gesture."""
    b, d = board, board.device
    b.vm.sh("systemctl stop thunderstorm vboard-i2c && echo 0 > /sys/kernel/config/gpio-sim/vboard/live")
    assert b.vm.run("test -e /dev/%s" % b.chip["chip"])["rc"] != 0, "the button chip is still there"
    before = d.journal_count()
    b.vm.sh("systemctl start --no-block thunderstorm")
    b.vm.wait_for('s=$(systemctl is-active thunderstorm); [ "$s" = active ] || [ "$s" = activating ]', 60,
                  what="the service running without its parts")
    time.sleep(5)
    status = d.show("StatusText")["StatusText"]
    record(b.root, "without_parts_status", repr(status))
    t0 = time.monotonic()
    b.chip = d.buttons(label=b.chip["label"])
    bus = d.i2c()
    assert bus == b.bus, "the adapter came back as %s, not %s: the board file names the old one" % (bus, b.bus)
    d.wait_active(timeout=120)
    d.wait_journal(r"buttons .*: requested", after=before, timeout=90)
    d.wait_status(r"^(?!.*(gone|missing|no such))", timeout=90)
    record(b.root, "parts_appeared_to_active_s", "%.1f" % (time.monotonic() - t0))
    assert d.show("NRestarts")["NRestarts"] == "0"
    mark = d.journal_count()
    d.press("A", hold_ms=120, bounce=4)
    d.wait_journal(r"settings: ", after=mark)
    time.sleep(2)
    assert "Berlin" in dev.texts(glass_now(b))


@pytest.mark.ci_arm64
def test_libgpiod_mapped_on_trixie(board):
    """On Debian 13 the buttons go through libgpiod 2 (libgpiod.so.3, dlopen'd): the running
    daemon's /proc/PID/maps shows it. On Debian 12 (libgpiod 1.6 only) the kernel's uAPI v2."""
    b, d = board, board.device
    probe = b.vm.sh("%s hal probe 2>&1" % d.bin, check=False)
    record(b.root, "hal_probe", repr([l for l in probe.splitlines() if "gpio" in l.lower()][:4]))
    if b.vm.run("grep -q libgpiod.so.3 %s" % d.bin)["rc"] != 0:
        pytest.skip("this build does not load libgpiod (no libgpiod.so.3 in %s): the libgpiod "
                    "change has not landed in it" % d.bin)
    pid = d.show("MainPID")["MainPID"]
    maps = b.vm.sh("grep -o '[^ ]*libgpiod[^ ]*' /proc/%s/maps | sort -u || true" % pid).split()
    record(b.root, "libgpiod_in_maps", repr(maps))
    if vboard.release_of(b.root) == "trixie":
        assert any("libgpiod.so.3" in m for m in maps), maps
    else:
        assert not any("libgpiod.so.3" in m for m in maps), maps


@pytest.mark.ci_arm64
def test_power_cut_after_acknowledged_commit(board):
    """The VM killed right after the journal acknowledged a commit: the setting is there after
    the next boot, and the store checks clean."""
    b, d = board, board.device
    before = d.journal_count()
    d.press("B", hold_ms=120, bounce=4)
    _, line = d.wait_journal(r"settings: ", after=before)
    b.vm.power_cut()
    temperature, units, clock, brightness = line.split("settings: ", 1)[1].strip().split(", ")
    acknowledged = {"temperature": temperature, "units": units, "time": clock,
                    "brightness": brightness.replace("brightness ", "")}
    record(b.root, "power_cut_after", repr(acknowledged))
    record(b.root, "reboot_to_agent_s", "%.1f" % b.vm.boot())
    # The daemon starts with the boot: kernel start to READY=1 on the guest's monotonic clock.
    # (The adapter and the GPS feed are not up yet: its first frame waits for the panel.)
    d.wait_active(timeout=180)
    ready = int(d.show("ActiveEnterTimestampMonotonic")["ActiveEnterTimestampMonotonic"]) / 1e6
    record(b.root, "kernel_boot_to_ready_s", "%.1f" % ready)
    b.vm.sh("systemctl stop thunderstorm")
    store = json.loads(b.vm.sh(d.bin + " store show --dir /var/lib/private/thunderstorm"))
    assert store["settings"] == acknowledged, (store, line)
    assert store["health"] == "store ok" and len(store["locations"]) == 1, store
    check = b.vm.run(d.bin + " store check --dir /var/lib/private/thunderstorm")
    assert check["rc"] == 0, check
