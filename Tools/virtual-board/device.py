"""The virtual board's parts and the installed device, driven from the host: the board file the
VM's daemon reads, the gpio-sim buttons, the I²C adapter and its log, the weather server in the
guest, the project's setup-pi.sh and install.sh, and what systemd and the store say.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

import vboard

OPT = "/opt/vboard"
I2C_LOG = "/var/log/vboard-i2c.log"
BUTTON_LINES = {"A": 17, "B": 27, "C": 22}
WEATHER_PORT = 8080


def board_file(i2c_bus, label="pinctrl-bcm2711", display="ssd1306", address="0x3C", geometry="128x64",
               gps="/dev/ttyS1", **options):
    """The board file of the VM's build: the reference Pi 4 build's parts on the VM's devices
    (`gps`: the VM's UART for the receiver, Device.gps_device). Screens neither rotate nor
    orbit, so what the glass shows at a moment is known."""
    display_part = dict({"kind": display, "bus": i2c_bus, "address": address, "geometry": geometry}, **options)
    return {
        "schema": 1,
        "name": "Virtual board (%s)" % label,
        "gps": {"device": gps, "baud": 9600},
        "display": display_part,
        "buttons": [
            {"name": name, "chip": label, "line": "GPIO%d" % line, "activeLow": True, "bias": "pull-up"}
            for name, line in BUTTON_LINES.items()
        ],
        "sensor": {"kind": "bme280", "bus": i2c_bus, "address": "0x76"},
        "weather": {"baseURL": "http://127.0.0.1:%d" % WEATHER_PORT},
        "defaultLocation": {"name": "Berlin", "latitude": 52.52, "longitude": 13.405},
        "timeZone": "Europe/Berlin",
        "screens": {"rotate": False, "orbit": False},
    }


class Device:
    """The installed daemon in a VM. Two ways in: the Debian package (VBOARD_DEB: `apt install
    ./thunderstorm_VERSION_ARCH.deb`, then `thunderstorm setup BOARD`; the arm64 roots), or the
    project's scripts with a bare binary (VBOARD_BINARY: setup-pi.sh and install.sh; x86-64)."""

    def __init__(self, vm, binary):
        self.vm = vm
        self.deb = os.environ.get("VBOARD_DEB") or None
        self.packaged = bool(self.deb)
        # Where the installed daemon is: the package's /usr/bin, or install.sh's /usr/local/bin.
        self.bin = "/usr/bin/thunderstorm" if self.packaged else "/usr/local/bin/thunderstorm"
        self.gps_device = vm.arch["gps"]
        self.setup_emulated = False
        # The host reads the bus log back with the project's own `thunderstorm glass`: the
        # binary under test, or VBOARD_HOST_TOOL (another build, when the VM's is older). An
        # arm64 binary runs here under qemu-aarch64 (user mode) against the root's libraries;
        # from a package, it is taken out of the .deb.
        tool = os.environ.get("VBOARD_HOST_TOOL") or binary or (self._from_deb(self.deb) if self.deb else None)
        self.host_tool = [tool]
        if not os.environ.get("VBOARD_HOST_TOOL") and vm.disk.arch == "arm64":
            self.host_tool = ["qemu-aarch64-static", "-L", os.path.join(vboard.CACHE, "roots", vm.disk.release), tool]
        self.binary = tool

    def _from_deb(self, deb):
        out = os.path.join(self.vm.workdir, "deb-tree")
        if not os.path.exists(out):
            subprocess.run(["dpkg-deb", "-x", deb, out], check=True)
        return os.path.join(out, "usr", "bin", "thunderstorm")

    # --- parts ------------------------------------------------------------------------------
    # The parts are systemd units of the guest, enabled and synced, so that after a power cut
    # they come back with the boot, before the daemon, as a Pi's hardware would be there.
    def unit(self, name, command, kind="simple"):
        self.vm.sh("cat > /etc/systemd/system/%s.service <<'EOF'\n"
                   "[Unit]\nDescription=virtual board part %s\nBefore=thunderstorm.service\n"
                   "[Service]\nType=%s\nRemainAfterExit=%s\nExecStart=%s\n"
                   "[Install]\nWantedBy=multi-user.target\nEOF\n"
                   "systemctl daemon-reload && systemctl enable %s.service 2>/dev/null && sync && "
                   "systemctl restart %s.service" % (name, name, kind, "yes" if kind == "oneshot" else "no",
                                                     command, name, name))

    def buttons(self, label="pinctrl-bcm2711"):
        self.vm.sh("rm -f /run/vboard-buttons.json")
        self.unit("vboard-buttons", "/usr/bin/python3 %s/guest/buttons.py setup --label %s" % (OPT, label), "oneshot")
        return json.loads(self.vm.sh("cat /run/vboard-buttons.json"))

    def i2c(self, devices="ssd1306@3c,ssd1306@3d,bme280@76"):
        """The emulated i2c-tiny-usb adapter with `devices` behind it; returns /dev/i2c-N."""
        self.vm.sh("rm -f /run/vboard-i2c.ready")
        self.unit("vboard-i2c", "/usr/bin/python3 %s/guest/i2c_tiny_usb.py --devices %s --log %s "
                  "--ready /run/vboard-i2c.ready --bme280-vector %s/bme280-vectors.json --bme280-index 0"
                  % (OPT, devices, I2C_LOG, OPT))
        name = self.vm.wait_for("cat /run/vboard-i2c.ready", 60, what="the I²C adapter").strip()
        return "/dev/" + name

    def weather(self):
        self.unit("vboard-forecast", "/usr/bin/python3 %s/guest/forecast.py %s/open-meteo-current-hourly-daily.json %d"
                  % (OPT, OPT, WEATHER_PORT))

    def write_board(self, board, path="%s/board.json" % OPT):
        self.vm.sh("cat > %s <<'EOF'\n%s\nEOF" % (path, json.dumps(board, indent=2)))
        return path

    # --- the project's own scripts ------------------------------------------------------------
    def setup_pi(self):
        return self.vm.sh("cd %s/src && scripts/setup-pi.sh 2>&1" % OPT, timeout=300)

    def install(self, board_path):
        return self.vm.sh("cd %s/src && scripts/install.sh --binary %s/thunderstorm --board %s 2>&1"
                          % (OPT, OPT, board_path), timeout=300)

    # --- the package ----------------------------------------------------------------------------
    def apt_install(self, deb=None):
        """`apt install ./thunderstorm_VERSION_ARCH.deb` in /opt/vboard, offline: the roots hold
        the package's dependencies (a missing one fails here, naming it)."""
        # No --no-download (the VM has no network anyway): with it, bookworm's apt 2.6 stops on a
        # .deb given by path with "Internal Error, Pathname to install is not absolute".
        name = os.path.basename(deb or self.deb)
        return self.vm.sh("cd %s && DEBIAN_FRONTEND=noninteractive apt-get install -y "
                          "-o Dpkg::Use-Pty=0 ./%s 2>&1" % (OPT, name), timeout=900)

    def setup(self, board_path):
        """`thunderstorm setup BOARD`: the board chosen, the service enabled and started. A
        package whose binary predates `setup` gets what setup does done by the test instead
        (the board file written and synced, the service enabled and restarted), and says so
        in its output and on stderr: that run does not test `setup`."""
        if self.vm.run("%s --help 2>&1 | grep -Eq '^ +setup( |$)'" % self.bin)["rc"] != 0:
            self.setup_emulated = True
            note = "vboard: %s has no `setup` command; the test wrote the board file and started the service" % self.bin
            sys.stderr.write(note + "\n")
            return self.vm.sh("install -D -m 644 %s /etc/thunderstorm/board.json && sync && "
                              "systemctl enable thunderstorm 2>&1 && sync && systemctl restart thunderstorm && echo '%s'"
                              % (board_path, note.replace("`", "")), timeout=300)
        return self.vm.sh("%s setup %s 2>&1" % (self.bin, board_path), timeout=300)

    def package_version(self):
        return self.vm.sh("dpkg-query -W -f '${Status} ${Version}' thunderstorm 2>/dev/null || true").strip()

    def install_daemon(self, board_path):
        """The daemon installed and started on `board_path`, the way this run installs it."""
        if self.packaged:
            out = self.apt_install()
            assert self.package_version().startswith("install ok installed"), out
            return out + self.setup(board_path)
        out = self.setup_pi()
        assert "skipped" in out, out  # not a Pi: says what it skipped
        out = self.install(board_path)
        assert "install.sh: installed" in out, out
        return out

    # --- what systemd says --------------------------------------------------------------------
    def show(self, *properties):
        out = self.vm.sh("systemctl show thunderstorm.service " + " ".join("-p " + p for p in properties))
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def wait_active(self, timeout=120):
        self.vm.wait_for("test \"$(systemctl is-active thunderstorm)\" = active", timeout, what="thunderstorm active (READY=1)")

    def wait_status(self, pattern, timeout=120):
        deadline = time.monotonic() + timeout
        while True:
            status = self.show("StatusText")["StatusText"]
            if re.search(pattern, status):
                return status
            if time.monotonic() > deadline:
                raise AssertionError("STATUS= never matched %r; last: %r\n%s" % (pattern, status, self.journal()[-3000:]))
            time.sleep(1)

    def journal(self, since_cursor=None):
        return self.vm.sh("journalctl -u thunderstorm -o short-monotonic --no-pager 2>&1", check=False)

    def journal_count(self):
        return len(self.journal().splitlines())

    def wait_journal(self, pattern, timeout=60, after=0):
        """Waits for a line of the daemon's journal matching `pattern` among the lines after the
        first `after`; returns (line count, the line)."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.journal().splitlines()
            for line in lines[after:]:
                if re.search(pattern, line):
                    return len(lines), line
            if time.monotonic() > deadline:
                raise AssertionError("no journal line matched %r:\n%s" % (pattern, "\n".join(lines[-40:])))
            time.sleep(0.5)

    # --- buttons ------------------------------------------------------------------------------
    def press(self, name, hold_ms=80, bounce=4):
        return json.loads(self.vm.sh("python3 %s/guest/buttons.py press %d --hold-ms %d --bounce %d"
                                     % (OPT, BUTTON_LINES[name], hold_ms, bounce)))

    # --- the glass ----------------------------------------------------------------------------
    def fetch_log(self, workdir, name="i2c.log"):
        path = os.path.join(workdir, name)
        with open(path, "w") as f:
            f.write(self.vm.read(I2C_LOG))
        return path

    def glass(self, log, display="ssd1306-128x64", until=None, png=None, address=None):
        argv = self.host_tool + ["glass", log, "--display", display]
        if until is not None:
            argv += ["--until", "%.6f" % until]
        if png:
            argv += ["--png", png]
        if address:
            argv += ["--address", address]
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode != 0:
            raise AssertionError("thunderstorm glass exited %d: %s" % (done.returncode, done.stderr))
        return json.loads(done.stdout)


def texts(glass):
    return [item["text"] for item in glass.get("text", [])]


def bus_times(log_path, address="3C"):
    """The t= stamps of the writes to `address` in the I²C log, in order."""
    stamps = []
    prefix = address.upper() + ":"
    with open(log_path) as f:
        for line in f:
            if line.startswith("t="):
                stamp, rest = line.split(" ", 1)
                if rest.startswith(prefix):
                    stamps.append(float(stamp[2:]))
    return stamps


def frame_end_after(stamps, moment, gap=0.05):
    """The last byte of the first frame after `moment`: the first write after it, then every
    write that follows within `gap` seconds of the one before (one frame is one burst)."""
    after = [t for t in stamps if t > moment]
    if not after:
        return None
    end = after[0]
    for t in after[1:]:
        if t - end > gap:
            break
        end = t
    return end


def median_ms(values):
    return statistics.median(values) * 1000
