/// The trimming words each BME280 carries in its NVM (data sheet BST-BME280-DS002 rev. 1.6,
/// §4.2.2 Table 16), decoded from the two register blocks 0x88–0xA1 and 0xE1–0xE7.
///
/// Names and types follow the data sheet (`dig_T1` unsigned short, `dig_T2` signed short, …),
/// so the compensation code reads like §4.2.3. The T and P words are the BMP280's too (BMP280
/// DS001 §3.11.2); a BMP280 has no humidity words (they decode as whatever 0xA1/0xE1… hold and
/// are never used).
public struct BME280Calibration: Sendable, Equatable {
    public var digT1: UInt16
    public var digT2: Int16
    public var digT3: Int16
    public var digP1: UInt16
    public var digP2: Int16
    public var digP3: Int16
    public var digP4: Int16
    public var digP5: Int16
    public var digP6: Int16
    public var digP7: Int16
    public var digP8: Int16
    public var digP9: Int16
    public var digH1: UInt8
    public var digH2: Int16
    public var digH3: UInt8
    /// 12-bit signed: 0xE4 is bits 11:4 (signed), 0xE5 bits 3:0 are bits 3:0.
    public var digH4: Int16
    /// 12-bit signed: 0xE6 is bits 11:4 (signed), 0xE5 bits 7:4 are bits 3:0.
    public var digH5: Int16
    public var digH6: Int8

    /// Decodes `block1` (26 bytes from 0x88: calib00…calib25) and `block2` (7 bytes from 0xE1:
    /// calib26…calib32). Words are little-endian (LSB at the lower address).
    public init(block1: UnsafeRawBufferPointer, block2: UnsafeRawBufferPointer) {
        precondition(block1.count >= BME280Register.calibrationBlock1Count, "0x88–0xA1 is 26 bytes")
        precondition(block2.count >= BME280Register.calibrationBlock2Count, "0xE1–0xE7 is 7 bytes")
        func u16(_ i: Int) -> UInt16 { UInt16(block1[i]) | (UInt16(block1[i + 1]) << 8) }
        func s16(_ i: Int) -> Int16 { Int16(bitPattern: u16(i)) }
        digT1 = u16(0)
        digT2 = s16(2)
        digT3 = s16(4)
        digP1 = u16(6)
        digP2 = s16(8)
        digP3 = s16(10)
        digP4 = s16(12)
        digP5 = s16(14)
        digP6 = s16(16)
        digP7 = s16(18)
        digP8 = s16(20)
        digP9 = s16(22)
        // block1[24] is 0xA0, unused.
        digH1 = block1[25]
        digH2 = Int16(bitPattern: UInt16(block2[0]) | (UInt16(block2[1]) << 8))
        digH3 = block2[2]
        // The two 12-bit words share 0xE5 (Table 16). Each high byte is sign-extended first
        // (0xE4/0xE6 hold bits 11:4 of a signed word), then multiplied by 16; the nibble of
        // 0xE5 fills bits 3:0 (corpus D1/D2 and C3's negative dig_H5 exercise both).
        let e4 = Int16(Int8(bitPattern: block2[3]))
        let e5 = Int16(block2[4])
        let e6 = Int16(Int8(bitPattern: block2[5]))
        digH4 = e4 * 16 + (e5 & 0x0F)
        digH5 = e6 * 16 + (e5 >> 4)
        digH6 = Int8(bitPattern: block2[6])
    }

    /// Decodes the two blocks from arrays (tests, the simulator's register images).
    public init(block1: [UInt8], block2: [UInt8]) {
        self = block1.withUnsafeBytes { b1 in block2.withUnsafeBytes { b2 in BME280Calibration(block1: b1, block2: b2) } }
    }

    /// Whether a block looks like no device at all: every byte 0x00 or every byte 0xFF (a bus
    /// that reads back its pull-ups or nothing). A real part never has dig_T1 = 0 or dig_P1 = 0
    /// (both divide, §4.2.3), so those are refused too.
    public static func isBlank(_ block: UnsafeRawBufferPointer) -> Bool {
        guard let first = block.first, first == 0x00 || first == 0xFF else { return false }
        return block.allSatisfy { $0 == first }
    }

    /// Whether the words can be used: dig_T1 and dig_P1 are never 0 on a trimmed part.
    public var isPlausible: Bool { digT1 != 0 && digP1 != 0 }
}
