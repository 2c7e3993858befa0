import Glibc

/// The log lines of a long headless run, kept in an unlinked temporary file instead of memory.
///
/// Every line the device logs goes into the report's `timeline`. Kept in an array, a year of
/// simulated days grows the process by about 330 bytes a line (a flaky network logs some 40
/// lines a day), which a soak then reads as the device's memory creeping. Spooled to a file,
/// the process stays the device's size; the report reads the lines back once at the end.
///
/// Each entry: the seconds as the 8 bytes of a `Double`, the text's length as 4 bytes, the
/// text's UTF-8 (native byte order: the file lives and dies with this process).
public final class TimelineSpool {
    private let fd: CInt
    private var written = 0
    /// The first write that failed (a full /tmp): the report says the timeline is cut there.
    public private(set) var failure: String?

    /// A spool in `$TMPDIR` (or /tmp), already unlinked: nothing is left behind, even after a
    /// crash. Nil when no temporary file can be made.
    public init?() {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((directory + "/thunderstorm-timeline-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    public func append(seconds: Double, text: String) {
        guard failure == nil else { return }
        var header = [UInt8](repeating: 0, count: 12)
        var bits = seconds.bitPattern
        var length = UInt32(text.utf8.count)
        withUnsafeBytes(of: &bits) { header.replaceSubrange(0..<8, with: $0) }
        withUnsafeBytes(of: &length) { header.replaceSubrange(8..<12, with: $0) }
        guard write(header), write(Array(text.utf8)) else {
            failure = String(cString: strerror(errno))
            return
        }
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        var bytes = bytes
        guard Self.whole(&bytes, at: written, { pwrite(fd, $0, $1, $2) }) else { return false }
        written += bytes.count
        return true
    }

    /// Runs `io` (pread or pwrite) until all of `buffer` is done at `offset`, through EINTR
    /// and short counts; false on an error or end of file.
    private static func whole(
        _ buffer: inout [UInt8], at offset: Int, _ io: (UnsafeMutableRawPointer, Int, off_t) -> Int
    ) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeMutableBytes { io($0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Every entry, oldest first.
    public func forEach(_ body: (Double, String) -> Void) {
        var offset = 0
        var header = [UInt8](repeating: 0, count: 12)
        while offset + 12 <= written {
            guard read(into: &header, at: offset) else { return }
            let seconds = header.withUnsafeBytes { Double(bitPattern: $0.loadUnaligned(as: UInt64.self)) }
            let length = header.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) }
            var text = [UInt8](repeating: 0, count: length)
            guard offset + 12 + length <= written, read(into: &text, at: offset + 12) else { return }
            body(seconds, String(decoding: text, as: UTF8.self))
            offset += 12 + length
        }
    }

    private func read(into buffer: inout [UInt8], at offset: Int) -> Bool {
        Self.whole(&buffer, at: offset) { pread(fd, $0, $1, $2) }
    }
}
