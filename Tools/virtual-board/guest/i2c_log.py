"""The I²C transaction log the emulated adapter writes, in the project's format (ARCHITECTURE §6,
corpus/displays/README.md, HALSim's I2CTransactionLog and its parser):

    t=412.118204 3C: 00 AE D5 80        one write message: time, 7-bit address, payload bytes
    # t=412.130001 76: read 8 -> 65 5A  a read message: a comment HALSim parses back as a read
    # t=412.131000 3D: write 2 bytes not acknowledged (NAK): 00 AE
    # any other text

The time is CLOCK_MONOTONIC (Python's time.monotonic_ns) in seconds with six decimals, the
same clock the guest's other tools stamp with, so a button edge and the last byte of the frame
it caused can be subtracted. Reads, NAKs and zero-length "quick" writes are comments, so a
replay (PanelLogReplay) sees only the write messages, as the corpus logs hold them; it delivers
the writes to the panel's address and lists those to other addresses (a BME280's `76: F7`
register pointer) in `unacknowledged` without touching the panel. Every line is flushed as it
is written: a harness may copy the file while the adapter runs.
"""


def stamp(ns):
    """`t=<seconds>.<microseconds>` from nanoseconds (truncated to the microsecond)."""
    return "t=%d.%06d" % (ns // 1_000_000_000, ns // 1000 % 1_000_000)


def hex_bytes(data):
    return bytes(data).hex(" ").upper()


class TransactionLog:
    """Writes log lines to a text stream (None: writes nothing; the counters still count)."""

    def __init__(self, stream=None):
        self.stream = stream

    def _line(self, text):
        if self.stream is not None:
            self.stream.write(text + "\n")
            self.stream.flush()

    def comment(self, text, ns=None):
        self._line("# %s%s" % ("" if ns is None else stamp(ns) + " ", text))

    def write(self, ns, address, data):
        """A write message with at least one byte: the one kind of line a replay acts on."""
        self._line("%s %02X: %s" % (stamp(ns), address, hex_bytes(data)))

    def read(self, ns, address, data):
        # Exactly HALSim's read comment (`# [t=…] AA: read N -> BB …`), so it parses as a read.
        self._line("# %s %02X: read %d -> %s" % (stamp(ns), address, len(data), hex_bytes(data)))

    def quick(self, ns, address, acknowledged):
        """A write of no bytes (SMBus quick command, i2cdetect's probe): no payload to replay."""
        what = "acknowledged" if acknowledged else "not acknowledged (NAK)"
        self.comment("%02X: quick write (no bytes) %s" % (address, what), ns)

    def nak(self, ns, address, read_length=None, data=b""):
        if read_length is not None:
            text = "%02X: read %d byte%s not acknowledged (NAK)" % (
                address, read_length, "" if read_length == 1 else "s")
        else:
            text = "%02X: write %d byte%s not acknowledged (NAK): %s" % (
                address, len(data), "" if len(data) == 1 else "s", hex_bytes(data))
        self.comment(text, ns)
