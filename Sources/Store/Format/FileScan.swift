/// Damage that open found in a store file: what, and where.
public struct StoreDamage: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// One copy of a record was damaged and the other was used: nothing lost.
        case repairedFromCopy(sequence: UInt64)
        /// A checksummed record of this generation lies after the end of the readable log:
        /// the records between were damaged and everything from there on is not served.
        case unreadableAfter(sequence: UInt64)
        /// A record with a good checksum whose change this build cannot apply.
        case unusableRecord(sequence: UInt64)
        /// The snapshot checks out but its contents do not.
        case malformedSnapshot(String)
        /// Checksummed records of a generation newer than the one served, whose snapshot or
        /// log cannot be read.
        case unreadableGeneration(UInt32)
        case wrongSize(actual: Int, expected: Int)
        case missing
    }

    public var file: String
    public var offset: Int?
    public var kind: Kind

    /// Whether data may be lost (anything but a repaired copy).
    public var losesData: Bool {
        if case .repairedFromCopy = kind { return false }
        return true
    }

    public var description: String {
        let at = offset.map { " at offset \($0)" } ?? ""
        switch kind {
        case .repairedFromCopy(let seq): return "\(file)\(at): one copy of record \(seq) is damaged; read from the other copy"
        case .unreadableAfter(let seq):
            return "\(file)\(at): records after \(seq) are unreadable but later ones exist (damaged medium)"
        case .unusableRecord(let seq): return "\(file)\(at): record \(seq) checks out but cannot be applied"
        case .malformedSnapshot(let why): return "\(file)\(at): snapshot unreadable (\(why))"
        case .unreadableGeneration(let generation):
            return "\(file)\(at): generation \(generation) is newer than the one served but unreadable (damaged medium)"
        case .wrongSize(let actual, let expected): return "\(file) is \(actual) bytes, expected \(expected) (truncated or grown)"
        case .missing: return "\(file) is missing"
        }
    }
}

/// What one store file holds: its snapshot, the log replayed on top of it, and any damage.
/// A pure function of the bytes, so the fuzz target and the corruption tests call it directly.
struct FileScan {
    var name: String
    var generation: UInt32?
    var schema: UInt16?
    /// The state after the last readable record, or nil without a usable snapshot.
    var state: StoreState?
    var snapshotSequence: UInt64 = 0
    var sequence: UInt64 = 0
    /// Change records replayed on top of the snapshot.
    var records = 0
    /// Where the next entry goes.
    var tail = 0
    var damage: [StoreDamage] = []
    /// Written by a newer build.
    var newerSchema: UInt16?

    var hasSnapshot: Bool { generation != nil }

    /// The highest generation of any checksummed record in the file, readable log or not, and
    /// where the first record of it lies.
    var highestGeneration: (generation: UInt32, offset: Int)?

    /// `bytes` is the start of the file that can hold records (see
    /// `FileStoreConfiguration.recordRegion`), `size` the file's size.
    init(name: String, bytes: UnsafeRawBufferPointer, size: Int, expectedSize: Int) {
        self.name = name
        if size != expectedSize, bytes.contains(where: { $0 != 0 }) {
            damage.append(StoreDamage(file: name, kind: .wrongSize(actual: size, expected: expectedSize)))
        }
        // Replay parses the log; the survey looks only at what replay did not cover.
        let end = read(bytes)
        survey(bytes, from: end, to: bytes.count, afterTheLog: true)
    }

    /// Reads the snapshot and replays the log; returns where the readable log ends (0 when
    /// there is no usable snapshot).
    private mutating func read(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let first = ParsedEntry(bytes, at: 0), first.record.kind == .snapshot else { return 0 }
        generation = first.record.generation
        highestGeneration = (first.record.generation, 0)  // the log replayed below is this generation
        snapshotSequence = first.record.sequence
        sequence = first.record.sequence
        switch SnapshotCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[first.record.payload])) {
        case .state(let decoded, let schema):
            self.schema = schema
            return replay(bytes, from: first, state: decoded)
        case .newer(let schema, let decoded):
            newerSchema = schema
            self.schema = schema
            state = decoded
            tail = first.end
            return first.end  // the log of a newer build is not ours to replay
        case .malformed(let why):
            damage.append(StoreDamage(file: name, offset: 0, kind: .malformedSnapshot(why)))
            generation = nil
            return 0
        }
    }

    /// The next entry begins at the 8-byte boundary after the previous one, or at the next
    /// block when it did not fit in the rest of that block.
    static func candidates(after end: Int) -> (Int, Int?) {
        let next = Record.aligned(end)
        let block = (next + Record.blockSize - 1) / Record.blockSize * Record.blockSize
        return (next, block == next ? nil : block)
    }

    /// Applies the change records that follow `first`, in sequence, while they check out.
    private mutating func replay(_ bytes: UnsafeRawBufferPointer, from first: ParsedEntry, state: StoreState) -> Int {
        var state = state
        var last = first
        while true {
            let (near, far) = Self.candidates(after: last.end)
            var next = nextEntry(bytes, near)
            if next == nil, let far, let entry = nextEntry(bytes, far) {
                survey(bytes, from: near, to: far, afterTheLog: false)  // the skipped end of a block
                next = entry
            }
            guard let entry = next else { break }
            guard let change = ChangeCodec.decode(
                UnsafeRawBufferPointer(rebasing: bytes[entry.record.payload]), applyingTo: state)
            else {
                damage.append(StoreDamage(file: name, offset: entry.start, kind: .unusableRecord(sequence: entry.record.sequence)))
                break
            }
            noteCopies(of: last, isLast: false)
            state.apply(change)
            records += 1
            sequence = entry.record.sequence
            last = entry
        }
        noteCopies(of: last, isLast: true)
        tail = last.end
        self.state = state
        return last.end
    }

    /// A damaged copy is damage, except the second copy of the last entry: a power cut
    /// during a write keeps a prefix of it, so that is what a torn tail looks like.
    private mutating func noteCopies(of entry: ParsedEntry, isLast: Bool) {
        guard entry.copies == .firstDamaged || (entry.copies == .secondDamaged && !isLast) else { return }
        damage.append(StoreDamage(file: name, offset: entry.start, kind: .repairedFromCopy(sequence: entry.record.sequence)))
    }

    private func nextEntry(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> ParsedEntry? {
        guard let entry = ParsedEntry(bytes, at: offset), entry.record.kind == .change,
            entry.record.generation == generation, entry.record.sequence == sequence &+ 1
        else { return nil }
        return entry
    }

    /// Looks at every 8-byte offset of `start..<end` for checksummed records:
    /// - after the log, one of this generation with a later sequence means records in between
    ///   were lost to the medium, not to a power cut (a torn write keeps a prefix);
    /// - anywhere, the highest generation tells open which generations a compaction must not
    ///   reuse, and whether a newer generation than the one served exists but is unreadable.
    private mutating func survey(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, afterTheLog: Bool) {
        var offset = Record.aligned(start)
        var reportedGap = false
        while offset < end, offset + Record.headerSize + Record.checksumSize <= bytes.count {
            defer { offset += Record.alignment }
            guard bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self) == Record.magic.littleEndian,
                let record = ParsedRecord(bytes, at: offset)
            else { continue }
            if highestGeneration.map({ record.generation > $0.generation }) ?? true {
                highestGeneration = (record.generation, offset)
            }
            if afterTheLog, !reportedGap, record.generation == generation, record.sequence > sequence {
                damage.append(StoreDamage(file: name, offset: tail, kind: .unreadableAfter(sequence: sequence)))
                reportedGap = true
            }
        }
    }
}
