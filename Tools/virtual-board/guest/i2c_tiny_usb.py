#!/usr/bin/env python3
"""A full I²C adapter for the virtual board: an i2c-tiny-usb device emulated in user space and
plugged into the kernel through USB/IP's virtual host controller, with the board's parts behind
it. The kernel's own i2c-tiny-usb driver binds to it and makes a real /dev/i2c-N (I2C_RDWR, plain
write(2) of a whole frame, ENXIO for an address nobody answers).

    i2c_tiny_usb.py --devices ssd1306@3c,bme280@76 --log /run/i2c.log --ready /run/i2c.ready \\
        --bme280-vector /opt/vboard/bme280-vectors.json --bme280-index 2 [--control /run/i2c.ctl]

Runs as root in the guest until SIGTERM/SIGINT. SIGUSR1 (or `unplug` on the control FIFO)
unplugs the adapter: its port is detached, the USB device and its /dev/i2c-N go away. SIGUSR2
(or `plug`) plugs it in again on a new connection. Other control lines: `detach 76` / `attach 76`
(a part stops / starts answering, as with a loose wire), `bme280 ADC_T ADC_P ADC_H` (what the
next conversions yield), `counters`. One line on stdout per state change; the --ready file holds
the adapter's name (`i2c-5`) while it is bound and is removed when it is unplugged.

Attaching (drivers/usb/usbip/vhci_sysfs.c): "PORT SOCKFD DEVID SPEED" written to
vhci_hcd.0/attach, SOCKFD one end of a connected SOCK_STREAM socket (an AF_UNIX socketpair
here: no network), SPEED 2 = USB_SPEED_FULL. The kernel takes its own reference to that
socket, so this process keeps only the other end. A full-speed device goes on a USB 2 port,
the `hs` lines of vhci_hcd.0/status (and status.N with several controllers); state 004 is
VDEV_ST_NULL, a free port; 006 is VDEV_ST_USED, and then the last column is the USB device.
Detaching: PORT written to vhci_hcd.0/detach; the kernel shuts the socket down.

Measured on Debian's 7.3.4 kernel (Debian 12 and 13 roots): the adapter is bound about 1-2 s
after attaching under TCG. vhci logs "vhci_device speed not set" at each port reset of a
full-speed device (vhci_hcd.c sets a port speed bit only for low and high speed): harmless.
Unplugged while a process holds /dev/i2c-N open, the node goes at once and that descriptor's
read, write and I2C_RDWR fail with EOPNOTSUPP (not ENODEV); the kernel finishes removing the
adapter only when the descriptor is closed, and until then an adapter plugged in again is not
enumerated (it was, 1 s after the close).
"""
import argparse
import glob
import os
import select
import signal
import socket
import subprocess
import sys
import time

from bme280_model import load_vector
from i2c_devices import I2CBus, parse_devices
from i2c_log import TransactionLog
from usbip_device import ProtocolError, TinyUsbDevice, UsbIpServer

USB_SPEED_FULL = 2
VDEV_ST_NULL, VDEV_ST_USED = 4, 6


def say(text):
    print("i2c-tiny-usb: " + text, flush=True)


def ports(vhci):
    """(port, state, busid) of every USB 2 (`hs`) port, over all controllers' status files."""
    found = []
    for path in sorted(glob.glob(os.path.join(vhci, "status*"))):
        with open(path) as f:
            for line in f.read().splitlines()[1:]:
                fields = line.split()
                if len(fields) >= 7 and fields[0] == "hs":
                    found.append((int(fields[1]), int(fields[2]), fields[6]))
    return found


