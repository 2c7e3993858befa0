"""Host tests of the emulated i2c-tiny-usb adapter (no vhci-hcd needed): the test plays the
kernel's part on one end of a socketpair, the adapter serves the other end exactly as it serves
vhci-hcd in the guest (Adapter.readable in a thread).

The kernel's part is what the kernel sends over USB/IP: the hub driver's enumeration without
SET_ADDRESS (vhci-hcd completes that itself, vhci_hcd.c vhci_urb_enqueue), then i2c-tiny-usb.c:
SET_DELAY at probe, CMD_GET_FUNC for I2C_FUNCS, and usb_xfer: per i2c_msg one control transfer
(bRequest 4 | BEGIN on the first | END on the last, wValue = msg flags, wIndex = address), each
followed by CMD_GET_STATUS; status 2 (address NAK) is ENXIO.
"""
import errno
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import i2c_tiny_usb  # noqa: E402
from i2c_devices import I2CBus, parse_devices  # noqa: E402
from i2c_log import TransactionLog  # noqa: E402



class Clock:
    """Virtual CLOCK_MONOTONIC in nanoseconds for the parts and the log."""

    def __init__(self):
        self.ns = 1_000_000_000

    def __call__(self):
        return self.ns

    def advance_ms(self, ms):
        self.ns += int(ms * 1_000_000)


class LogLines:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.extend(text.splitlines())

    def flush(self):
        pass


