import SystemPackage

/// An I²C failure, with a kind that every backend maps its own errors to (embedded-hal's
/// `ErrorKind`) and, from Linux, the errno it came from.
public struct I2CError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which part of a transaction was not acknowledged.
    public enum NoAcknowledgeSource: Sendable, Equatable {
        /// The address byte: usually nothing is listening there (loose cable, wrong address).
        case address
        /// A data byte: the device refused it.
        case data
        /// The adapter does not say which (the Raspberry Pi's i2c-bcm2835 returns EREMOTEIO).
        case unknown
    }

    public enum Kind: Sendable, Equatable {
        /// A bus error: misplaced START/STOP, a stuck line.
        case bus
        /// The adapter itself is not there: unplugged (a USB adapter), reset (a HAT's bridge),
        /// its driver unbound, or never there (no such bus). Nothing on the bus is at fault, and
        /// nothing sent now reaches it: the bus must be opened again once the adapter is back,
        /// and every device on it starts from power-on.
        case adapterGone
        case noAcknowledge(NoAcknowledgeSource)
        /// Another controller won arbitration; the transaction may be retried.
        case arbitrationLoss
        /// The target stretched the clock for too long, or the adapter timed out.
        case timeout
        /// Anything else: an argument the adapter refuses, a protocol error, no such bus.
        case other
    }

    public var kind: Kind
    /// The errno a Linux backend saw, if the error came from the kernel.
    public var errno: Errno?

    public init(_ kind: Kind, errno: Errno? = nil) {
        self.kind = kind
        self.errno = errno
    }

    /// Whether retrying the same transaction later may succeed (a device that was unplugged,
    /// browned out or busy), as opposed to a configuration mistake.
    public var isTransient: Bool {
        switch kind {
        case .noAcknowledge, .arbitrationLoss, .timeout, .bus, .adapterGone: true
        case .other: false
        }
    }

    public var description: String {
        let what: String
        switch kind {
        case .bus: what = "bus error"
        case .adapterGone: what = "adapter gone (unplugged or reset)"
        case .noAcknowledge(.address): what = "no acknowledge of the address (nothing answers there)"
        case .noAcknowledge(.data): what = "no acknowledge of a data byte"
        case .noAcknowledge(.unknown): what = "no acknowledge (device absent or refused a byte)"
        case .arbitrationLoss: what = "arbitration lost"
        case .timeout: what = "timeout"
        case .other: what = "I²C error"
        }
        guard let errno else { return what }
        return "\(what) (\(errno))"
    }
}