class Adapter:
    def __init__(self, bus, args):
        self.bus, self.args = bus, args
        self.sock = self.server = self.port = None
        self.ready_name = None
        self.unplugging = False
        # A plug asked for while the kernel still holds the old connection (its detach is
        # not finished): done the moment the connection closes, instead of being refused.
        self.plug_pending = False
        self.attached_at = 0.0
        self.attaches = 0
        self.warned_slow = False

    # --- plugging ----------------------------------------------------------------------------
    def plug(self):
        if self.sock is not None and self.unplugging:
            self.plug_pending = True
            return say("plugging in again once port %d's connection is closed" % self.port)
        if self.sock is not None:
            return say("already plugged in (port %d)" % self.port)
        free = [port for port, state, _ in ports(self.args.vhci) if state == VDEV_ST_NULL]
        if not free:
            raise OSError("no free USB 2 port in %s/status*" % self.args.vhci)
        self.attaches += 1
        devid = (1 << 16) | (1 + self.attaches)  # busnum 1, a new devnum per attach
        for port in free:
            ours, kernels = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                fd = os.open(os.path.join(self.args.vhci, "attach"), os.O_WRONLY)
                try:
                    os.write(fd, b"%d %d %d %d" % (port, kernels.fileno(), devid, USB_SPEED_FULL))
                finally:
                    os.close(fd)
            except OSError as error:
                ours.close()
                if error.errno == 16:  # EBUSY: taken between reading status and attaching
                    continue
                raise OSError("attaching to vhci port %d: %s" % (port, error.strerror)) from None
            finally:
                kernels.close()
            return self.connected(ours, port, devid)
        raise OSError("every free USB 2 port became busy while attaching")

    def connected(self, sock, port, devid):
        """Serves the USB device on `sock`, our end of the connection vhci port `port` holds."""
        sock.setblocking(False)
        self.sock, self.port = sock, port
        self.server = UsbIpServer(TinyUsbDevice(self.bus))
        self.attached_at, self.warned_slow, self.unplugging = time.monotonic(), False, False
        self.bus.log.comment("plugged in on vhci port %d, devid 0x%08X" % (port, devid), self.bus.clock_ns())
        say("plugged in on vhci port %d (devid 0x%08X, full speed)" % (port, devid))

    def unplug(self):
        if self.sock is None or self.unplugging:
            return say("not plugged in")
        self.unplugging = True
        self.bus.log.comment("unplugging vhci port %d" % self.port, self.bus.clock_ns())
        try:
            with open(os.path.join(self.args.vhci, "detach"), "w") as f:
                f.write("%d" % self.port)
            say("unplugging port %d" % self.port)
        except OSError as error:
            say("detaching port %d failed (%s); closing the connection instead" % (self.port, error.strerror))
            self.closed("closed by us")

    def closed(self, why):
        """The connection is over: the kernel shut it down (after a detach, or on its own)."""
        self.sock.close()
        port, self.sock, self.server, self.port = self.port, None, None, None
        self.bus.log.comment("unplugged from vhci port %d: %s" % (port, why), self.bus.clock_ns())
        if self.args.ready and self.ready_name:
            try:
                os.unlink(self.args.ready)
            except FileNotFoundError:
                pass
        self.ready_name = None
        say("unplugged from port %d (%s)" % (port, why))
        if self.plug_pending:
            self.plug_pending = False
            self.plug()

    # --- serving -----------------------------------------------------------------------------
    def readable(self):
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return
        except OSError as error:
            return self.closed("connection error: %s" % error.strerror)
        if not data:
            return self.closed("detached" if self.unplugging else "the kernel closed the connection")
        try:
            reply = self.server.feed(data)
        except ProtocolError as error:
            say("protocol error: %s; unplugging" % error)
            return self.unplug()
        if self.args.verbose:
            while self.server.device.trace:
                say("setup %02X %02X %04X %04X %d" % self.server.device.trace.popleft())
        self.sock.setblocking(True)  # vhci reads replies as it gets them; a reply is small
        try:
            self.sock.sendall(reply)
        except OSError as error:
            # A detach shuts the kernel's end down while a request it sent just before is
            # being answered (vhci "stop threads, release socket"): EPIPE or ECONNRESET here.
            # The connection is over; the emulator is not (it exited 74 on this, and the
            # adapter never came back).
            return self.closed("connection closed while answering: %s" % error.strerror)
        finally:
            if self.sock is not None:
                self.sock.setblocking(False)

    def check_ready(self):
        """Once the kernel has bound i2c-tiny-usb: the adapter's name, in the --ready file."""
        if self.sock is None or self.ready_name or self.unplugging:
            return
        busid = next((b for p, state, b in ports(self.args.vhci) if p == self.port and state == VDEV_ST_USED), None)
        names = glob.glob("/sys/bus/usb/devices/%s:*/i2c-[0-9]*" % busid) if busid else []
        if names:
            name = os.path.basename(names[0])
            # With i2c-dev loaded, wait for its node too: the name is useless before it.
            if os.path.isdir("/sys/class/i2c-dev") and not os.path.exists("/dev/" + name):
                return
            self.ready_name = name
            if self.args.ready:
                with open(self.args.ready + ".tmp", "w") as f:
                    f.write(name + "\n")
                os.replace(self.args.ready + ".tmp", self.args.ready)
            self.bus.log.comment("adapter %s bound (USB device %s)" % (name, busid), self.bus.clock_ns())
            say("ready: %s (/dev/%s), USB device %s, %.2f s after plugging in" % (
                name, name, busid, time.monotonic() - self.attached_at))
        elif not self.warned_slow and time.monotonic() - self.attached_at > self.args.ready_timeout:
            self.warned_slow = True
            say("no i2c adapter %.0f s after plugging in (USB device %s; is i2c-tiny-usb loaded?)"
                % (self.args.ready_timeout, busid or "not enumerated"))

    def control(self, line):
        words = line.split()
        if not words:
            return
        if words == ["unplug"]:
            return self.unplug()
        if words == ["plug"]:
            return self.plug()
        if words == ["counters"]:
            return say(self.bus.counters())
        if len(words) == 2 and words[0] in ("detach", "attach"):
            address = int(words[1], 16)
            (self.bus.present.discard if words[0] == "detach" else self.bus.present.add)(address)
            self.bus.log.comment("%02X: %sed" % (address, words[0]), self.bus.clock_ns())
            return say("%02X %sed" % (address, words[0]))
        if len(words) == 4 and words[0] == "bme280":
            sensors = [d for d in self.bus.devices.values() if hasattr(d, "set_raw")]
            for sensor in sensors:
                sensor.set_raw(tuple(int(w, 0) for w in words[1:]))
            return say("bme280 raw values now %s" % " ".join(words[1:]) if sensors else "no bme280 on the bus")
        say("unknown control line %r" % line)


