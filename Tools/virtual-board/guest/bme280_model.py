"""The Bosch BME280 on I²C, from its data sheet (BST-BME280-DS002 rev. 1.6), in real time.

- §5.3 memory map: id 0xD0 = 0x60, reset 0xE0, ctrl_hum 0xF2, status 0xF3, ctrl_meas 0xF4, config
  0xF5, data 0xF7–0xFE, trimming words 0x88–0xA1 and 0xE1–0xE7 (§4.2.2). Other registers are
  read-only; unmapped ones read 0.
- §6.2.1 a write message is register/data pairs; a lone register byte only moves the pointer.
  §6.2.2 reads auto-increment from the pointer, and the pointer stays where a read left it.
- §5.4.2 0xB6 written to `reset` is a power-on reset: registers to their reset values, the NVM
  copied into the trimming registers again while status.im_update (bit 0) is set for the
  start-up time, 2 ms (§1.1 Table 1); until then they read 0. `reset` reads back 0x00.
- §5.4.3 `ctrl_hum` takes effect only when `ctrl_meas` is written after it.
- §3.3 modes: forced (01/10) runs one conversion with status.measuring (bit 3) set for the §9.1
  typical measurement time, then stores the results and goes back to sleep (the mode bits of
  ctrl_meas read 00). Normal (11) repeats conversions t_sb apart (§3.3.4, Table 27). A mode
  change asked for during a conversion waits for its end; ctrl_hum writes meanwhile are ignored
  (§3.3.1). §5.4.6: config writes in normal mode are ignored.
- §4 the data registers change only when a conversion ends (never within a read); a skipped
  quantity (oversampling 000) reads 0x80000 (T, P) or 0x8000 (H), as after reset.

The raw ADC values are stored exactly as given (no resolution cut, no IIR filter, §3.4): they
come from the corpus vectors, whose compensated values a driver must reproduce.
"""
import json
import time

# Calibration set C1 and vector V01 of corpus/sensors/bme280-vectors.json: the BMP280 data
# sheet's worked example (25.08 °C, 100653.25 Pa) with typical humidity words.
EXAMPLE = {
    "calibration1": bytes.fromhex("706B436718FC7D8E43D6D00B270B8C00F9FF8C3CF8C67017004B"),
    "calibration2": bytes.fromhex("780100112E031E"),
    "raw": (519888, 415148, 30281),
}
STARTUP_NS = 2_000_000


def samples(code):
    """Oversampling code → samples (Tables 20, 22, 23): 000 skipped, 001 ×1 … 101+ ×16."""
    return (0, 1, 2, 4, 8, 16, 16, 16)[code & 7]


def measurement_ns(osrs_t, osrs_p, osrs_h):
    """§9.1 typical: 1 + 2·T + (2·P + 0.5) + (2·H + 0.5) ms, each bracket only when measured."""
    us = 1000 + 2000 * samples(osrs_t)
    if osrs_p:
        us += 2000 * samples(osrs_p) + 500
    if osrs_h:
        us += 2000 * samples(osrs_h) + 500
    return us * 1000


STANDBY_US = (500, 62_500, 125_000, 250_000, 500_000, 1_000_000, 10_000, 20_000)  # Table 27


