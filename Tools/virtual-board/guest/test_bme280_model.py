"""Host tests of the emulated BME280 (bme280_model.py) as a driver reaches it: through the
emulated i2c-tiny-usb adapter and USB/IP (the Kernel helper of test_i2c_tiny_usb.py), in virtual
time. The corpus vectors (corpus/sensors/bme280-vectors.json) must come out of the data sheet's
integer compensation exactly as the corpus expects; without the corpus those tests are skipped.
"""
import json
import os
import struct
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bme280_model import BME280, load_vector, measurement_ns  # noqa: E402
from test_i2c_tiny_usb import Clock, Kernel, kernel  # noqa: E402,F401  (kernel: the fixture)

CORPUS = os.environ.get("THUNDERSTORM_CORPUS",
                        os.path.join(HERE, "..", "..", "..", "..", "shared", "corpus"))
VECTORS = os.path.join(CORPUS, "sensors", "bme280-vectors.json")

def test_measurement_time_is_the_data_sheet_formula():
    assert measurement_ns(1, 1, 1) == 8_000_000  # §9.1: 1 + 2 + 2.5 + 2.5 ms
    assert measurement_ns(1, 3, 0) == 11_500_000  # the data sheet's example: T x1, P x4, no H
    assert measurement_ns(5, 5, 5) == 1_000_000 + 3 * 32_000_000 + 1_000_000


def test_bme280_forced_mode_measures_then_sleeps(kernel):
    kernel.clock.advance_ms(2)  # the NVM copy after power-on
    assert kernel.read_registers(0x76, 0xD0, 1) == b"\x60"
    assert kernel.read_registers(0x76, 0xF7, 8) == b"\x80\x00\x00\x80\x00\x00\x80\x00"
    kernel.i2c_transfer([(0x76, 0, b"\xF5\x00\xF2\x01")])
    kernel.i2c_transfer([(0x76, 0, b"\xF4\x25")])  # osrs_t x1, osrs_p x1, forced
    assert kernel.read_registers(0x76, 0xF3, 2) == b"\x08\x25"  # measuring, still forced
    kernel.clock.advance_ms(7.999)
    assert kernel.read_registers(0x76, 0xF3, 1) == b"\x08"
    kernel.clock.advance_ms(0.001)
    status_and_data = kernel.read_registers(0x76, 0xF3, 12)
    assert status_and_data[:2] == b"\x00\x24"  # done, and back to sleep (mode bits 00)
    assert status_and_data[4:] == bytes.fromhex("655AC07EED007649")  # V01's data registers
    assert kernel.bus.devices[0x76].read(1) == b"\x00"  # the pointer went on to 0xFF


def test_bme280_ctrl_hum_takes_effect_at_the_next_ctrl_meas(tmp_path):
    clock = Clock()
    sensor = BME280(clock_ns=clock)
    clock.advance_ms(2)
    sensor.write(b"\xF2\x01\xF5\x00\xF4\x27")  # H x1, normal mode, t_sb 0.5 ms
    clock.advance_ms(8)
    sensor.write(b"\xFD")
    assert sensor.read(2) == bytes.fromhex("7649")
    sensor.write(b"\xF2\x00")  # not latched yet: the next cycles still measure humidity
    clock.advance_ms(8.5 * 3)
    sensor.write(b"\xFD")
    assert sensor.read(2) == bytes.fromhex("7649")
    clock.advance_ms(0.2)
    sensor.write(b"\xF4\x27")  # latches osrs_h = 0 (skipped)
    clock.advance_ms(5.5)
    sensor.write(b"\xFD")
    assert sensor.read(2) == b"\x80\x00"
    clock.advance_ms(3_600_000)  # an hour in normal mode
    assert sensor.read(0) == b"" and sensor.regs[0xF4] == 0x27


def test_bme280_soft_reset(kernel):
    kernel.clock.advance_ms(2)
    kernel.i2c_transfer([(0x76, 0, b"\xF2\x01\xF4\x25")])
    kernel.clock.advance_ms(10)
    kernel.i2c_transfer([(0x76, 0, b"\xE0\xB6")])
    assert kernel.read_registers(0x76, 0xF3, 3) == b"\x01\x00\x00"  # im_update, ctrl reset
    assert kernel.read_registers(0x76, 0x88, 2) == b"\x00\x00"  # the NVM is being copied
    assert kernel.read_registers(0x76, 0xE0, 1) == b"\x00"
    kernel.clock.advance_ms(2)
    assert kernel.read_registers(0x76, 0x88, 2) == b"\x70\x6B"
    assert kernel.read_registers(0x76, 0xFA, 3) == b"\x80\x00\x00"


def s16(lo, hi):
    return struct.unpack("<h", bytes([lo, hi]))[0]


def s8(value):
    return value - 256 if value > 127 else value


