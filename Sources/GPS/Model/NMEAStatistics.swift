/// What the framer and decoder did with the bytes they were given, by reason.
///
/// Every byte ends up in exactly one place: part of an accepted sentence, part of a dropped one
/// (counted once per sentence, by the first reason that applied), or ignored between sentences.
public struct NMEAStatistics: Sendable, Equatable {
    /// Sentences that passed framing and the checksum (gpsd would echo them).
    public var accepted = 0
    /// Accepted and decoded into a fix, satellite or text report.
    public var decoded = 0
    /// Accepted, but not a sentence this decoder knows (proprietary `$P…`, RMB, GST, …).
    public var unknown = 0
    /// Accepted, known, but a field is malformed or out of range; the sentence is not used.
    public var malformed = 0
    /// The `*hh` checksum does not match the sentence.
    public var badChecksum = 0
    /// The sentence has no `*hh` checksum (or a malformed one).
    public var missingChecksum = 0
    /// Longer than the framer's bound; the rest of the line is skipped.
    public var overlong = 0
    /// Cut short by a non-printable byte or by the start of another sentence.
    public var garbage = 0
    /// Bytes outside any sentence, other than line endings (binary protocols, noise).
    public var ignoredBytes = 0

    public init() {}

    /// Sentences dropped for any reason at the framing stage.
    public var rejected: Int { badChecksum + missingChecksum + overlong + garbage }
}
