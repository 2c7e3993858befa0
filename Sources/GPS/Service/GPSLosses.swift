import HAL

/// What the link lost since the service started: sentences that arrived damaged, and the
/// characters the UART and the kernel threw away before any read could see them.
///
/// A byte lost in the middle of a sentence shows up as a bad checksum; a lost line end or `*`
/// as a sentence cut short by the next `$` (or left without a checksum). Only sentences on a
/// link already known good count (after a valid sentence since the port opened): the garbage a
/// wrong baud rate produces while the rate is hunted is not a loss. The kernel's counts come
/// from `TIOCGICOUNT` (`SerialLossCounters`), read once a minute.
public struct GPSLosses: Sendable, Equatable {
    /// Sentences whose `*hh` did not match.
    public var badChecksum = 0
    /// Sentences cut short (by a `$`, a non-printable byte), without their checksum, or overlong.
    public var cutShort = 0
    /// The UART's and the kernel's dropped characters since the service started; nil while no
    /// port has answered `TIOCGICOUNT` (a USB ACM receiver, a pseudo-terminal).
    public var kernel: SerialLossCounters?

    public init(badChecksum: Int = 0, cutShort: Int = 0, kernel: SerialLossCounters? = nil) {
        self.badChecksum = badChecksum
        self.cutShort = cutShort
        self.kernel = kernel
    }

    /// Sentences lost to damage.
    public var sentences: Int { badChecksum + cutShort }
    /// Characters the UART and the kernel dropped (0 when they keep no counts).
    public var droppedBytes: Int { kernel?.total ?? 0 }
    public var isEmpty: Bool { sentences == 0 && droppedBytes == 0 }
}
