/// Bytes from a receiver in, sentences and fixes out: the framer, the decoder and the epoch
/// assembler in one value, with no allocation per byte, sentence or epoch.
public struct NMEAReceiver {
    /// What `consume` reports, in stream order.
    public enum Event {
        /// A sentence passed framing and its checksum. `bytes` spans `$` to the checksum and is
        /// valid only during the callback; `decoding` says what the decoder made of it.
        case sentence(bytes: UnsafeRawBufferPointer, decoding: NMEADecoding)
        /// An epoch closed.
        case fix(Fix)
    }

    private var framer = NMEAFramer()
    private var epochs: EpochAssembler
    private var decoded = 0
    private var unknown = 0
    private var malformed = 0

    public init(rules: GPSTimeRules = .live) {
        epochs = EpochAssembler(rules: rules)
    }

    /// Every counter of the framer and the decoder.
    public var statistics: NMEAStatistics {
        var s = framer.statistics
        s.decoded = decoded
        s.unknown = unknown
        s.malformed = malformed
        return s
    }

    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        // The framer is a stored property, so pulling the epoch assembler through a local keeps
        // the closure from capturing `self` twice.
        var epochs = self.epochs
        var counts = (decoded, unknown, malformed)
        framer.feed(bytes) { sentence in
            let decoding = NMEADecoder.decode(sentence)
            handle(.sentence(bytes: sentence, decoding: decoding))
            switch decoding {
            case .decoded(let talker, let message):
                counts.0 += 1
                epochs.add(talker, message) { handle(.fix($0)) }
            case .unknown: counts.1 += 1
            case .malformed: counts.2 += 1
            }
        }
        (decoded, unknown, malformed) = counts
        self.epochs = epochs
    }

    /// The input ended: drops a partial sentence and closes the epoch in progress.
    public mutating func finish(_ handle: (Event) -> Void) {
        framer.finish()
        epochs.finish { handle(.fix($0)) }
    }
}
