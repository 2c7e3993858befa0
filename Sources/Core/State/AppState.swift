import HAL
import Screens
import Store
import Weather

/// The single source of truth of the device (docs/design/patterns.md, the seed's repository): the
/// settings and places from the store, what is shown, the state of every part, and the
/// `ScreenModel` the screens draw, kept up to date as events arrive.
///
/// Only `reduce` changes it. It holds no references to hardware and reads no clock: every
/// instant comes in a `Moment`, so a test drives a day of the device with values.
public struct AppState {
    public let options: DeviceOptions

    // Store
    /// What the store holds, changes kept in memory while it is degraded included.
    public internal(set) var store: StoreState
    public internal(set) var storeHealth: StoreHealth
    /// Why the store refused the last change, until the next change it accepts.
    public internal(set) var refusal: String?
    /// Changes on their way to the card.
    public internal(set) var saving = StoreSaving.idle
    /// The settings the last button asked for while the card has not answered yet: a second
    /// press during a slow write cycles on from there, not from what the store last said.
    var requestedSettings: Settings?

    // What is shown
    public internal(set) var shown: ShownPlace = .here
    /// A place removed from the list but not yet from the store: a long press of `button`
    /// before `deadline` brings it back; at the deadline the removal is committed.
    public internal(set) var pendingRemoval: PendingRemoval?
    public internal(set) var screen: Screen = .now
    /// The last thing a button could not do ("no GPS fix to save"), for the status screen.
    public internal(set) var notice: String?

    // Parts
    public internal(set) var gps: GPSReport = .starting
    public internal(set) var weather: WeatherRepository<SplitMix64>
    /// The token of the newest fetch ordered; outcomes of older ones are dropped.
    public internal(set) var weatherToken: UInt64 = 0
    public internal(set) var zone: ZoneRules = .utc
    public internal(set) var zoneSource: ZoneSource = .utc
    public internal(set) var clockSource: ClockSource = .none
    public internal(set) var indoor: IndoorReading?
    public internal(set) var display: DisplayHealth = .ok
    /// Button edges the kernel dropped since the status last showed none; back to 0 after a
    /// quiet minute (`AppState.edgeLossShownFor`).
    public internal(set) var droppedEdges = 0
    /// When the last of them was reported.
    public internal(set) var edgesLostAt: Instant?
    /// Buttons whose lines toggle faster than a finger can (`LineNoise`), by name, while they
    /// are ignored.
    public internal(set) var noisyButtons: [String] = []
    public internal(set) var dimmed = false
    /// The indoor sensor's pressure, reduced to sea level every 10 minutes, for 48 hours.
    public internal(set) var barograph = PressureHistory()
    /// What the barograph says about the last three hours.
    public internal(set) var pressureTendency = PressureHistory.Reading.unknown
    public internal(set) var stormAlarm: StormAlarm
    var altitudeTrack = AltitudeTrack()
    /// The sensor's readings since the last barograph sample (their mean is the sample: the
    /// data sheet's weather-monitoring mode takes one reading a minute, BME280 §3.5.1).
    var stationSum = 0.0
    var stationCount = 0
    var nextBarographSample: WallTime?
    /// The newest sample the last `.saveBarograph` wrote (nil: none written by this run).
    var barographSavedThrough: WallTime?
    /// Which position of the burn-in orbit the frame is drawn at.
    public internal(set) var orbitStep = 0

    // What the screens draw
    public internal(set) var model: ScreenModel
    /// Something on the screen changed since the runtime last drew it; the runtime clears it.
    public var frameDirty = true

    // Deadlines (monotonic)
    var nextMinute: Instant?
    /// A zone that could not be loaded (tzdata missing, unreadable at boot), asked for again
    /// at `at`; the delay doubles from 1 min to 1 h.
    var zoneRetry: (name: String, source: ZoneSource, at: Instant, delay: Duration)?
    var zoneRetryDelay: (name: String, delay: Duration)?
    /// The time base of the last event, to see a step of the wall clock or a new source.
    var clockBase: TimeBase?
    var nextOrbit: Instant?
    var nextRotation: Instant?
    var nextSensor: Instant?
    /// The local minute and hour drawn last, so a tick that changes nothing draws nothing.
    var shownMinute = -1
    var shownHour = -1
    var statusKey: StatusKey?
    /// `conditionsRegime` when the weather panel was last built.
    var panelRegime = 0
    /// The zone name asked for last, so a report naming the same zone asks for nothing.
    var requestedZone: String?
    /// The position table's zone for the GPS position, and what the provider said (docs/design/decisions.md#the-zone-table).
    var positionZone = PositionZone()

    public init(options: DeviceOptions, store: StoreState, storeHealth: StoreHealth, seed: UInt64) {
        self.options = options
        self.store = store
        self.storeHealth = storeHealth
        weather = WeatherRepository(random: SplitMix64(seed: seed))
        stormAlarm = StormAlarm(options.stormAlarm)
        model = ScreenModel(
            settings: store.settings, clock: nil, place: Place(name: options.defaultName, source: .boardDefault),
            gps: .noReceiver, weather: WeatherPanel(forecast: nil))
    }
}

/// Which place the screens are about: the virtual first entry (the GPS position, or the
/// board's default location until the first fix), or a saved location by its stable id.
public enum ShownPlace: Sendable, Equatable {
    case here
    case saved(LocationID)
}

public struct PendingRemoval: Sendable, Equatable {
    public var location: SavedLocation
    public var button: Int
    public var deadline: Instant
}
