/// Little-endian writing into a caller's fixed buffer; never allocates. Writing past the end
/// is a bug in the caller (sizes are checked before encoding), so it traps.
struct ByteWriter {
    let buffer: UnsafeMutableRawBufferPointer
    private(set) var count = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        precondition(count + MemoryLayout<T>.size <= buffer.count, "record buffer overflow")
        buffer.storeBytes(of: value.littleEndian, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    mutating func write(_ bytes: some Collection<UInt8>) {
        precondition(count + bytes.count <= buffer.count, "record buffer overflow")
        for byte in bytes {
            buffer[count] = byte
            count += 1
        }
    }

    mutating func zeroFill(to end: Int) {
        while count < end {
            buffer[count] = 0
            count += 1
        }
    }
}

/// Little-endian reading of untrusted bytes: every read is bounds-checked and returns nil past
/// the end, so a damaged record can never read outside its buffer.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
        guard bytes.count - offset >= MemoryLayout<T>.size else { return nil }
        defer { offset += MemoryLayout<T>.size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func read(count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
}
