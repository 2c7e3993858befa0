"""The parts behind the emulated adapter, each answering on the bus as its data sheet says, and
the bus that routes each I²C message to the part at its address (or NAKs it).

Only what the bus can observe is modelled here. The panels' pictures are not decoded: the host
replays the transaction log into the project's own panel models (HALSim). What a read returns
is modelled, because the daemon sees it.
"""
import time

from bme280_model import BME280

STATUS_IDLE, STATUS_ACK, STATUS_NAK = 0, 1, 2  # i2c-tiny-usb's CMD_GET_STATUS answers


def ssd1306_arguments(command):
    """Argument bytes after an SSD1306 command byte (SSD1306 Rev 1.1 Table 9-1 and §10.1–10.2).
    Unknown bytes count as one-byte commands, as the controller ignores them."""
    if command in (0x20, 0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB):
        return 1
    if command in (0x21, 0x22, 0xA3):  # column / page window, vertical scroll area
        return 2
    if command in (0x26, 0x27):  # horizontal scroll setup
        return 6
    if command in (0x29, 0x2A):  # vertical and horizontal scroll setup
        return 5
    return 0


def sh1106_arguments(command):
    """Argument bytes after an SH1106 command byte (SH1106 V2.3 "Commands" 5, 9, 10, 14–18). The
    SH1106 has no 0x20/0x21/0x22/0x8D: they are one-byte no-ops whose arguments then run as
    commands (corpus/displays/README.md)."""
    return 1 if command in (0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB) else 0


class OLED:
    """An SSD1306 or SH1106 on I²C.

    - Framing (SSD1306 §8.1.5.1 Figure 8-7; SH1106 "I²C-bus interface"): a write message starts
      with a control byte Co·D/C#·000000. D/C# = 1: data (display RAM, not decoded here); 0:
      commands. Co = 0: the rest of the message is of that kind (0x00, 0x40); Co = 1: one byte
      of that kind, then another control byte (0x80 cmd, 0xC0 data).
    - Commands are decoded only far enough to know display ON/OFF (AE/AF, SSD1306 §10.1.12, SH1106
      command 11): argument bytes are skipped by the tables above, across messages too (a driver
      may send `80 81` then `80 AF`, and that AF is a contrast, not "display on").
    - A read returns the status byte (SSD1306 §8.1.5 status read, SH1106 "read status"): D6 set
      while the display is OFF, D7 (busy) never set, the rest 0 (as HALSim's OLEDControllerModel).
      Power-on reset: display OFF.
    """

    def __init__(self, controller):
        self.controller = controller
        self.arguments = ssd1306_arguments if controller == "ssd1306" else sh1106_arguments
        self.reset()

    def reset(self):
        self.display_on = False
        self.pending_arguments = 0
        self.command_bytes = 0
        self.data_bytes = 0

    def write(self, data):
        expecting_control, is_data, single = True, False, False
        for byte in data:
            if expecting_control:
                single, is_data, expecting_control = bool(byte & 0x80), bool(byte & 0x40), False
                continue
            if is_data:
                self.data_bytes += 1
            else:
                self.command(byte)
            if single:
                expecting_control = True

    def command(self, byte):
        self.command_bytes += 1
        if self.pending_arguments:
            self.pending_arguments -= 1
        elif byte in (0xAE, 0xAF):
            self.display_on = byte == 0xAF
        else:
            self.pending_arguments = self.arguments(byte)

    def read(self, length):
        return bytes([0x00 if self.display_on else 0x40]) * length


