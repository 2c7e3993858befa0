import Core
import Drivers
import Graphics
import HAL
import Store
import SystemPackage
import Weather

/// The display the device drives, with the frame it draws into.
public enum DisplayUnit<Bus: I2CBus> {
    case oled(OLEDDisplay<Bus>)
    case lcd(HD44780Display<Bus>)
}

/// The edges of the device that are not hardware, as values (the seed's `Dependencies` of
/// closures): the kernel's clock discipline, the zone database, the log. `main` and the tests
/// choose them; nothing in the runtime reaches for a global.
public struct DeviceDependencies {
    /// `adjtimex(2)` without `STA_UNSYNC`: the kernel's clock is kept by NTP (or chrony, or
    /// gpsd). False on a Pi that booted without network.
    public var systemClockSynchronised: () -> Bool
    /// An IANA zone from tzdata.
    public var loadZone: (String) -> Result<ZoneRules, ZoneError>
    /// One log line at a monotonic instant.
    public var log: (Instant, LogLine) -> Void

    public init(
        systemClockSynchronised: @escaping () -> Bool, loadZone: @escaping (String) -> Result<ZoneRules, ZoneError>,
        log: @escaping (Instant, LogLine) -> Void
    ) {
        self.systemClockSynchronised = systemClockSynchronised
        self.loadZone = loadZone
        self.log = log
    }
}

/// What the device has done, for the status line, `simulate`'s report and the benchmarks.
public struct DeviceCounters: Sendable, Equatable {
    /// Calls of `service()`: one per wake-up of the loop.
    public var wakeups = 0
    /// Flushes that reached the glass, and what they cost on the bus.
    public var frames = 0
    public var busTransactions = 0
    public var busPayloadBytes = 0
    public var busBitTimes = 0
    /// The largest flush so far (a full frame is 1,032 bytes on an SSD1306 128×64).
    public var largestFlushPayloadBytes = 0
    /// The last flush.
    public var lastFlushPayloadBytes = 0
    public var lastFlushBitTimes = 0
    public var flushFailures = 0
    public var gestures = 0
    public var commits = 0
    public var fetches = 0
    /// Rewrites of the barograph's file handed to the writer.
    public var historyWrites = 0
    /// The longest `service()` after the first (the start's) on the device's monotonic clock, and
    /// when it ended: a turn that waited on the card, the bus or anything else shows here
    /// (buttons and the panel wait for it).
    public var longestTurn: Duration = .zero
    public var longestTurnAt: Instant?
}

/// The store the device writes through: the file store, or, when it cannot be opened at all,
/// an in-memory one that keeps the device running and says why nothing is saved.
public enum DeviceStore<Files: FileSystem, Clock: DeviceClock> {
    case file(FileStore<Files, Clock>)
    case memory(InMemoryStore, reason: String)

    public var store: any Store {
        switch self {
        case .file(let store): store
        case .memory(let store, _): store
        }
    }

    public var health: StoreHealth {
        switch self {
        case .file(let store): store.health
        case .memory(_, let reason): .readOnly(reason)
        }
    }

    public var nextRetry: Instant? {
        if case .file(let store) = self { return store.nextRetry }
        return nil
    }
}
