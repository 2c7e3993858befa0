import SystemPackage

/// An edge seen on one input line, stamped by whoever saw it first (the kernel, on Linux).
public struct Edge: Equatable, Sendable {
    public enum Direction: Sendable, Equatable {
        /// Low to high. A button to ground with a pull-up is *released*.
        case rising
        /// High to low. A button to ground with a pull-up is *pressed*.
        case falling
    }

    /// The index of the line in the request (0 for the first line requested), not its offset.
    public var line: Int
    public var direction: Direction
    /// When the edge happened, on the monotonic clock (`CLOCK_MONOTONIC`, the kernel's default
    /// clock for uAPI v2 line events).
    public var time: Instant
    /// The kernel's numbers for the edge, from which dropped edges are counted exactly; nil from
    /// a source that does not number its edges (uAPI v1, a scripted replay).
    public var sequence: EdgeSequence?

    public init(line: Int, direction: Direction, time: Instant, sequence: EdgeSequence? = nil) {
        self.line = line
        self.direction = direction
        self.time = time
        self.sequence = sequence
    }
}

/// A set of input lines requested together, with edge detection on both edges.
///
/// Two required methods, because a debouncer needs both: the edges (with their timestamps) to
/// notice a press at once, and the settled levels to decide what the contact did once it has
/// stopped bouncing (edges can be dropped when the kernel's event buffer overflows).
public protocol DigitalInputs {
    /// Copies pending edges, oldest first, into `buffer`; returns how many. Never blocks.
    mutating func readEdges(into buffer: UnsafeMutableBufferPointer<Edge>) throws(GPIOError) -> Int

    /// The physical level of every line now, bit `i` for line `i` (1 = high).
    mutating func levels() throws(GPIOError) -> UInt32

    /// Stops (`false`) or starts again (`true`) the reports of line `line`'s edges, so a line
    /// that chatters (a floating input) stops waking the reader at its interrupt rate. Returns
    /// whether it was done; a source that cannot leaves the line reporting, and its edges are
    /// only ignored. Listening again keeps the line's bias and debounce.
    mutating func setListening(_ listening: Bool, line: Int) -> Bool

    /// How the status and the logs name line `line`: the button ("B") and where it is wired
    /// ("GPIO27").
    func describeLine(_ line: Int) -> (name: String, wire: String)
}

extension DigitalInputs {
    public mutating func setListening(_ listening: Bool, line: Int) -> Bool { false }

    public func describeLine(_ line: Int) -> (name: String, wire: String) { ("\(line + 1)", "line \(line)") }
}

/// Pull resistor for an input line (needs kernel ≥ 5.5 on Linux).
public enum Bias: String, Sendable, CaseIterable {
    case pullUp = "pull-up", pullDown = "pull-down", disabled = "disabled", asIs = "as-is"
}

/// A GPIO failure with a kind shared by every backend.
public struct GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No gpiochip with that label or path.
        case noChip
        /// No line with that name or offset on the chip.
        case noLine
        /// Another process or a kernel driver holds the line.
        case busy
        /// On Raspberry Pi OS: add the user to the `gpio` group.
        case permissionDenied
        /// The kernel or chip cannot do it (bias before 5.5, edge detection on this line).
        case unsupported
        case other
    }

    public var kind: Kind
    public var errno: Errno?

    public init(_ kind: Kind, errno: Errno? = nil) {
        self.kind = kind
        self.errno = errno
    }

    public var description: String {
        let what: String
        switch kind {
        case .noChip: what = "no such GPIO chip"
        case .noLine: what = "no such GPIO line"
        case .busy: what = "GPIO line in use by another process or driver"
        case .permissionDenied: what = "permission denied (is the user in the gpio group?)"
        case .unsupported: what = "not supported by this kernel or chip"
        case .other: what = "GPIO error"
        }
        guard let errno else { return what }
        return "\(what) (\(errno))"
    }
}
