/// Bytes received on a connection and not consumed yet, in memory of its own so that the socket
/// (or the TLS engine) writes into it and the parser and zlib read from it in place. It grows
/// only as far as one response head needs (SocketTransport caps that at 64 KiB): bodies pass
/// through.
final class Inbox {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var start = 0
    private var end = 0

    init(capacity: Int = 16 * 1024) {
        self.capacity = capacity
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }

    deinit { storage.deallocate() }

    var count: Int { end - start }
    var isEmpty: Bool { end == start }

    subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count)
        return storage.load(fromByteOffset: start + offset, as: UInt8.self)
    }

    /// The bytes at `range` (offsets from the first unconsumed byte), valid until the next
    /// `space(atLeast:)`.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return UnsafeRawBufferPointer(start: storage + start + range.lowerBound, count: range.count)
    }

    /// The offset of the first `byte` at or after `offset`.
    func firstIndex(of byte: UInt8, from offset: Int = 0) -> Int? {
        guard offset < count else { return nil }
        return bytes(offset..<count).firstIndex(of: byte).map { offset + $0 }
    }

    func consume(_ length: Int) {
        precondition(length >= 0 && length <= count)
        start += length
        if start == end {
            start = 0
            end = 0
        }
    }

    /// Free space after the last byte, at least `minimum` bytes: moves the unconsumed bytes to
    /// the front, or grows.
    func space(atLeast minimum: Int) -> UnsafeMutableRawBufferPointer {
        if capacity - end < minimum && start > 0 {
            (storage).copyMemory(from: storage + start, byteCount: count)
            end -= start
            start = 0
        }
        if capacity - end < minimum {
            let grown = max(capacity * 2, end + minimum)
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
            bigger.copyMemory(from: storage, byteCount: end)
            storage.deallocate()
            storage = bigger
            capacity = grown
        }
        return UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end)
    }

    /// `length` bytes were written into the space that `space(atLeast:)` returned.
    func commit(_ length: Int) {
        precondition(length >= 0 && end + length <= capacity)
        end += length
    }
}
