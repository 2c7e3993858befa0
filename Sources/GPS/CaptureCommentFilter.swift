/// Drops the lines of a capture that start with `#`: gpsd's capture files (`../corpus/nmea`)
/// carry attribution and gpsfake directives there, and gpsfake never sends them to the
/// receiver's reader. Works across reads, so a comment split between two chunks is still dropped.
public struct CaptureCommentFilter {
    public init() {}

    private var atLineStart = true
    private var inComment = false

    /// Compacts `buffer` in place and returns how many bytes remain.
    public mutating func strip(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        var kept = 0
        for i in 0..<buffer.count {
            let byte = buffer[i]
            if atLineStart { inComment = byte == UInt8(ascii: "#") }
            if !inComment {
                buffer[kept] = byte
                kept += 1
            }
            atLineStart = byte == 0x0A
        }
        return kept
    }
}
