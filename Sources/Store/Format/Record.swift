/// The on-disk record (docs/design/decisions.md#the-store-format), little-endian:
///
///     0 magic u16 "TS" | 2 format u8 | 3 type u8 | 4 length u16 | 6 flags u16 |
///     8 generation u32 | 12 sequence u64 | 20 payload[length] | CRC-32C u32 of bytes 0..<20+length
///
/// padded with zeros to a multiple of 8. One commit is one record, so a multi-key change is
/// atomic. Every record is written twice, back to back, in the same `pwrite` (an *entry*); the
/// second has flag bit 0 set, so a lone copy is never mistaken for the start of an entry:
/// a torn write keeps a prefix of the entry, so "first copy whole, second damaged" is what a
/// power cut leaves, while "first copy damaged, second whole" can only be damage to the medium;
/// and a flipped bit in any acknowledged record, the last one included, is repaired from the
/// copy instead of being mistaken for a torn tail.
enum Record {
    static let magic: UInt16 = 0x5354
    static let format: UInt8 = 1
    static let headerSize = 20
    static let checksumSize = 4
    static let alignment = 8
    /// No record is larger; log entries never cross a block (one block written per change).
    static let blockSize = 4096
    static let maximumPayload = blockSize - headerSize - checksumSize
    /// Flag bit 0: this record is the second copy of its entry. No other flag is defined.
    static let copyFlag: UInt16 = 1

    enum Kind: UInt8 {
        case snapshot = 1
        case change = 2
    }

    static func stride(payload: Int) -> Int { aligned(headerSize + payload + checksumSize) }

    static func aligned(_ n: Int) -> Int { (n + alignment - 1) & ~(alignment - 1) }

    /// Encodes an entry (the record and its copy) at the start of `buffer`; returns its size.
    /// `payload` writes the payload through the writer it is given.
    static func encodeEntry(
        into buffer: UnsafeMutableRawBufferPointer, kind: Kind, generation: UInt32, sequence: UInt64,
        payload: (inout ByteWriter) -> Void
    ) -> Int {
        var writer = ByteWriter(buffer)
        writer.write(magic)
        writer.write(format)
        writer.write(kind.rawValue)
        writer.write(UInt16(0))  // length, patched below
        writer.write(UInt16(0))  // flags
        writer.write(generation)
        writer.write(sequence)
        payload(&writer)
        let length = writer.count - headerSize
        precondition(length <= maximumPayload, "record payload of \(length) bytes")
        buffer.storeBytes(of: UInt16(length).littleEndian, toByteOffset: 4, as: UInt16.self)
        writer.write(CRC32C.checksum(UnsafeRawBufferPointer(rebasing: buffer[..<writer.count])))
        let size = stride(payload: length)
        writer.zeroFill(to: size)
        let copy = UnsafeMutableRawBufferPointer(rebasing: buffer[size..<2 * size])
        copy.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<size]))
        copy.storeBytes(of: copyFlag.littleEndian, toByteOffset: 6, as: UInt16.self)
        let end = headerSize + length
        copy.storeBytes(
            of: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: copy[..<end])).littleEndian, toByteOffset: end,
            as: UInt32.self)
        return 2 * size
    }
}

/// A record that passed every check: magic, format, kind, length within bounds, CRC.
struct ParsedRecord: Equatable {
    var kind: Record.Kind
    var generation: UInt32
    var sequence: UInt64
    /// Where the payload lies in the bytes parsed.
    var payload: Range<Int>
    var offset: Int
    var stride: Int
    var isCopy: Bool

    /// Parses the record at `offset`, or nil if there is none that checks out.
    init?(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard offset >= 0, bytes.count - offset >= Record.headerSize + Record.checksumSize else { return nil }
        func load<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + at, as: T.self))
        }
        guard load(0, UInt16.self) == Record.magic, load(2, UInt8.self) == Record.format,
            let kind = Record.Kind(rawValue: load(3, UInt8.self)), load(6, UInt16.self) & ~Record.copyFlag == 0
        else { return nil }
        let length = Int(load(4, UInt16.self))
        guard length <= Record.maximumPayload, bytes.count - offset >= Record.stride(payload: length) else { return nil }
        let end = offset + Record.headerSize + length
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: end, as: UInt32.self))
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) == stored else { return nil }
        self.kind = kind
        self.generation = load(8, UInt32.self)
        self.sequence = load(12, UInt64.self)
        self.payload = offset + Record.headerSize..<end
        self.offset = offset
        self.stride = Record.stride(payload: length)
        self.isCopy = load(6, UInt16.self) == Record.copyFlag
    }

    /// The same record, apart from the copy flag and hence the checksum.
    func matches(_ other: ParsedRecord, in bytes: UnsafeRawBufferPointer) -> Bool {
        kind == other.kind && generation == other.generation && sequence == other.sequence
            && bytes[payload].elementsEqual(bytes[other.payload])
    }
}

/// A record read from an entry, and what the other copy looked like.
struct ParsedEntry {
    enum CopyState: Equatable {
        case bothWhole
        /// The copy is missing or damaged: a torn tail if this is the last entry, else damage.
        case secondDamaged
        /// Only the copy checks out: always damage to the medium (a torn write keeps a prefix).
        case firstDamaged
    }

    var record: ParsedRecord
    var start: Int
    /// Where the next entry may begin.
    var end: Int
    var copies: CopyState

    /// The entry at `offset`, from either copy, or nil if neither checks out.
    init?(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        if let first = ParsedRecord(bytes, at: offset) {
            guard !first.isCopy else { return nil }
            let second = ParsedRecord(bytes, at: offset + first.stride)
            let same = second.map { $0.isCopy && first.matches($0, in: bytes) } ?? false
            self.init(record: first, start: offset, end: offset + 2 * first.stride, copies: same ? .bothWhole : .secondDamaged)
            return
        }
        // The first copy is damaged; its length field may be too, so look for a copy whose own
        // length puts it exactly one stride after `offset`.
        let smallest = offset + Record.stride(payload: 0)
        let largest = offset + Record.stride(payload: Record.maximumPayload)
        var candidate = smallest
        while candidate <= largest, candidate + Record.headerSize <= bytes.count {
            if let second = ParsedRecord(bytes, at: candidate), second.isCopy, second.stride == candidate - offset {
                self.init(record: second, start: offset, end: candidate + second.stride, copies: .firstDamaged)
                return
            }
            candidate += Record.alignment
        }
        return nil
    }

    private init(record: ParsedRecord, start: Int, end: Int, copies: CopyState) {
        self.record = record
        self.start = start
        self.end = end
        self.copies = copies
    }
}
