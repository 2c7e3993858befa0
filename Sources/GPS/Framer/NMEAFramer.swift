/// Cuts a receiver's byte stream into checksummed NMEA 0183 sentences, in a fixed buffer.
///
/// The rules, and where they come from (notes/gps-nmea.md §1, §3.6; gpsd's packet layer):
/// - Every `$` starts a sentence, even inside another one, so the framer resynchronises on the
///   next `$` after any damage. `$$GPGGA…` yields the sentence from the second `$`, as gpsd's
///   echo does, and a sentence injected mid-line survives while the one it cut is dropped.
/// - A sentence ends at CR or LF, so LF, CR LF and CR CR LF all work; the extra CR or LF is an
///   empty line and ignored.
/// - Only printable ASCII (0x20…0x7E) may appear inside; any other byte drops the sentence.
/// - `maximumLength` is 255 characters from `$` to the last checksum digit. NMEA 0183 says 82,
///   but real receivers exceed it: RTK GGA reaches 91, the corpus has standard sentences of
///   105 and `$PMTK` replies of 203 that gpsd accepts. 255 keeps every real sentence and still
///   bounds the buffer to one cache-friendly block.
/// - The checksum `*hh` is required (gpsd exempts only `$STI`, which we do not decode) and its
///   hex digits compare without regard to case (Magellan sends lower case).
///
/// No allocation: the buffer is inline, and a sentence is handed to the caller as a view into it
/// that is valid only during the callback.
public struct NMEAFramer {
    public static let maximumLength = 255

    private var buffer = InlineArray<256, UInt8>(repeating: 0)
    private var count = 0
    private var inSentence = false
    /// After an overlong sentence, bytes up to the next `$` or line end belong to it and are not
    /// counted again as ignored.
    private var skipping = false

    public private(set) var statistics = NMEAStatistics()

    public init() {}

    /// Frames `bytes`, calling `body` with each complete sentence whose checksum is correct.
    /// The sentence spans `$` to the last checksum digit, without the line ending.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        for byte in bytes {
            if inSentence {
                switch byte {
                case 0x24:  // "$": a new sentence starts, whatever came before
                    if count > 1 { statistics.garbage += 1 }
                    count = 1
                case 0x0D, 0x0A:
                    inSentence = false
                    finish(body)
                case 0x20...0x7E:
                    if count == NMEAFramer.maximumLength {
                        statistics.overlong += 1
                        inSentence = false
                        skipping = true
                    } else {
                        buffer[count] = byte
                        count &+= 1
                    }
                default:
                    statistics.garbage += 1
                    statistics.ignoredBytes += 1
                    inSentence = false
                }
            } else if byte == 0x24 {
                buffer[0] = byte
                count = 1
                inSentence = true
                skipping = false
            } else if byte == 0x0D || byte == 0x0A {
                skipping = false
            } else if !skipping {
                statistics.ignoredBytes += 1
            }
        }
    }

    /// Drops a partial sentence at the end of the input (a capture that stops mid-line): it is
    /// counted as garbage, since a sentence without its line end is not known to be complete.
    public mutating func finish() {
        if inSentence, count > 1 { statistics.garbage += 1 }
        inSentence = false
        skipping = false
        count = 0
    }

    private mutating func finish(_ body: (UnsafeRawBufferPointer) -> Void) {
        let n = count
        if n == 1 { return }  // a lone "$" and a line end: nothing to report
        // "$" + at least one address character + "*hh".
        guard n >= 5, buffer[n - 3] == 0x2A,
            let high = hexValue(buffer[n - 2]), let low = hexValue(buffer[n - 1])
        else {
            statistics.missingChecksum += 1
            return
        }
        var sum: UInt8 = 0
        for i in 1..<(n - 3) { sum ^= buffer[i] }
        guard sum == high << 4 | low else {
            statistics.badChecksum += 1
            return
        }
        statistics.accepted += 1
        buffer.span.withUnsafeBytes { all in
            body(UnsafeRawBufferPointer(rebasing: all[0..<n]))
        }
    }
}

@inline(__always)
func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case 0x30...0x39: c &- 0x30
    case 0x41...0x46: c &- 0x37
    case 0x61...0x66: c &- 0x57
    default: nil
    }
}
