import HAL

/// What the location service says, reduced to what the device shows and acts on. The runtime
/// sends one only when one of these fields changes (a fix's growing age is not a change), so a
/// receiver sending the same fix every second costs the logic nothing.
public struct GPSReport: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No port open: unplugged, wrong path, permission denied.
        case noDevice
        /// Just opened, nothing wrong yet.
        case waiting
        /// Open, silent for 3 s: wiring or power.
        case noData
        /// Bytes without valid sentences: the wrong baud rate, being hunted.
        case noValidSentences
        case noFix
        case fix
        /// The last fix is too old to be current.
        case stale
    }

    public var kind: Kind
    /// The current fix's position (only in `.fix`), rounded to 10⁻⁴° (~10 m) so that the
    /// receiver's jitter is not a change.
    public var position: Coordinate?
    /// The last known position, kept through `.stale` and unplugs (shown as "last known").
    public var lastPosition: Coordinate?
    public var satellites: Int?
    /// "2D" or "3D" while there is a fix.
    public var threeD: Bool
    /// The line for the log and the status screen's detail (the service's own words).
    public var detail: String

    public init(
        kind: Kind, position: Coordinate? = nil, lastPosition: Coordinate? = nil, satellites: Int? = nil,
        threeD: Bool = false, detail: String = ""
    ) {
        self.kind = kind
        self.position = position
        self.lastPosition = lastPosition
        self.satellites = satellites
        self.threeD = threeD
        self.detail = detail
    }

    public static let starting = GPSReport(kind: .waiting)
}

/// The indoor sensor's latest word.
public enum IndoorReading: Sendable, Equatable {
    /// Temperature °C, relative humidity % (nil on a BMP280), pressure hPa.
    case reading(temperature: Double, humidity: Double?, pressure: Double)
    /// The sensor did not answer or answered nonsense; a few words.
    case failed(String)
}

/// Whether the display takes what is sent.
public enum DisplayHealth: Sendable, Equatable {
    case ok
    /// The last transaction failed (NACK, bus error); the driver re-initialises on the next
    /// frame, so this clears itself when the panel answers again.
    case failing(String)
}

/// Where the wall time comes from (issue: the status screen says which).
public enum ClockSource: Sendable, Equatable {
    /// The kernel says its clock is synchronised (NTP, chrony, or a GPS daemon): `adjtimex`
    /// without `STA_UNSYNC`.
    case system
    /// The system clock is not synchronised; the time is GPS time that two consecutive trusted
    /// epochs agreed on (`ClockGate`), carried forward on the monotonic clock.
    case gps
    /// Neither, but the system clock reads a plausible time: shown, marked unsure (`12:34?`),
    /// and nothing written to disk is stamped with it.
    case unsure
    /// The system clock reads a time before `TimeAuthority.earliestPlausible` (a Pi that booted
    /// without fake-hwclock starts at 1970): the time of day is not shown rather than shown wrong.
    case none

    /// Whether someone vouches for the time: the kernel's synchronisation or the GPS.
    public var isTrusted: Bool { self == .system || self == .gps }
}

/// Where the zone the clock is shown in comes from.
public enum ZoneSource: Sendable, Equatable {
    /// The weather service named the place's zone.
    case provider
    /// The table of zones named the GPS position's zone (docs/design/decisions.md#the-zone-table): no network needed.
    case position
    /// The board file's `timeZone`.
    case board
    /// Nothing named one: UTC, and the screen says so.
    case utc
}

/// The time as the runtime read it for one event: the monotonic instant (every deadline) and
/// the wall time with its source (`TimeAuthority`). With `.unsure` or `.none` the wall time is
/// the system clock's unsynchronised guess; ages within a run come from the monotonic clock
/// through `base`, so they are right whatever the guess.
public struct Moment: Sendable, Equatable {
    public var now: Instant
    public var wall: WallTime
    public var source: ClockSource

    public init(now: Instant, wall: WallTime, source: ClockSource) {
        self.now = now
        self.wall = wall
        self.source = source
    }

    /// The mapping from the monotonic clock to civil time this moment was read under.
    public var base: TimeBase { TimeBase(anchor: now, wall: wall, trusted: source.isTrusted) }
}
