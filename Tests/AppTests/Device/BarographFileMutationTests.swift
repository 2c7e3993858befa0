import App
import HAL
import Store
import Testing
import Weather

/// `BarographFile.decode` reads bytes from a card that may have been cut mid-write or worn: a
/// seeded mutation run (the fuzz targets' invariants, without the sanitizer build). Every
/// mutated file is refused with one line or accepted as a history that writes back to the
/// same bytes; nothing traps. Half the mutants get a checksum that fits, so the checks behind
/// the CRC (version, interval, count, quality, pressure, order) are reached too.
@Suite("Barograph file: damaged bytes")
struct BarographFileMutationTests {
    static func withChecksum(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 4 else { return bytes }
        var body = Array(bytes.dropLast(4))
        let crc = body.withUnsafeBytes { CRC32C.checksum($0) }
        for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        return body
    }

    @Test("20,000 mutants of a full ring: refused in one line, or accepted and written back the same")
    func mutants() {
        var history = PressureHistory()
        var random = SplitMix64(seed: 25)
        for i in 0..<300 {
            let quality = PressureSample.Quality(rawValue: UInt8(random.next(below: 3)))!
            history.record(PressureSample(time: WallTime(seconds: 1_782_000_000 + Int64(i) * 600), hectopascals: 990 + Double(random.next(below: 3_000)) / 100, quality: quality))
        }
        let original = BarographFile.encode(history)
        var accepted = 0
        var refused: [String: Int] = [:]
        for round in 0..<20_000 {
            var bytes = original
            switch random.next(below: 4) {
            case 0: bytes.removeLast(Int(random.next(below: UInt64(bytes.count))))
            case 1:
                for _ in 0...random.next(below: 4) { bytes[Int(random.next(below: UInt64(bytes.count)))] ^= UInt8(1 << random.next(below: 8)) }
            case 2: bytes[Int(random.next(below: 16))] = UInt8(truncatingIfNeeded: random.next())
            default:
                let at = 16 + 17 * Int(random.next(below: 288)) + Int(random.next(below: 17))
                bytes[at] = UInt8(truncatingIfNeeded: random.next())
            }
            if round % 2 == 0 { bytes = Self.withChecksum(bytes) }
            switch BarographFile.decode(bytes) {
            case .success(let decoded):
                accepted += 1
                #expect(BarographFile.encode(decoded) == bytes, "round \(round): accepted bytes do not write back the same")
            case .failure(let error):
                let text = error.description
                #expect(!text.contains("\n"), "not one line: \(text)")
                refused[String(text.prefix(40)), default: 0] += 1
            }
        }
        #expect(accepted > 0 && refused.count >= 4, "accepted \(accepted), refusals \(refused)")
    }
}
