"""An i2c-tiny-usb adapter as a USB device behind USB/IP: the far end of a vhci-hcd port.

USB/IP (Documentation/usb/usbip_protocol.rst; drivers/usb/usbip/usbip_common.h): every PDU starts
with a 48-byte header in network byte order, usbip_header_basic (command, seqnum, devid,
direction, ep) and a 28-byte part that depends on the command. vhci-hcd sends CMD_SUBMIT (an
URB: transfer_flags, transfer_buffer_length, start_frame, number_of_packets, interval, the
8-byte SETUP packet; OUT data follows) and CMD_UNLINK (the seqnum to cancel). The device answers
RET_SUBMIT (status, actual_length, start_frame, number_of_packets, error_count; IN data follows)
and RET_UNLINK (status): same seqnum, devid/direction/ep 0.

What reaches the device (drivers/usb/usbip/vhci_hcd.c vhci_urb_enqueue): everything but
SET_ADDRESS, which vhci completes itself, and the root hub's port requests. So the hub driver's
enumeration arrives as GET_DESCRIPTOR(device, 64) at address 0, GET_DESCRIPTOR(device, 18),
GET_DESCRIPTOR(config, 9 then wTotalLength), the strings, SET_CONFIGURATION; then the driver's
vendor requests (drivers/i2c/busses/i2c-tiny-usb.c).

Every URB is answered at once (there is no endpoint but ep0, and an I²C message completes
before its reply is sent), so a CMD_UNLINK always finds its URB given back already and is
answered with status 0, as the protocol document says for an unlink after RET_SUBMIT.
"""
import collections
import struct

from i2c_devices import STATUS_IDLE

CMD_SUBMIT, CMD_UNLINK, RET_SUBMIT, RET_UNLINK = 1, 2, 3, 4
DIR_OUT, DIR_IN = 0, 1
HEADER = 48
EPIPE = 32  # a STALL, as host controllers report it in urb->status

# i2c-tiny-usb's vendor requests (i2c-tiny-usb.c): bRequest 4–7 is an I²C message with the
# BEGIN (bit 0: START, a transaction's first message) and END (bit 1: STOP after it) flags.
CMD_ECHO, CMD_GET_FUNC, CMD_SET_DELAY, CMD_GET_STATUS, CMD_I2C_IO = 0, 1, 2, 3, 4
I2C_M_RD = 0x0001
# I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL (include/uapi/linux/i2c.h): what the firmware reports.
FUNCTIONALITY = 0x00000001 | 0x0EFF0008

VENDOR, PRODUCT = 0x0403, 0xC631  # the FTDI-donated pair in i2c_tiny_usb_table
DEVICE_DESCRIPTOR = struct.pack(
    "<BBHBBBBHHHBBBB", 18, 1, 0x0110,  # USB 1.1: a full-speed device, no qualifier or BOS
    0xFF, 0x00, 0x00, 64,  # vendor-specific class; ep0 max packet 64 (full speed)
    VENDOR, PRODUCT, 0x0100, 1, 2, 3, 1)
CONFIG_DESCRIPTOR = struct.pack(
    "<BBHBBBBB", 9, 2, 18, 1, 1, 0, 0x80, 50) + struct.pack(  # bus-powered, 100 mA
    "<BBBBBBBBB", 9, 4, 0, 0, 0, 0xFF, 0x00, 0x00, 0)  # one interface, no endpoints
STRINGS = {1: "Thunderstorm virtual board", 2: "i2c-tiny-usb (emulated)", 3: "VBOARD-0001"}


def string_descriptor(index):
    if index == 0:
        return bytes([4, 3, 0x09, 0x04])  # LANGID US English
    text = STRINGS[index].encode("utf-16-le")
    return bytes([2 + len(text), 3]) + text


