"""The Debian package on the virtual board (the arm64 roots): `apt install ./thunderstorm_…deb`
offline, `thunderstorm setup BOARD`, an upgrade to a higher version, remove and purge, each
followed 1–30 s later by a power cut (seeded by $VBOARD_SEED, printed; the same seed gives the
same delays). After each cut the next boot must find a consistent system: dpkg has nothing half
done (`dpkg --audit`), the package's files are whole (`dpkg --verify`: their MD5 sums), the
chosen board and the store are there, and the service is as the step left it (not started
before a board is chosen; running after setup and after the upgrade; gone after remove).
Needs VBOARD_DEB (and VBOARD_DEB_NEXT, a higher version of the same package, for the upgrade).
"""
import json
import os
import random
import re
import tempfile
import time

import pytest

import device as dev
import vboard
from test_device import ROOTS, record

DEB = os.environ.get("VBOARD_DEB")
DEB_NEXT = os.environ.get("VBOARD_DEB_NEXT")
SEED = int(os.environ.get("VBOARD_SEED", str(int(time.time()))))
STATE = "/var/lib/private/thunderstorm"

pytestmark = pytest.mark.skipif(not DEB, reason="VBOARD_DEB is not set: no package to install "
                                "(scripts/package-deb.sh or scripts/build-deb.sh makes dist/thunderstorm_VERSION_ARCH.deb)")


class PackageBoard:
    def __init__(self, root):
        self.root = root
        self.workdir = tempfile.mkdtemp(prefix="vboard-package-%s-" % root)
        self.vm = vboard.VM(vboard.Disk(root, self.workdir), self.workdir)
        self.device = dev.Device(self.vm, None)
        self.rng = random.Random("%s-%d" % (root, SEED))
        self.gps = None

    def parts(self):
        d = self.device
        self.chip = d.buttons()
        self.bus = d.i2c()
        d.weather()
        self.gps = vboard.GPSFeeder(self.vm)
        self.gps.start()
        self.board = dev.board_file(self.bus, gps=d.gps_device)
        self.board_path = d.write_board(self.board)
        self.vm.sh("sync")  # the board file is the test's, not the package's

    def cut(self, after):
        delay = self.rng.uniform(1, 30)
        record(self.root, "power_cut_after_%s_s" % after, "%.1f (seed %d)" % (delay, SEED))
        time.sleep(delay)
        self.vm.power_cut()
        self.vm.boot()

    def consistent(self):
        """dpkg has nothing half-installed and the package's files are whole."""
        audit = self.vm.sh("dpkg --audit 2>&1", check=False).strip()
        assert audit == "", "dpkg --audit after the power cut:\n" + audit
        verify = self.vm.run("dpkg --verify thunderstorm 2>&1")
        assert verify["rc"] == 0 and verify["out"].strip() == "", "dpkg --verify: " + verify["out"]


@pytest.fixture(scope="module", params=ROOTS)
def pkg(request):
    b = PackageBoard(request.param)
    b.vm.boot()
    yield b
    if b.gps:
        b.gps.stop()
    b.vm.shutdown()
    b.vm.disk.remove()


def service_state(b):
    return b.vm.sh("systemctl is-active thunderstorm.service 2>/dev/null || true").strip()


@pytest.mark.ci_arm64
def test_install_then_power_cut(pkg):
    """apt install, offline: nothing started (no board chosen yet), the groups made; a power cut
    1–30 s later leaves the package installed and whole, the unit loaded, still not started."""
    b, d = pkg, pkg.device
    b.parts()
    t0 = time.monotonic()
    out = d.apt_install()
    record(b.root, "apt_install_s", "%.1f" % (time.monotonic() - t0))
    record(b.root, "package", d.package_version())
    assert d.package_version().startswith("install ok installed"), out
    assert service_state(b) != "active", "the service runs before a board was chosen"
    b.cut("apt_install")
    b.consistent()
    assert d.package_version().startswith("install ok installed")
    assert d.show("LoadState")["LoadState"] == "loaded"
    time.sleep(5)
    assert service_state(b) != "active", "the service started at boot before a board was chosen"
    groups = b.vm.sh("getent group gpio i2c dialout | cut -d: -f1").split()
    assert sorted(groups) == ["dialout", "gpio", "i2c"], groups


