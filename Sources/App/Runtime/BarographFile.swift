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

    /// The history's bytes, as written: one allocation of the exact size, filled in place
    /// (the store's `ByteWriter`, the same little-endian layout as its records).
    public static func encode(_ history: PressureHistory) -> [UInt8] {
        let size = headerSize + recordSize * history.count + 4
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            writer.write(magic)
            writer.write(UInt32(PressureHistory.interval.components.seconds))
            writer.write(UInt32(history.count))
            for i in 0..<history.count {
                let sample = history[i]
                writer.write(sample.time.seconds)
                writer.write(sample.hectopascals.bitPattern)
                writer.write(sample.quality.rawValue)
            }
            writer.write(CRC32C.checksum(UnsafeRawBufferPointer(rebasing: writer.buffer[..<writer.count])))
            count = writer.count
        }
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
        bytes.withUnsafeBytes { decode($0, capacity: capacity) }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, capacity: Int) -> Result<PressureHistory, FileError> {
        guard bytes.count >= headerSize + 4, bytes.starts(with: magic[0..<6]) else {
            return .failure(.damaged("not a barograph file"))
        }
        guard bytes[6] == 0, bytes[7] == magic[7] else { return .failure(.damaged("version \(bytes[7]), this build reads \(magic[7])")) }
        let body = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 4)])
        var trailer = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - 4)...]))
        guard trailer.read(UInt32.self) == CRC32C.checksum(body) else { return .failure(.damaged("checksum mismatch: torn or corrupt")) }
        // Every read below is inside `body` (its size is checked against the count first).
        var reader = ByteReader(body)
        _ = reader.read(count: magic.count)
        let interval = reader.read(UInt32.self) ?? 0
        guard Int64(interval) == PressureHistory.interval.components.seconds else {
            return .failure(.damaged("sampled every \(interval) s, not \(PressureHistory.interval.components.seconds) s"))
        }
        let count = Int(reader.read(UInt32.self) ?? 0)
        guard body.count == headerSize + recordSize * count else {
            return .failure(.damaged("\(count) samples do not fill \(bytes.count) bytes"))
        }
        let skipped = max(count - capacity, 0)
        _ = reader.read(count: recordSize * skipped)
        var history = PressureHistory(capacity: capacity)
        for i in skipped..<count {
            guard let time = reader.read(Int64.self), let bits = reader.read(UInt64.self), let code = reader.read(UInt8.self) else {
                return .failure(.damaged("sample \(i) is cut short"))  // not reached: the size is checked above
            }
            let hectopascals = Double(bitPattern: bits)
            guard let quality = PressureSample.Quality(rawValue: code) else {
                return .failure(.damaged("sample \(i) has no known quality (\(code))"))
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
}
