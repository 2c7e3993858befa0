import Testing
@testable import Weather

/// TZif counts are 32-bit and unsigned. On a 32-bit `Int` (armhf Pi OS) a count
/// of 2^31 or more trapped when read, and the size sum could overflow; now every count is
/// checked against the file's size first and the sum is taken in 64 bits.
@Suite("TZif: counts larger than the file")
struct ZoneTZifCountsTests {
    /// A version-1 header with these six counts (isutcnt, isstdcnt, leapcnt, timecnt, typecnt,
    /// charcnt) and `padding` bytes after it.
    static func file(counts: [UInt32], padding: Int = 64) -> [UInt8] {
        var bytes = Array("TZif".utf8) + [0] + [UInt8](repeating: 0, count: 15)
        for count in counts { bytes += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] }
        return bytes + [UInt8](repeating: 0, count: padding)
    }

    @Test("a count beyond the file's size is malformed, named, and never reaches arithmetic", arguments: [
        [0, 0, 0, 0xFFFF_FFFF, 1, 1], [0, 0, 0, 0, 0x8000_0000, 1], [0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF],
        [0, 0, 0x7FFF_FFFF, 0, 1, 1],
    ] as [[UInt32]])
    func countLargerThanFile(counts: [UInt32]) {
        let result = ZoneRules.parse(tzif: Self.file(counts: counts), identifier: "Test/Huge")
        guard case .failure(.malformed(_, let reason)) = result else {
            Issue.record("expected malformed, got \(result)")
            return
        }
        #expect(reason.contains("is larger than the file"), "\(reason)")
    }

    @Test("counts that fit the file are read as before")
    func countsThatFit() {
        // One type, one abbreviation character, no transitions: 6 + 1 bytes of data.
        var bytes = Self.file(counts: [0, 0, 0, 0, 1, 4], padding: 0)
        bytes += [0, 0, 0x0E, 0x10, 0, 0] + Array("ABC\0".utf8)
        let rules = ZoneRules.parse(tzif: bytes, identifier: "Test/Fixed")
        guard case .success = rules else {
            Issue.record("a well-formed one-type file was refused: \(rules)")
            return
        }
    }
}
