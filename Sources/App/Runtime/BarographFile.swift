import HAL
import Store
import SystemPackage
import Weather

/// The barograph's 48 hours on disk, so a restart or a power cut does not blank the trace and
/// the three-hour tendency works again at the first sample after the device is back.
///
/// One small file rewritten whole, not appended to: at most once an hour (on the hour's
/// sample) and at a stop, through the same writer as the store and the weather cache
/// (temporary file, `fdatasync`, rename, directory sync: a power cut leaves the old copy or the
/// new one). A full ring is 16 + 288 × 17 + 4 = 4,916 bytes, so 24 rewrites a day pass about
/// 118 KB to `write(2)` with 48 syncs (the data and the directory) — a tenth of the device's
/// 1 MiB-a-day budget (docs/design/architecture.md, "Targets"). An append-only log would write
/// less per sample (17 bytes) but needs a compaction that rewrites the file anyway and a
/// recovery of torn tails; with one rewrite an hour the simple form is well inside the budget.
/// What a power cut costs: the samples since the last hourly write (at most six).
///
/// Layout, little-endian:
///
/// ```
/// 0   8  "TSBARO\0" and the version (1)
/// 8   4  the sampling interval, seconds (600): a file from another interval is not this trace
/// 12  4  the number of samples n (≤ the ring's capacity)
/// 16 17n per sample, oldest first: time (Int64, Unix seconds), sea-level pressure (the
///        Double's bit pattern, hPa: restored exactly), quality (PressureSample.Quality)
/// …   4  CRC-32C of everything before it (Store's, RFC 3720 §B.4)
/// ```
///
/// Samples are written as they were kept, gaps included: the downtime is a gap in the trace,
/// never interpolated.
public enum BarographFile {
    public static let fileName = "barograph.history"
    static let magic: [UInt8] = Array("TSBARO".utf8) + [0, 1]
    static let recordSize = 17
    static let headerSize = 16
    /// Larger than any ring this build keeps; a bigger file is not ours.
    static var maximumSize: Int64 { Int64(headerSize + recordSize * PressureHistory.defaultCapacity * 4 + 4) }

    /// The history's bytes, as written.
    public static func encode(_ history: PressureHistory) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(headerSize + recordSize * history.count + 4)
        append(UInt32(PressureHistory.interval.components.seconds), to: &bytes)
        append(UInt32(history.count), to: &bytes)
        for i in 0..<history.count {
            let sample = history[i]
            append(UInt64(bitPattern: sample.time.seconds), to: &bytes)
            append(sample.hectopascals.bitPattern, to: &bytes)
            bytes.append(sample.quality.rawValue)
        }
        let crc = bytes.withUnsafeBytes { CRC32C.checksum($0) }
        append(crc, to: &bytes)
        return bytes
    }

    /// Why a file's bytes are not a history this build can use.
    public enum FileError: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        case damaged(String)
        case io(FileSystemError)

        public var description: String {
            switch self {
            case .missing: "no saved barograph"
            case .damaged(let why): "the saved barograph is not used (\(why)); the trace starts again"
            case .io(let error): "the saved barograph could not be read or written: \(error)"
            }
        }
    }

    /// The history in `bytes`, into a ring of `capacity` (the newest samples if the file holds
    /// more).
    public static func decode(_ bytes: [UInt8], capacity: Int = PressureHistory.defaultCapacity) -> Result<PressureHistory, FileError> {
        guard bytes.count >= headerSize + 4, Array(bytes[0..<6]) == Array(magic[0..<6]) else {
            return .failure(.damaged("not a barograph file"))
        }
        guard bytes[6] == 0, bytes[7] == magic[7] else { return .failure(.damaged("version \(bytes[7]), this build reads \(magic[7])")) }
        let stored = read32(bytes, at: bytes.count - 4)
        let computed = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 4)])) }
        guard stored == computed else { return .failure(.damaged("checksum mismatch: torn or corrupt")) }
        guard Int64(read32(bytes, at: 8)) == PressureHistory.interval.components.seconds else {
            return .failure(.damaged("sampled every \(read32(bytes, at: 8)) s, not \(PressureHistory.interval.components.seconds) s"))
        }
        let count = Int(read32(bytes, at: 12))
        guard bytes.count == headerSize + recordSize * count + 4 else {
            return .failure(.damaged("\(count) samples do not fill \(bytes.count) bytes"))
        }
        var history = PressureHistory(capacity: capacity)
        for i in max(count - capacity, 0)..<count {
            let at = headerSize + recordSize * i
            let time = Int64(bitPattern: read64(bytes, at: at))
            let hectopascals = Double(bitPattern: read64(bytes, at: at + 8))
            guard let quality = PressureSample.Quality(rawValue: bytes[at + 16]) else {
                return .failure(.damaged("sample \(i) has no known quality (\(bytes[at + 16]))"))
            }
            guard hectopascals.isFinite, hectopascals > 0, hectopascals < 2_000 else {
                return .failure(.damaged("sample \(i) is not a pressure"))
            }
            guard history.record(PressureSample(time: WallTime(seconds: time), hectopascals: hectopascals, quality: quality)) else {
                return .failure(.damaged("sample \(i) is not later than the one before"))
            }
        }
        return .success(history)
    }

    /// Writes `bytes` (from `encode`) as `directory/barograph.history`, atomically.
    public static func save<Files: FileSystem>(_ bytes: [UInt8], in directory: FilePath, files: inout Files) -> Result<Void, FileError> {
        do throws(FileSystemError) {
            try files.replace(fileName, in: directory, with: bytes)
            return .success(())
        } catch {
            return .failure(.io(error))
        }
    }

    /// Reads `directory/barograph.history`.
    public static func load<Files: FileSystem>(from directory: FilePath, files: inout Files) -> Result<PressureHistory, FileError> {
        do throws(FileSystemError) {
            switch try files.contents(of: directory.appending(fileName), limit: maximumSize) {
            case .bytes(let bytes): return decode(bytes)
            case .tooLarge(let size): return .failure(.damaged("\(size) bytes, larger than any trace"))
            }
        } catch {
            return .failure(error.kind == .notFound ? .missing : .io(error))
        }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func read32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[offset + i]) << UInt32(8 * i) }
        return value
    }

    private static func read64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
        return value
    }
}