class TinyUsbDevice:
    """The USB device: ep0's standard requests (USB 2.0 §9.4) and i2c-tiny-usb's vendor
    requests on the bus. `trace` holds the last 4,096 SETUP packets that reached it."""

    def __init__(self, bus):
        self.bus = bus
        self.configuration = 0
        self.delay_us = None
        self.trace = collections.deque(maxlen=4096)

    def control(self, setup, data):
        """One control transfer: (status, IN bytes). `data` is the OUT data stage."""
        request_type, request, value, index, length = struct.unpack("<BBHHH", setup)
        self.trace.append((request_type, request, value, index, length))
        kind = (request_type >> 5) & 3
        if kind == 0:
            return self.standard(request_type, request, value, index, length)
        if kind == 2:
            return self.vendor(request_type, request, value, index, length, data)
        return -EPIPE, b""

    def standard(self, request_type, request, value, index, length):
        if request == 6 and request_type == 0x80:  # GET_DESCRIPTOR
            kind, number = value >> 8, value & 0xFF
            if kind == 1 and number == 0:
                return 0, DEVICE_DESCRIPTOR[:length]
            if kind == 2 and number == 0:
                return 0, CONFIG_DESCRIPTOR[:length]
            if kind == 3 and (number == 0 or number in STRINGS):
                return 0, string_descriptor(number)[:length]
            return -EPIPE, b""  # device qualifier, BOS, …: a full-speed-only device STALLs
        if request == 9 and request_type == 0x00 and value in (0, 1):  # SET_CONFIGURATION
            self.configuration = value
            return 0, b""
        if request == 8 and request_type == 0x80:  # GET_CONFIGURATION
            return 0, bytes([self.configuration])[:length]
        if request == 0 and request_type in (0x80, 0x81, 0x82):  # GET_STATUS: bus-powered
            return 0, b"\x00\x00"[:length]
        if request == 11 and request_type == 0x01 and value == 0 and index == 0:  # SET_INTERFACE
            return 0, b""
        if request == 10 and request_type == 0x81 and index == 0:  # GET_INTERFACE
            return 0, b"\x00"[:length]
        if request == 1 and request_type == 0x02 and value == 0:  # CLEAR_FEATURE(ENDPOINT_HALT)
            return 0, b""
        if request == 5:  # SET_ADDRESS: vhci answers it itself; harmless if it ever came
            return 0, b""
        return -EPIPE, b""

    def vendor(self, request_type, request, value, index, length, data):
        device_to_host = bool(request_type & 0x80)
        if request == CMD_ECHO and device_to_host:
            return 0, struct.pack("<H", value)[:length]
        if request == CMD_GET_FUNC and device_to_host:
            return 0, struct.pack("<I", FUNCTIONALITY)[:length]
        if request == CMD_SET_DELAY and not device_to_host:
            self.delay_us = value  # the firmware's bit delay; nothing here runs slower for it
            return 0, b""
        if request == CMD_GET_STATUS and device_to_host:
            return 0, bytes([self.bus.status])[:length]
        if CMD_I2C_IO <= request <= CMD_I2C_IO + 3:
            read = bool(value & I2C_M_RD)
            if read != device_to_host or index > 0x7F:
                return -EPIPE, b""  # direction and I2C_M_RD disagree, or a 10-bit address
            begin = bool(request & 1)
            out = self.bus.message(begin, index, read, data=data, length=length)
            return 0, out
        return -EPIPE, b""

    def reset(self):
        self.configuration = 0
        self.bus.status = STATUS_IDLE


class ProtocolError(Exception):
    pass


class UsbIpServer:
    """Turns the bytes vhci-hcd sends into the bytes it expects back. Feed it what arrives on
    the socket, in any pieces; it keeps an incomplete PDU until the rest comes."""

    def __init__(self, device):
        self.device = device
        self.buffer = bytearray()
        self.submits = self.unlinks = 0

    def feed(self, data):
        self.buffer += data
        replies = []
        while len(self.buffer) >= HEADER:
            command, seqnum, _devid, direction, ep = struct.unpack_from(">IIIII", self.buffer)
            if command == CMD_SUBMIT:
                _flags, length, _frame, packets, _interval = struct.unpack_from(">Iiiii", self.buffer, 20)
                if length < 0:
                    raise ProtocolError("CMD_SUBMIT seqnum %d with length %d" % (seqnum, length))
                need = HEADER + (length if direction == DIR_OUT else 0)
                if len(self.buffer) < need:
                    break
                setup = bytes(self.buffer[40:48])
                out = bytes(self.buffer[HEADER:need])
                del self.buffer[:need]
                replies.append(self.submit(seqnum, direction, ep, length, packets, setup, out))
            elif command == CMD_UNLINK:
                del self.buffer[:HEADER]
                self.unlinks += 1
                replies.append(struct.pack(">IIIIIi24x", RET_UNLINK, seqnum, 0, 0, 0, 0))
            else:
                raise ProtocolError("unknown USB/IP command 0x%08X (seqnum %d)" % (command, seqnum))
        return b"".join(replies)

    def submit(self, seqnum, direction, ep, length, packets, setup, out):
        self.submits += 1
        if ep != 0:
            status, data = -EPIPE, b""  # the device has no other endpoint
        else:
            status, data = self.device.control(setup, out)
        if direction == DIR_IN:
            data = data[:length]
            actual = len(data) if status == 0 else 0
        else:
            data, actual = b"", length if status == 0 else 0
        header = struct.pack(">IIIIIiiiii8x", RET_SUBMIT, seqnum, 0, 0, 0, status, actual, 0, packets, 0)
        return header + (data if status == 0 else b"")