class BME280:
    def __init__(self, calibration1=EXAMPLE["calibration1"], calibration2=EXAMPLE["calibration2"],
                 raw=EXAMPLE["raw"], clock_ns=time.monotonic_ns):
        if len(calibration1) != 26 or len(calibration2) != 7:
            raise ValueError("trimming blocks are 26 bytes (0x88-0xA1) and 7 (0xE1-0xE7)")
        self.nvm = dict(zip(range(0x88, 0xA2), calibration1))
        self.nvm.update(zip(range(0xE1, 0xE8), calibration2))
        self.raw = tuple(raw)  # adc_T, adc_P (20 bit), adc_H (16 bit): what conversions yield
        self.clock_ns = clock_ns
        self.conversions = 0
        self.reset()

    def reset(self):
        now = self.clock_ns()
        self.regs = bytearray(256)
        self.regs[0xD0] = 0x60
        self.regs[0xF7:0xFF] = b"\x80\x00\x00\x80\x00\x00\x80\x00"
        self.pointer = 0
        self.osrs_h = 0  # latched by the last ctrl_meas write
        self.conversion = None  # (start, end, osrs_t, osrs_p, osrs_h)
        self.pending = None  # a ctrl_meas written during a conversion
        self.nvm_ready_at = now + STARTUP_NS
        self.refresh_status(now)

    # --- the bus ---------------------------------------------------------------------------
    def write(self, data):
        self.update()
        for i in range(0, len(data) - 1, 2):
            self.write_register(data[i], data[i + 1])
        if data:
            self.pointer = data[-1] if len(data) % 2 else data[-2]

    def read(self, length):
        self.update()
        out = bytes(self.regs[(self.pointer + i) & 0xFF] for i in range(length))
        self.pointer = (self.pointer + length) & 0xFF
        return out

    def set_raw(self, raw):
        self.update()  # conversions that ended before now keep the old values
        self.raw = tuple(raw)

    # --- the registers ---------------------------------------------------------------------
    def measuring(self, now):
        return self.conversion is not None and self.conversion[0] <= now

    def write_register(self, register, value):
        now = self.clock_ns()
        if register == 0xE0:
            if value == 0xB6:
                self.reset()
        elif register == 0xF2:
            if not self.measuring(now):
                self.regs[0xF2] = value & 0x07
        elif register == 0xF4:
            if self.measuring(now):
                self.pending = value if self.pending is None else self.pending
            else:
                self.apply_control(value, now)
        elif register == 0xF5:
            if self.regs[0xF4] & 3 != 3:
                self.regs[0xF5] = value & 0xFD

    def apply_control(self, value, at):
        self.regs[0xF4] = value
        self.osrs_h = self.regs[0xF2] & 7
        self.conversion = None if value & 3 == 0 else self.start_conversion(at)

    def start_conversion(self, at):
        t, p, h = self.regs[0xF4] >> 5, (self.regs[0xF4] >> 2) & 7, self.osrs_h
        return (at, at + measurement_ns(t, p, h), t, p, h)

    def update(self):
        now = self.clock_ns()
        if self.nvm_ready_at is not None and now >= self.nvm_ready_at:
            for register, value in self.nvm.items():
                self.regs[register] = value
            self.nvm_ready_at = None
        while self.conversion is not None and self.conversion[1] <= now:
            start, end, t, p, h = self.conversion
            self.latch(t, p, h)
            if self.pending is not None:
                value, self.pending = self.pending, None
                self.apply_control(value, end)
            elif self.regs[0xF4] & 3 == 3:
                # Normal mode: the next conversion starts t_sb after this one ended. Whole
                # cycles that have ended since (an idle hour) are counted, not looped through:
                # they latched the same values.
                length = end - start
                standby = STANDBY_US[self.regs[0xF5] >> 5] * 1000
                ended = (now - end) // (length + standby)
                self.conversions += ended
                next_start = end + ended * (length + standby) + standby
                self.conversion = (next_start, next_start + length, t, p, h)
            else:
                self.regs[0xF4] &= 0xFC  # forced: back to sleep
                self.conversion = None
        self.refresh_status(now)

    def latch(self, osrs_t, osrs_p, osrs_h):
        temperature, pressure, humidity = self.raw
        for base, value, code in ((0xF7, pressure, osrs_p), (0xFA, temperature, osrs_t)):
            value = value & 0xFFFFF if code else 0x80000
            self.regs[base:base + 3] = bytes([value >> 12, (value >> 4) & 0xFF, (value & 0xF) << 4])
        humidity = humidity & 0xFFFF if osrs_h else 0x8000
        self.regs[0xFD:0xFF] = bytes([humidity >> 8, humidity & 0xFF])
        self.conversions += 1

    def refresh_status(self, now):
        self.regs[0xF3] = (0x08 if self.measuring(now) else 0) | (0x01 if self.nvm_ready_at else 0)


def load_vector(path, index=None, ident=None):
    """The calibration and raw values to serve, as keyword arguments for BME280.

    `path` is either corpus/sensors/bme280-vectors.json (then choose one of its
    compensation_vectors by `index` or `ident`; its `calibration` names a calibration set in the
    same file) or one JSON object with `regs_0x88_0xA1_hex`, `regs_0xE1_0xE7_hex` and `raw`
    {adc_T, adc_P, adc_H} or `data_regs_0xF7_0xFE_hex`."""
    with open(path) as f:
        doc = json.load(f)
    sets = doc.get("calibration_sets", {})
    if "compensation_vectors" in doc:
        vectors = doc["compensation_vectors"]
        if ident is not None:
            found = [v for v in vectors if v.get("id") == ident]
            if not found:
                raise ValueError("%s has no vector %r" % (path, ident))
            entry = found[0]
        elif index is not None:
            if not 0 <= index < len(vectors):
                raise ValueError("%s has vectors 0-%d, not %d" % (path, len(vectors) - 1, index))
            entry = vectors[index]
        else:
            raise ValueError("%s holds %d vectors: choose one with --bme280-index or --bme280-id"
                             % (path, len(vectors)))
    else:
        entry = doc
    calibration = sets.get(entry.get("calibration"), entry)
    try:
        block1 = bytes.fromhex(calibration["regs_0x88_0xA1_hex"])
        block2 = bytes.fromhex(calibration["regs_0xE1_0xE7_hex"])
    except KeyError as missing:
        raise ValueError("%s: no %s for the vector" % (path, missing)) from None
    data = bytes.fromhex(entry["data_regs_0xF7_0xFE_hex"]) if "data_regs_0xF7_0xFE_hex" in entry else None
    from_data = None
    if data is not None:
        from_data = ((data[3] << 12) | (data[4] << 4) | (data[5] >> 4),
                     (data[0] << 12) | (data[1] << 4) | (data[2] >> 4), (data[6] << 8) | data[7])
    raw = entry.get("raw")
    raw = (raw["adc_T"], raw["adc_P"], raw["adc_H"]) if raw else from_data
    if raw is None:
        raise ValueError("%s: the vector has neither raw nor data_regs_0xF7_0xFE_hex" % path)
    if from_data is not None and from_data != raw:
        raise ValueError("%s: raw %s disagrees with the data registers %s" % (path, raw, from_data))
    return {"calibration1": block1, "calibration2": block2, "raw": raw}, entry.get("id", path)
