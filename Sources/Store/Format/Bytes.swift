/// Little-endian writing into a caller's fixed buffer; never allocates. Writing past the end
/// is a bug in the caller (sizes are checked before encoding), so it traps. Public for the
/// runtime's other small state files (the barograph's history), which share the store's
/// little-endian layout and its CRC.
public struct ByteWriter {
    public let buffer: UnsafeMutableRawBufferPointer
    public private(set) var count = 0

    public init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    public mutating func write<T: FixedWidthInteger>(_ value: T) {
        precondition(count + MemoryLayout<T>.size <= buffer.count, "record buffer overflow")
        buffer.storeBytes(of: value.littleEndian, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    public mutating func write(_ bytes: some Collection<UInt8>) {
        precondition(count + bytes.count <= buffer.count, "record buffer overflow")
        for byte in bytes {
            buffer[count] = byte
            count += 1
        }
    }

    public mutating func zeroFill(to end: Int) {
        while count < end {
            buffer[count] = 0
            count += 1
        }
    }
}

/// Little-endian reading of untrusted bytes: every read is bounds-checked and returns nil past
/// the end, so a damaged record can never read outside its buffer.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
        guard bytes.count - offset >= MemoryLayout<T>.size else { return nil }
        defer { offset += MemoryLayout<T>.size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    public mutating func read(count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
}