def compensate(block1, block2, data):
    """The data sheet's integer code (§4.2.3, §8.1: 32-bit T and H, 64-bit P), C's `/` on
    negatives truncating toward zero."""
    T1, T2, T3 = block1[0] | block1[1] << 8, s16(*block1[2:4]), s16(*block1[4:6])
    P1 = block1[6] | block1[7] << 8
    P = [None, P1] + [s16(block1[i], block1[i + 1]) for i in range(8, 24, 2)]
    H1, H2, H3 = block1[25], s16(*block2[0:2]), block2[2]
    H4 = s8(block2[3]) * 16 + (block2[4] & 0x0F)
    H5 = s8(block2[5]) * 16 + (block2[4] >> 4)
    H6 = s8(block2[6])
    adc_p = data[0] << 12 | data[1] << 4 | data[2] >> 4
    adc_t = data[3] << 12 | data[4] << 4 | data[5] >> 4
    adc_h = data[6] << 8 | data[7]
    var1 = (((adc_t >> 3) - (T1 << 1)) * T2) >> 11
    var2 = (((((adc_t >> 4) - T1) * ((adc_t >> 4) - T1)) >> 12) * T3) >> 14
    t_fine = var1 + var2
    temperature = (t_fine * 5 + 128) >> 8
    var1 = t_fine - 128000
    var2 = var1 * var1 * P[6] + ((var1 * P[5]) << 17) + (P[4] << 35)
    var1 = ((var1 * var1 * P[3]) >> 8) + ((var1 * P[2]) << 12)
    var1 = (((1 << 47) + var1) * P[1]) >> 33
    pressure = 0
    if var1:
        p = 1048576 - adc_p
        num = ((p << 31) - var2) * 3125
        p = abs(num) // abs(var1) * (1 if (num < 0) == (var1 < 0) else -1)
        pressure = ((p + ((P[9] * (p >> 13) * (p >> 13)) >> 25) + ((P[8] * p) >> 19)) >> 8) + (P[7] << 4)
    v = t_fine - 76800
    v = (((((adc_h << 14) - (H4 << 20) - (H5 * v)) + 16384) >> 15)
         * (((((((v * H6) >> 10) * (((v * H3) >> 11) + 32768)) >> 10) + 2097152) * H2 + 8192) >> 14))
    v = v - (((((v >> 15) * (v >> 15)) >> 7) * H1) >> 4)
    humidity = min(max(v, 0), 419430400) >> 12
    return {"t_fine": t_fine, "T_centi_degC": temperature, "P_Q24_8": pressure, "H_Q22_10": humidity}


def corpus_vectors():
    if not os.path.exists(VECTORS):
        pytest.skip("no corpus at %s (set THUNDERSTORM_CORPUS)" % CORPUS)
    with open(VECTORS) as f:
        return json.load(f)["compensation_vectors"]


@pytest.mark.parametrize("index", range(11))
def test_bme280_serves_each_corpus_vector_as_a_driver_reads_it(tmp_path, index):
    vector = corpus_vectors()[index]
    values, ident = load_vector(VECTORS, index=index)
    assert ident == vector["id"]
    k = Kernel(tmp_path, devices="bme280@76", bme280_values=values)
    try:
        k.clock.advance_ms(2)
        assert k.read_registers(0x76, 0xD0, 1) == b"\x60"
        block1, block2 = k.read_registers(0x76, 0x88, 26), k.read_registers(0x76, 0xE1, 7)
        k.i2c_transfer([(0x76, 0, b"\xF5\x00")])
        k.i2c_transfer([(0x76, 0, b"\xF2\x01")])
        k.i2c_transfer([(0x76, 0, b"\xF4\x25")])
        k.clock.advance_ms(9.3)  # the data sheet's maximum time at x1 x1 x1
        data = k.read_registers(0x76, 0xF3, 12)
        assert data[0] & 0x08 == 0
        assert data[4:].hex(" ").upper() == vector["data_regs_0xF7_0xFE_hex"]
        expected = vector["expected"]["datasheet_integer"]
        assert compensate(block1, block2, data[4:]) == {key: expected[key] for key in
                                                        ("t_fine", "T_centi_degC", "P_Q24_8", "H_Q22_10")}
    finally:
        k.close()


def test_vector_files_by_id_and_as_one_object(tmp_path):
    corpus_vectors()
    values, ident = load_vector(VECTORS, ident="V03_room")
    assert ident == "V03_room" and len(values["calibration1"]) == 26
    with pytest.raises(ValueError, match="choose one"):
        load_vector(VECTORS)
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"regs_0x88_0xA1_hex": "00 " * 26, "regs_0xE1_0xE7_hex": "00 " * 7,
                               "raw": {"adc_T": 1, "adc_P": 2, "adc_H": 3},
                               "data_regs_0xF7_0xFE_hex": "00 00 20 00 00 10 00 03"}))
    assert load_vector(str(one))[0]["raw"] == (1, 2, 3)
    one.write_text(one.read_text().replace('"adc_H": 3', '"adc_H": 4'))
    with pytest.raises(ValueError, match="disagrees"):
        load_vector(str(one))