@pytest.mark.ci_arm64
def test_setup_then_power_cut(pkg):
    """`thunderstorm setup BOARD`: the board chosen, the service enabled and started, READY=1;
    a power cut 1–30 s later: the board file whole, the service started by the next boot."""
    b, d = pkg, pkg.device
    t0 = time.monotonic()
    record(b.root, "setup_output", repr(d.setup(b.board_path)[-300:]))
    d.wait_active(timeout=300)
    record(b.root, "setup_to_ready_s", "%.1f" % (time.monotonic() - t0))
    b.cut("setup")
    b.consistent()
    chosen = json.loads(b.vm.sh("cat /etc/thunderstorm/board.json"))
    assert chosen == b.board, chosen
    assert d.show("UnitFileState")["UnitFileState"] == "enabled"
    d.wait_active(timeout=300)
    ready = int(d.show("ActiveEnterTimestampMonotonic")["ActiveEnterTimestampMonotonic"]) / 1e6
    record(b.root, "kernel_boot_to_ready_s", "%.1f" % ready)
    d.wait_status(r"GPS .*(3D|fix)", timeout=180)


def test_upgrade_then_power_cut(pkg):
    """A setting committed, then `apt install ./thunderstorm_NEXT…deb` (a higher version) and a
    power cut 1–30 s later: the new version installed and whole, the board and the setting kept,
    the service running the new binary."""
    if not DEB_NEXT:
        pytest.skip("VBOARD_DEB_NEXT is not set: no higher version to upgrade to "
                    "(scripts/package-deb.sh --version V makes one from the same binary)")
    b, d = pkg, pkg.device
    before = d.journal_count()
    d.press("B", hold_ms=120, bounce=4)
    _, line = d.wait_journal(r"settings: ", after=before)
    old = d.package_version()
    t0 = time.monotonic()
    out = d.apt_install(DEB_NEXT)
    record(b.root, "apt_upgrade_s", "%.1f" % (time.monotonic() - t0))
    new = d.package_version()
    record(b.root, "upgraded", "%s -> %s" % (old, new))
    assert new != old and new.startswith("install ok installed"), out
    b.cut("upgrade")
    b.consistent()
    assert d.package_version() == new
    chosen = json.loads(b.vm.sh("cat /etc/thunderstorm/board.json"))
    assert chosen == b.board, chosen
    d.wait_active(timeout=300)
    b.vm.sh("systemctl stop thunderstorm")
    store = json.loads(b.vm.sh("%s store show --dir %s" % (d.bin, STATE)))
    committed = line.split("settings: ", 1)[1].strip().split(", ")
    assert store["settings"]["units"] == committed[1], (store, line)
    b.vm.sh("systemctl start thunderstorm")
    d.wait_active(timeout=300)


def test_remove_then_power_cut_and_purge(pkg):
    """apt remove: the service stopped and gone; a power cut 1–30 s later: still gone after the
    boot (no unit, no process, no binary), the configuration kept (dpkg's config-files state).
    Then purge: what is left behind is recorded (the store is the user's data)."""
    b, d = pkg, pkg.device
    out = b.vm.sh("DEBIAN_FRONTEND=noninteractive apt-get remove -y -o Dpkg::Use-Pty=0 thunderstorm 2>&1", timeout=600)
    assert service_state(b) != "active", out
    b.cut("remove")
    audit = b.vm.sh("dpkg --audit 2>&1", check=False).strip()
    assert audit == "", audit
    status = d.package_version()
    record(b.root, "after_remove", repr(status))
    assert status.startswith("deinstall ok config-files") or status == "", status
    time.sleep(5)
    assert b.vm.run("pgrep -x thunderstorm")["rc"] != 0, "a thunderstorm process after remove"
    assert b.vm.run("test -e /usr/bin/thunderstorm")["rc"] != 0
    assert d.show("LoadState")["LoadState"] == "not-found", d.show("LoadState", "FragmentPath")
    left = b.vm.sh("ls -la /etc/thunderstorm %s /var/lib/thunderstorm 2>&1; dpkg -L thunderstorm 2>&1 | head -20" % STATE, check=False)
    record(b.root, "left_after_remove", repr(left))
    out = b.vm.sh("DEBIAN_FRONTEND=noninteractive apt-get purge -y -o Dpkg::Use-Pty=0 thunderstorm 2>&1; sync", timeout=600)
    assert d.package_version() == "", out
    left = b.vm.sh("ls -la /etc/thunderstorm %s /var/lib/thunderstorm 2>&1; "
                   "ls /etc/systemd/system/*/thunderstorm* /etc/udev/rules.d/*thunderstorm* 2>&1; "
                   "getent group gpio i2c dialout" % STATE, check=False)
    record(b.root, "left_after_purge", repr(left))
    assert not re.search(r"multi-user.target.wants/thunderstorm", left), left
