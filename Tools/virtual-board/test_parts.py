"""The virtual board's parts on the root's kernel, with no daemon: what the scenarios stand on,
checked on every root (on arm64 before any arm64 build of the daemon existed). The kernel and
userland are the root's architecture; the GPS arrives whole and paced on the arch's UART (the
PL011 /dev/ttyAMA0 on arm64, as the Pi's primary UART; a 16550 on x86-64); the button chip has
the Pi's label and line names and a press reaches a line request through the uAPI v2 with the
bounce the script made; the I²C adapter is a real /dev/i2c-N from the kernel's i2c-tiny-usb
driver, with the BME280 answering its chip id. Also the boot's figures for the closing note.
"""
import json
import os
import tempfile
import time

import pytest

import device as dev
import vboard
from test_device import ROOTS, record

# Run in the guest: requests LINE of CHIP with both edges and bias pull-up through the uAPI v2
# (include/uapi/linux/gpio.h), prints "ready", then each edge event as "<rising|falling> <ns>"
# (the event's CLOCK_MONOTONIC stamp) for SECONDS.
EDGES = r"""
import fcntl, os, select, struct, sys, time
chip, offset, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
REQUEST_SIZE = 592
GET_LINE = (3 << 30) | (REQUEST_SIZE << 16) | (0xB4 << 8) | 0x07
INPUT, RISING, FALLING, PULL_UP = 1 << 2, 1 << 4, 1 << 5, 1 << 8
request = bytearray(REQUEST_SIZE)
struct.pack_into("<I", request, 0, offset)
struct.pack_into("32s", request, 256, b"vboard-parts")
struct.pack_into("<Q", request, 288, INPUT | RISING | FALLING | PULL_UP)
struct.pack_into("<I", request, 560, 1)
fd = os.open("/dev/" + chip, os.O_RDONLY)
fcntl.ioctl(fd, GET_LINE, request)
line = struct.unpack_from("<i", request, 588)[0]
print("ready", flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    if select.select([line], [], [], 0.1)[0]:
        data = os.read(line, 48 * 16)
        for i in range(0, len(data), 48):
            ts, ident = struct.unpack_from("<QI", data, i)
            print("%s %d" % ("rising" if ident == 1 else "falling", ts), flush=True)
"""


# Run in the guest: the driver of the hardware under a tty (the first ancestor in sysfs whose
# driver is not serial_core's `port` or `ctrl`): uart-pl011 for a PL011, serial8250 for a 16550.
UART_DRIVER = """
import os, sys
path = os.path.realpath("/sys/class/tty/%s/device" % sys.argv[1])
while path != "/sys":
    link = os.path.join(path, "driver")
    if os.path.islink(link) and os.path.basename(os.readlink(link)) not in ("port", "ctrl"):
        print(os.path.basename(os.readlink(link)))
        break
    path = os.path.dirname(path)
"""

# Run in the guest: the chip's label and line 17's name through the uAPI
# (GPIO_GET_CHIPINFO_IOCTL, GPIO_V2_GET_LINEINFO_IOCTL; include/uapi/linux/gpio.h).
CHIP_INFO = """
import fcntl, os, struct, sys
fd = os.open("/dev/" + sys.argv[1], os.O_RDONLY)
chip = bytearray(68)
fcntl.ioctl(fd, (2 << 30) | (68 << 16) | (0xB4 << 8) | 0x01, chip)
info = bytearray(256)
struct.pack_into("<I", info, 64, int(sys.argv[2]))
fcntl.ioctl(fd, (3 << 30) | (256 << 16) | (0xB4 << 8) | 0x05, info)
name = lambda b: bytes(b).split(b"\\0")[0].decode()
print(name(chip[32:64]), struct.unpack_from("<I", chip, 64)[0], name(info[0:32]))
"""


@pytest.fixture(scope="module", params=ROOTS)
def vm(request):
    workdir = tempfile.mkdtemp(prefix="vboard-parts-%s-" % request.param)
    machine = vboard.VM(vboard.Disk(request.param, workdir), workdir)
    record(request.param, "boot_to_agent_s", "%.1f" % machine.boot())
    yield request.param, machine
    machine.shutdown()
    machine.disk.remove()


def test_kernel_and_userland_are_the_roots_arch(vm):
    root, v = vm
    machine = v.sh("uname -m").strip()
    dpkg = v.sh("dpkg --print-architecture").strip()
    record(root, "uname_m", "%s, dpkg %s, kernel %s" % (machine, dpkg, v.kernel))
    expected = {"arm64": ("aarch64", "arm64"), "amd64": ("x86_64", "amd64")}[vboard.arch_of(root)]
    assert (machine, dpkg) == expected
    boot = v.sh("systemd-analyze 2>&1 | head -1", check=False).strip()
    record(root, "systemd_analyze", repr(boot))