def load_modules(vhci):
    """vhci-hcd (required), i2c-dev (for /dev/i2c-N) and i2c-tiny-usb (udev would load it when
    the device appears; loading it first saves a race)."""
    for module, present in (("vhci-hcd", vhci), ("i2c-dev", "/sys/class/i2c-dev"),
                            ("i2c-tiny-usb", "/sys/bus/usb/drivers/i2c-tiny-usb")):
        if os.path.exists(present):
            continue
        done = subprocess.run(["modprobe", module], capture_output=True, text=True)
        if done.returncode != 0:
            say("modprobe %s failed: %s" % (module, done.stderr.strip() or done.returncode))


def arguments(argv):
    p = argparse.ArgumentParser(description="An emulated i2c-tiny-usb adapter on vhci-hcd.")
    p.add_argument("--devices", default="ssd1306@3c,bme280@76",
                   help="parts on the bus: ssd1306|sh1106|hd44780|pcf8574|bme280 @ hex address")
    p.add_argument("--log", help="the I²C transaction log (the project's format)")
    p.add_argument("--bme280-vector", help="a JSON vector, or corpus/sensors/bme280-vectors.json")
    p.add_argument("--bme280-index", type=int, help="which compensation vector of the corpus file")
    p.add_argument("--bme280-id", help="the same, by id (such as V03_room)")
    p.add_argument("--control", help="a FIFO (made if missing) to read control lines from")
    p.add_argument("--ready", help="written with the adapter's i2c-N name once the kernel bound it")
    p.add_argument("--ready-timeout", type=float, default=60.0, help="say so if not bound by then")
    p.add_argument("--vhci", default="/sys/devices/platform/vhci_hcd.0")
    p.add_argument("--no-modprobe", action="store_true", help="do not load vhci-hcd, i2c-dev, i2c-tiny-usb")
    p.add_argument("--verbose", action="store_true", help="print every SETUP packet received")
    return p.parse_args(argv)


def main(argv=None):
    args = arguments(argv)
    try:
        values, name = load_vector(args.bme280_vector, args.bme280_index, args.bme280_id) \
            if args.bme280_vector else (None, "the data sheet's example (V01)")
        devices = parse_devices(args.devices, bme280_values=values)
    except (OSError, ValueError, KeyError) as error:
        say("%s" % error)
        return 64
    stream = open(args.log, "w", buffering=1) if args.log else None
    log = TransactionLog(stream)
    log.comment("i2c-tiny-usb emulator: %s; times are CLOCK_MONOTONIC" % args.devices)
    if any(type(d).__name__ == "BME280" for d in devices.values()):
        log.comment("bme280 serves %s" % name)
    bus = I2CBus(devices, log)
    adapter = Adapter(bus, args)
    wake_r, wake_w = socket.socketpair()
    wake_r.setblocking(False)
    wake_w.setblocking(False)
    signal.set_wakeup_fd(wake_w.fileno())
    pending = []
    for number in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda n, _frame: pending.append(n))
    control = None
    try:
        if not args.no_modprobe:
            load_modules(args.vhci)
        if args.control:
            if not os.path.exists(args.control):
                os.mkfifo(args.control, 0o600)
            control = os.open(args.control, os.O_RDWR | os.O_NONBLOCK)  # RDWR: no EOF spin
        adapter.plug()
        stopping_since = None
        buffered = b""
        while True:
            watched = [wake_r] + ([adapter.sock] if adapter.sock else []) + ([control] if control else [])
            readable, _, _ = select.select(watched, [], [], 0.05)
            if wake_r in readable:
                wake_r.recv(64)
            while pending:
                number = pending.pop(0)
                if number == signal.SIGUSR1:
                    adapter.unplug()
                elif number == signal.SIGUSR2:
                    adapter.plug()
                elif stopping_since is None:
                    stopping_since = time.monotonic()
                    say("stopping")
                    if adapter.sock:
                        adapter.unplug()
            if adapter.sock and adapter.sock in readable:
                adapter.readable()
            if control is not None and control in readable:
                buffered += os.read(control, 4096)
                while b"\n" in buffered:
                    line, buffered = buffered.split(b"\n", 1)
                    try:
                        adapter.control(line.decode(errors="replace"))
                    except ValueError as error:
                        say("bad control line %r: %s" % (line, error))
            adapter.check_ready()
            if stopping_since is not None and (adapter.sock is None or time.monotonic() - stopping_since > 5):
                break
    except OSError as error:
        say("%s" % error)
        return 74
    finally:
        log.comment("counters: " + bus.counters(), bus.clock_ns())
        say("exiting: " + bus.counters())
        if stream:
            stream.close()
        if control is not None:
            os.close(control)
    return 0


if __name__ == "__main__":
    sys.exit(main())