class Kernel:
    """vhci-hcd and the i2c-tiny-usb driver, as seen from the device's end of the socket."""

    def __init__(self, tmp_path, devices="ssd1306@3c,bme280@76", bme280_values=None):
        self.clock = Clock()
        self.log = LogLines()
        self.bus = I2CBus(parse_devices(devices, self.clock, bme280_values), TransactionLog(self.log), self.clock)
        self.args = i2c_tiny_usb.arguments(["--vhci", str(tmp_path), "--ready", str(tmp_path / "ready")])
        self.adapter = i2c_tiny_usb.Adapter(self.bus, self.args)
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(5)
        self.adapter.connected(theirs, 0, 0x10002)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        self.seqnum = 0

    def _serve(self):
        while self.adapter.sock is not None:
            readable, _, _ = select.select([self.adapter.sock], [], [], 0.1)
            if readable:
                self.adapter.readable()

    @property
    def device(self):
        return self.adapter.server.device

    def recv(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "the device closed the connection"
            data += chunk
        return data

    def send_submit(self, setup, out=b"", length=0, pieces=1):
        self.seqnum += 1
        direction = 1 if setup[0] & 0x80 else 0
        length = len(out) if direction == 0 else length
        pdu = struct.pack(">IIIIIIiiii", 1, self.seqnum, 0x10002, direction, 0, 0, length, 0, 0, 0) + setup + out
        step = -(-len(pdu) // pieces)
        for i in range(0, len(pdu), step):  # the stream may arrive in any pieces
            self.sock.sendall(pdu[i:i + step])
        return self.seqnum

    def recv_ret_submit(self, seqnum, direction):
        command, seq, devid, dirn, ep, status, actual, _frame, _packets, _errors = struct.unpack(
            ">IIIIIiiiii", self.recv(40))
        assert self.recv(8) == bytes(8)
        assert (command, seq, devid, dirn, ep) == (3, seqnum, 0, 0, 0)
        data = self.recv(actual) if direction == 1 and status == 0 else b""
        return status, actual, data

    def control(self, request_type, request, value, index, out=b"", length=0, pieces=1):
        setup = struct.pack("<BBHHH", request_type, request, value, index, len(out) if out else length)
        seqnum = self.send_submit(setup, out, length, pieces)
        return self.recv_ret_submit(seqnum, 1 if request_type & 0x80 else 0)

    def i2c_transfer(self, messages, pieces=1):
        """i2c-tiny-usb.c usb_xfer: messages are (address, flags, bytes or read length)."""
        results = []
        for i, (address, flags, payload) in enumerate(messages):
            cmd = 4 | (1 if i == 0 else 0) | (2 if i == len(messages) - 1 else 0)
            if flags & 1:
                status, actual, data = self.control(0xC1, cmd, flags, address, length=payload)
                results.append(data)
                want = payload
            else:
                status, actual, data = self.control(0x41, cmd, flags, address, out=payload, pieces=pieces)
                want = len(payload)
            if status != 0 or actual != want:
                raise OSError(errno.EIO, "failure %s data" % ("reading" if flags & 1 else "writing"))
            status, actual, data = self.control(0xC1, 3, 0, 0, length=1)
            assert (status, actual) == (0, 1)
            if data[0] == 2:
                raise OSError(errno.ENXIO, "address 0x%02X not acknowledged" % address)
        return results

    def read_registers(self, address, register, n):
        return self.i2c_transfer([(address, 0, bytes([register])), (address, 1, n)])[0]

    def close(self):
        self.sock.close()
        self.thread.join(5)


@pytest.fixture
def kernel(tmp_path):
    k = Kernel(tmp_path)
    yield k
    k.close()


# --- USB ------------------------------------------------------------------------------------
def test_enumeration_sequence_of_the_hub_driver(kernel):
    # hub.c get_bMaxPacketSize0: 64 bytes asked at address 0, a short device descriptor back.
    status, actual, first = kernel.control(0x80, 6, 0x0100, 0, length=64)
    assert (status, actual) == (0, 18)
    assert first[1] == 1 and first[7] == 64  # bDescriptorType, bMaxPacketSize0 (full speed)
    status, _, device = kernel.control(0x80, 6, 0x0100, 0, length=18)
    _, _, bcd_usb, cls, _, _, _, vendor, product, _, i_manufacturer, i_product, i_serial, configs = \
        struct.unpack("<BBHBBBBHHHBBBB", device)
    assert (bcd_usb, cls, vendor, product, configs) == (0x0110, 0xFF, 0x0403, 0xC631, 1)
    status, _, head = kernel.control(0x80, 6, 0x0200, 0, length=9)
    total = struct.unpack_from("<H", head, 2)[0]
    status, actual, config = kernel.control(0x80, 6, 0x0200, 0, length=total)
    assert (status, actual, config[4], config[9 + 1], config[9 + 5]) == (0, 18, 1, 4, 0xFF)
    status, _, langids = kernel.control(0x80, 6, 0x0300, 0, length=255)
    assert langids == b"\x04\x03\x09\x04"
    names = []
    for index in (i_product, i_manufacturer, i_serial):
        status, actual, text = kernel.control(0x80, 6, 0x0300 | index, 0x0409, length=255)
        assert status == 0 and text[0] == actual and text[1] == 3
        names.append(text[2:].decode("utf-16-le"))
    assert names[0].startswith("i2c-tiny-usb")
    assert kernel.control(0x00, 9, 1, 0)[:2] == (0, 0)  # SET_CONFIGURATION 1
    assert kernel.control(0x80, 6, 0x0600, 0, length=10)[0] == -32  # device qualifier: STALL
    assert kernel.device.configuration == 1
    assert 5 not in [request for _, request, *_ in kernel.device.trace]  # no SET_ADDRESS came


def test_driver_probe_functionality_and_echo(kernel):
    assert kernel.control(0x41, 2, 10, 0)[:2] == (0, 0)  # probe: CMD_SET_DELAY 10 us
    assert kernel.device.delay_us == 10
    status, _, func = kernel.control(0xC1, 1, 0, 0, length=4)
    assert struct.unpack("<I", func)[0] == 0x0EFF0009  # I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL
    assert kernel.control(0xC1, 0, 0xBEEF, 0, length=2)[2] == b"\xef\xbe"
    assert kernel.control(0xC1, 3, 0, 0, length=1)[2] == b"\x00"  # idle before any I/O
    assert kernel.control(0xC1, 9, 0, 0, length=1)[0] == -32  # unknown vendor request


def test_a_1025_byte_frame_is_one_message_and_one_log_line(kernel):
    frame = bytes([0x40]) + bytes(range(256)) * 4  # write(2) of a full SSD1306 frame
    kernel.i2c_transfer([(0x3C, 0, bytes([0x00, 0xAE, 0xD5, 0x80]))])
    kernel.i2c_transfer([(0x3C, 0, frame)], pieces=7)
    setups = [s for s in kernel.device.trace if s[1] == 7]
    assert setups[-1] == (0x41, 7, 0, 0x3C, 1025)  # BEGIN|END, flags 0, address, wLength
    writes = [line for line in kernel.log.lines if line.startswith("t=")]
    assert writes[0].endswith(" 3C: 00 AE D5 80")
    assert len(writes[1].split(":", 1)[1].split()) == 1025
    assert kernel.bus.devices[0x3C].data_bytes == 1024


def test_missing_address_is_enxio_and_a_nak_comment(kernel):
    with pytest.raises(OSError) as raised:
        kernel.i2c_transfer([(0x3D, 0, b"\x00\xAE")])
    assert raised.value.errno == errno.ENXIO
    with pytest.raises(OSError) as raised:
        kernel.i2c_transfer([(0x50, 1, 1)])
    assert raised.value.errno == errno.ENXIO
    assert kernel.bus.naks == 2
    assert any(re.match(r"# t=\d+\.\d{6} 3D: write 2 bytes not acknowledged \(NAK\): 00 AE$", line)
               for line in kernel.log.lines)
    kernel.bus.present.discard(0x3C)  # a loose wire to the panel
    with pytest.raises(OSError):
        kernel.i2c_transfer([(0x3C, 0, b"\x00\xAF")])


def test_oled_status_read_follows_display_on_off(kernel):
    assert kernel.i2c_transfer([(0x3C, 1, 1)]) == [b"\x40"]  # power-on: display OFF (D6)
    kernel.i2c_transfer([(0x3C, 0, b"\x00\x81\xAF")])  # contrast 0xAF is no "display on"
    assert kernel.i2c_transfer([(0x3C, 1, 1)]) == [b"\x40"]
    kernel.i2c_transfer([(0x3C, 0, b"\x80\xA8")])
    kernel.i2c_transfer([(0x3C, 0, b"\x80\xAF")])  # A8's argument, in the next transaction
    assert kernel.i2c_transfer([(0x3C, 1, 1)]) == [b"\x40"]
    kernel.i2c_transfer([(0x3C, 0, b"\x80\xAF\x40\x00\x00")])
    assert kernel.i2c_transfer([(0x3C, 1, 2)]) == [b"\x00\x00"]


def test_unlink_is_answered_with_ret_unlink(kernel):
    seqnum = kernel.send_submit(struct.pack("<BBHHH", 0xC1, 3, 0, 0, 1), length=1)
    kernel.seqnum += 1
    kernel.sock.sendall(struct.pack(">IIIIII24x", 2, kernel.seqnum, 0x10002, 0, 0, seqnum))
    assert kernel.recv_ret_submit(seqnum, 1)[0] == 0  # answered before the unlink was read
    command, seq, devid, direction, ep, status = struct.unpack(">IIIIIi", kernel.recv(24))
    assert kernel.recv(24) == bytes(24)
    assert (command, seq, devid, direction, ep, status) == (4, kernel.seqnum, 0, 0, 0, 0)
    assert kernel.control(0xC1, 3, 0, 0, length=1)[0] == 0  # and the device goes on


def test_detach_closes_and_removes_the_ready_file(kernel, tmp_path):
    (tmp_path / "ready").write_text("i2c-9\n")
    kernel.adapter.ready_name = "i2c-9"
    kernel.adapter.unplug()
    assert (tmp_path / "detach").read_text() == "0"
    kernel.sock.close()  # what the kernel does to the socket after a detach
    kernel.thread.join(5)
    assert kernel.adapter.sock is None and not (tmp_path / "ready").exists()
    assert kernel.log.lines[-1].endswith("unplugged from vhci port 0: detached")


def test_plug_while_the_detach_is_not_finished_plugs_once_it_is(kernel, tmp_path):
    """A plug (SIGUSR2) that comes while the kernel still holds the detached port's connection
    is done when that connection closes: refused, the adapter never came back."""
    (tmp_path / "status").write_text("hub port sta spd dev      sockfd local_busid\n"
                                     "hs  0000 006 002 00010002  000003 3-1\n"
                                     "hs  0001 004 000 00000000  000000 0-0\n")
    (tmp_path / "attach").write_text("")
    kernel.adapter.unplug()
    kernel.adapter.plug()  # the kernel has not shut the connection down yet
    assert (tmp_path / "attach").read_text() == ""
    kernel.sock.close()  # now it does
    kernel.thread.join(5)
    port, sockfd, devid, speed = map(int, (tmp_path / "attach").read_text().split())
    assert (port, devid, speed) == (1, 0x10002, 2)
    # Nobody holds the new connection's far end here, so it closes again at once.
    assert any("plugged in on vhci port 1, devid 0x00010002" in line for line in kernel.log.lines)


def test_a_reply_to_a_closed_connection_ends_it_and_not_the_emulator(tmp_path):
    """The kernel sends a request and shuts its end down (a detach) before the answer: sending
    the answer fails with EPIPE, which ends the connection, not the program."""
    bus = I2CBus(parse_devices("ssd1306@3c"), TransactionLog(LogLines()))
    adapter = i2c_tiny_usb.Adapter(bus, i2c_tiny_usb.arguments(["--vhci", str(tmp_path)]))
    kernel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    adapter.connected(theirs, 0, 0x10002)
    setup = struct.pack("<BBHHH", 0xC1, 3, 0, 0, 1)  # CMD_GET_STATUS: an answer is due
    kernel.sendall(struct.pack(">IIIIIIiiii", 1, 1, 0x10002, 1, 0, 0, 1, 0, 0, 0) + setup)
    kernel.close()
    adapter.readable()  # reads the request, answers into a closed connection
    assert adapter.sock is None
    assert "connection closed while answering" in bus.log.stream.lines[-1]


def test_free_full_speed_port_from_the_status_files(tmp_path):
    header = "hub port sta spd dev      sockfd local_busid\n"
    (tmp_path / "status").write_text(header +
        "hs  0000 006 002 00010002  000003 3-1\n"
        "hs  0001 004 000 00000000  000000 0-0\n"
        "ss  0008 004 000 00000000  000000 0-0\n")
    (tmp_path / "status.1").write_text(header + "hs  0016 004 000 00000000  000000 0-0\n")
    assert i2c_tiny_usb.ports(str(tmp_path)) == [(0, 6, "3-1"), (1, 4, "0-0"), (16, 4, "0-0")]
    (tmp_path / "attach").write_text("")
    bus = I2CBus({}, TransactionLog())
    adapter = i2c_tiny_usb.Adapter(bus, i2c_tiny_usb.arguments(["--vhci", str(tmp_path)]))
    adapter.plug()
    port, sockfd, devid, speed = map(int, (tmp_path / "attach").read_text().split())
    assert (port, devid, speed) == (1, 0x10002, 2) and sockfd > 2
    adapter.readable()  # our copy of the kernel's end is closed: here nobody holds it
    assert adapter.sock is None


# --- the log --------------------------------------------------------------------------------
WRITE = re.compile(r"^(t=\d+(\.\d+)? +)?[0-9A-Fa-f]{1,2}:( +[0-9A-Fa-f]{1,2})+$")
READ = re.compile(r"^# (t=\d+(\.\d+)? +)?([0-9A-Fa-f]{1,2}): read (\d+) ->((?: [0-9A-F]{2})*)$")


def test_log_lines_are_in_the_projects_format(kernel):
    kernel.i2c_transfer([(0x3C, 0, b"\x00\xAE")])
    kernel.read_registers(0x76, 0xD0, 1)
    with pytest.raises(OSError):
        kernel.i2c_transfer([(0x3D, 0, b"")])  # i2cdetect's quick write
    times = []
    for line in kernel.log.lines:  # as HALSim's I2CTransactionLogParser reads them
        assert line.startswith("#") or WRITE.match(line), line
        read = READ.match(line)
        if read:
            assert int(read.group(4)) == len(read.group(5).split())
        if line.startswith(("t=", "# t=")):
            times.append(float(line.split("t=")[1].split()[0]))
    assert "t=1.000000 3C: 00 AE" in kernel.log.lines
    assert "t=1.000000 76: D0" in kernel.log.lines and "# t=1.000000 76: read 1 -> 60" in kernel.log.lines
    assert "# t=1.000000 3D: quick write (no bytes) not acknowledged (NAK)" in kernel.log.lines
    assert times == sorted(times) and kernel.bus.transactions == 3


# --- the parts ------------------------------------------------------------------------------
def test_pcf8574_read_returns_the_port(kernel, tmp_path):
    k = Kernel(tmp_path, devices="hd44780@27")
    try:
        assert k.i2c_transfer([(0x27, 1, 1)]) == [b"\xff"]  # power-on latch
        k.i2c_transfer([(0x27, 0, b"\x38\x3C\x38")])  # three port states, E pulsed
        assert k.i2c_transfer([(0x27, 1, 2)]) == [b"\x38\x38"]
        assert k.bus.devices[0x27].port_writes == 3
    finally:
        k.close()


def test_the_program_plugs_replugs_and_stops_on_signals(tmp_path):
    (tmp_path / "status").write_text("hub port sta spd dev      sockfd local_busid\n"
                                     "hs  0000 004 000 00000000  000000 0-0\n")
    (tmp_path / "attach").write_text("")
    log = tmp_path / "i2c.log"
    program = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "i2c_tiny_usb.py"), "--vhci", str(tmp_path), "--no-modprobe",
         "--devices", "sh1106@3c", "--log", str(log), "--control", str(tmp_path / "ctl")],
        stdout=subprocess.PIPE, text=True)
    lines = []

    def expect(fragment):
        while True:
            line = program.stdout.readline()
            assert line, "exited before %r: %s" % (fragment, lines)
            lines.append(line.strip())
            if fragment in line:
                return line

    # Nobody holds the kernel's end here, so each connection closes as soon as it is made.
    expect("plugged in on vhci port 0")
    expect("the kernel closed the connection")
    program.send_signal(signal.SIGUSR2)
    expect("plugged in on vhci port 0 (devid 0x00010003")
    expect("the kernel closed the connection")
    with open(tmp_path / "ctl", "w") as control:
        control.write("detach 3c\ncounters\n")
    expect("3C detached")
    expect("transactions 0")
    time.sleep(0.1)
    program.send_signal(signal.SIGTERM)
    expect("exiting: transactions 0")
    assert program.wait(5) == 0
    text = log.read_text().splitlines()
    assert text[0] == "# i2c-tiny-usb emulator: sh1106@3c; times are CLOCK_MONOTONIC"
    assert re.match(r"# t=\d+\.\d{6} counters: transactions 0, ", text[-1])