def test_gps_on_the_uart_whole_and_paced(vm):
    """Eight seconds of a NEO-6M's sentences at 9600 Bd: every one arrives with a valid
    checksum on the arch's UART (the PL011 driver `uart-pl011` on arm64), at about 960 B/s."""
    root, v = vm
    device = vboard.ARCHES[vboard.arch_of(root)]["gps"]
    driver = v.sh("python3 -c '%s' %s" % (UART_DRIVER, os.path.basename(device))).strip()
    record(root, "gps_uart", "%s (driver %s)" % (device, driver))
    assert driver == {"arm64": "uart-pl011", "amd64": "serial8250"}[vboard.arch_of(root)], driver
    v.sh("stty -F %s 9600 raw -echo cs8 -cstopb -parenb" % device)
    feeder = vboard.GPSFeeder(v)
    reply = {}
    import threading
    reader = threading.Thread(target=lambda: reply.update(v.run("timeout 9 cat %s" % device, timeout=30)))
    reader.start()
    time.sleep(1)
    feeder.start()
    reader.join()
    feeder.stop()
    text = reply.get("out", "")
    lines = [l for l in text.replace("\r", "").split("\n") if l.startswith("$")]
    good = [l for l in lines if "*" in l and vboard.nmea(l[1:l.index("*")]).strip() == l.strip()]
    span = reply["ended"] - reply["started"]
    record(root, "gps_uart_sentences", "%d whole of %d, %d bytes in %.1f s" % (len(good), len(lines), len(text), span))
    assert len(good) >= 8 * 5 and len(good) >= len(lines) - 2, lines[:5]
    # Paced: 8 s of feed at most 8 epochs of ~500 bytes: well under QEMU's unpaced rate.
    assert len(text) < 9 * 960 * 1.1, len(text)


def test_button_chip_with_the_pis_label_and_bounce(vm):
    """gpio-sim with the Pi 4's label and names; a press with 4 chatters each way reaches a
    line request (both edges, pull-up) as edges, the first falling within a few ms of the write."""
    root, v = vm
    d = dev.Device(v, None)
    chip = d.buttons()
    assert chip["label"] == "pinctrl-bcm2711"
    label, lines, name = v.sh("python3 -c '%s' %s 17" % (CHIP_INFO, chip["chip"])).split()
    record(root, "button_chip", "%s label %s, %s lines, line 17 %s" % (chip["chip"], label, lines, name))
    assert (label, lines, name) == ("pinctrl-bcm2711", "58", "GPIO17")
    v.sh("cat > /tmp/edges.py <<'EOF'\n%s\nEOF" % EDGES)
    v.sh("systemd-run --unit vboard-edges --collect -p StandardOutput=file:/tmp/edges.out "
         "python3 /tmp/edges.py %s 17 20" % chip["chip"])
    v.wait_for("grep -q ready /tmp/edges.out", 30, every=0.3)
    press = d.press("A", hold_ms=100, bounce=4)
    time.sleep(1)
    v.sh("systemctl stop vboard-edges", check=False)
    edges = [l.split() for l in v.sh("cat /tmp/edges.out").splitlines()[1:]]
    record(root, "button_edges", "%d edges for a press with 4 chatters each way; first %s" % (len(edges), edges[:1]))
    assert edges and edges[0][0] == "falling", edges
    assert edges[-1][0] == "rising", edges
    # The kernel stamps the edge inside the pull's write; the script's "down" is read after the
    # write returned (15.6 ms later once under TCG with the machine loaded).
    first = int(edges[0][1]) / 1e9
    record(root, "button_edge_before_write_returned_ms", "%.1f" % ((press["down"] - first) * 1000))
    assert -0.05 < first - press["down"] <= 0.001, (first, press)


def test_i2c_adapter_real_dev_node(vm):
    """The emulated i2c-tiny-usb adapter over vhci-hcd: the kernel's driver binds it, a real
    /dev/i2c-N; the BME280 at 0x76 answers its chip id (0x60), nobody at 0x50 (ENXIO)."""
    root, v = vm
    d = dev.Device(v, None)
    t0 = time.monotonic()
    bus = d.i2c()
    record(root, "i2c_adapter", "%s in %.1f s: %s" % (bus, time.monotonic() - t0,
           v.sh("cat /sys/class/i2c-dev/%s/name" % os.path.basename(bus)).strip()))
    number = bus.split("-")[-1]
    assert v.sh("i2cget -y %s 0x76 0xd0" % number).strip() == "0x60"
    assert v.run("i2cget -y %s 0x50 0x00" % number)["rc"] != 0
