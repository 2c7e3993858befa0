/// Cuts a receiver's byte stream into checksummed NMEA 0183 sentences, in a fixed buffer.
///
/// The rules, and where they come from (docs/design/parts.md#the-gps-receiver; gpsd's packet layer):
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
    /// XOR of the sentence's bytes after `$` so far.
    private var sum: UInt8 = 0
    private var inSentence = false
    /// After an overlong sentence, bytes up to the next `$` or line end belong to it and are not
    /// counted again as ignored.
    private var skipping = false

    public private(set) var statistics = NMEAStatistics()

    public init() {}

    /// Frames `bytes`, calling `body` with each complete sentence whose checksum is correct.
    /// The sentence spans `$` to the last checksum digit, without the line ending.
    ///
    /// The state lives in locals for the length of the call and the body of a sentence is copied
    /// by a tight loop that also folds the checksum, so each byte costs a compare, a store and
    /// an XOR (Benchmarks/: the framer was 20 % of a receiver pass before this).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        let input = start.assumingMemoryBound(to: UInt8.self)
        let end = bytes.count
        var i = 0
        var count = self.count, sum = self.sum
        var inSentence = self.inSentence, skipping = self.skipping
        var stats = statistics
        var span = buffer.mutableSpan
        span.withUnsafeMutableBytes { storage in
            let out = storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
            while i < end {
                guard inSentence else {
                    let byte = input[i]
                    i &+= 1
                    if byte == 0x24 {
                        out[0] = byte
                        count = 1
                        sum = 0
                        inSentence = true
                        skipping = false
                    } else if byte == 0x0D || byte == 0x0A {
                        skipping = false
                    } else if !skipping {
                        stats.ignoredBytes += 1
                    }
                    continue
                }
                // Printable bytes other than "$", while the sentence has room.
                let limit = min(end, i &+ (NMEAFramer.maximumLength &- count))
                while i < limit {
                    let byte = input[i]
                    if byte &- 0x20 > 0x5E || byte == 0x24 { break }
                    out[count] = byte
                    count &+= 1
                    sum ^= byte
                    i &+= 1
                }
                guard i < end else { break }
                let byte = input[i]
                i &+= 1
                switch byte {
                case 0x24:  // "$": a new sentence starts, whatever came before
                    if count > 1 { stats.garbage += 1 }
                    count = 1
                    sum = 0
                case 0x0D, 0x0A:
                    inSentence = false
                    NMEAFramer.check(out, count, sum, &stats, body)
                case 0x20...0x7E:  // printable, but the sentence is full
                    stats.overlong += 1
                    inSentence = false
                    skipping = true
                default:
                    stats.garbage += 1
                    stats.ignoredBytes += 1
                    inSentence = false
                }
            }
        }
        self.count = count
        self.sum = sum
        self.inSentence = inSentence
        self.skipping = skipping
        statistics = stats
    }

    /// Drops a partial sentence at the end of the input (a capture that stops mid-line): it is
    /// counted as garbage, since a sentence without its line end is not known to be complete.
    public mutating func finish() {
        if inSentence, count > 1 { statistics.garbage += 1 }
        inSentence = false
        skipping = false
        count = 0
    }

    /// Checks a complete line: `$`, at least one address character, `*hh` matching the XOR of
    /// everything between `$` and `*` (`sum` holds the XOR of everything after `$`).
    @inline(__always)
    private static func check(
        _ line: UnsafeMutablePointer<UInt8>, _ n: Int, _ sum: UInt8, _ stats: inout NMEAStatistics,
        _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        if n == 1 { return }  // a lone "$" and a line end: nothing to report
        guard n >= 5, line[n - 3] == 0x2A,
            let high = hexValue(line[n - 2]), let low = hexValue(line[n - 1])
        else {
            stats.missingChecksum += 1
            return
        }
        guard sum ^ line[n - 3] ^ line[n - 2] ^ line[n - 1] == high << 4 | low else {
            stats.badChecksum += 1
            return
        }
        stats.accepted += 1
        body(UnsafeRawBufferPointer(start: line, count: n))
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