class PCF8574:
    """The NXP PCF8574 8-bit quasi-bidirectional port (data sheet Rev. 5, §8.1–8.4): one latch,
    no direction register. Each byte written is put on the port (§8.2); each byte read samples
    the pins, latch AND what the outside pulls low (§8.3); power-on latch 0xFF (§8.4).

    As `hd44780` it is a character LCD's backpack (YwRobot wiring: P0 RS, P1 RW, P2 E, P3
    backlight, P4–P7 D4–D7). The LCD's own read cycle (RW = 1, E = 1: busy flag and address on
    D4–D7) is not modelled: the project's driver never reads, it waits by time, and the host
    replays the port states into HALSim's HD44780Backpack. So nothing outside pulls a pin low.
    """

    def __init__(self, label="pcf8574", inputs=0xFF):
        self.label = label
        self.inputs = inputs
        self.reset()

    def reset(self):
        self.latch = 0xFF
        self.port_writes = 0

    def write(self, data):
        for byte in data:
            self.latch = byte
            self.port_writes += 1

    def read(self, length):
        return bytes([self.latch & self.inputs]) * length


def make_device(kind, clock_ns, bme280_values=None):
    if kind in ("ssd1306", "sh1106"):
        return OLED(kind)
    if kind in ("hd44780", "pcf8574"):
        return PCF8574(kind)
    if kind == "bme280":
        return BME280(clock_ns=clock_ns, **(bme280_values or {}))
    raise ValueError("unknown part %r (ssd1306, sh1106, hd44780, pcf8574, bme280)" % kind)


def parse_devices(spec, clock_ns=time.monotonic_ns, bme280_values=None):
    """`ssd1306@3c,bme280@76` → {0x3C: OLED, 0x76: BME280}. Addresses in hex, 0x03–0x77 (the
    7-bit addresses I²C leaves to devices)."""
    devices = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        kind, at, address = item.partition("@")
        if not at:
            raise ValueError("%r: write PART@ADDRESS, such as ssd1306@3c" % item)
        try:
            value = int(address, 16)
        except ValueError:
            raise ValueError("%r: the address %r is not hex" % (item, address)) from None
        if not 0x03 <= value <= 0x77:
            raise ValueError("%r: 0x%02X is not a device address (0x03-0x77)" % (item, value))
        if value in devices:
            raise ValueError("%r: two parts at 0x%02X" % (item, value))
        devices[value] = make_device(kind.strip().lower(), clock_ns, bme280_values)
    return devices


class I2CBus:
    """Routes i2c-tiny-usb's I²C messages to the parts and logs them.

    A message starts with a START (the first of a transaction, BEGIN flag) or a repeated START,
    then the address byte: a part there ACKs it, otherwise the address is NAKed, the master
    stops, and nothing reaches any part (a read then returns the idle bus, 0xFF). Parts ACK
    every data byte. `present` holds the addresses that answer (a loose cable is a removal)."""

    def __init__(self, devices, log, clock_ns=time.monotonic_ns):
        self.devices = devices
        self.present = set(devices)
        self.log = log
        self.clock_ns = clock_ns
        self.status = STATUS_IDLE
        self.transactions = self.messages = self.naks = 0
        self.bytes_written = self.bytes_read = 0

    def message(self, begin, address, read, data=b"", length=0):
        """One message; returns the bytes read (b"" for a write). Sets `status`."""
        now = self.clock_ns()
        if begin:
            self.transactions += 1
        self.messages += 1
        device = self.devices.get(address) if address in self.present else None
        if device is None:
            self.status = STATUS_NAK
            self.naks += 1
            if not read and not data:
                self.log.quick(now, address, acknowledged=False)
            else:
                self.log.nak(now, address, read_length=length if read else None, data=data)
            return b"\xff" * length if read else b""
        self.status = STATUS_ACK
        if read:
            result = device.read(length)
            self.bytes_read += len(result)
            self.log.read(now, address, result)
            return result
        device.write(bytes(data))
        self.bytes_written += len(data)
        if data:
            self.log.write(now, address, data)
        else:
            self.log.quick(now, address, acknowledged=True)
        return b""

    def counters(self):
        return "transactions %d, messages %d, bytes %d written / %d read, NAKs %d" % (
            self.transactions, self.messages, self.bytes_written, self.bytes_read, self.naks)
