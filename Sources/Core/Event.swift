import HAL
import Screens
import Store
import Weather

/// Something that happened, as the runtime reports it to `AppState.reduce`. Each case carries
/// values only: the runtime read the hardware, the logic decides what it means.
public enum Event: Sendable {
    /// The device has started: schedule everything, ask for the zone, draw the first frame.
    case start
    /// After a reload, the place and the screen the board before it showed, so a new board
    /// file does not send the user back to the first entry and the now screen.
    case resume(ShownPlace, Screen)
    /// The device is about to stop (SIGTERM) or be rebuilt (a reload): what waits on a timer
    /// but was the user's request (a removal inside its undo window) is committed now.
    case closing
    /// `AppState.nextDeadline` has passed (the minute, a fetch, the sensor, the orbit…).
    case tick
    /// A debounced button gesture.
    case button(ButtonGesture)
    /// The location service's state or position changed.
    case gps(GPSReport)
    /// The store after a commit, a retry that made pending changes durable, or a change of
    /// health: everything it holds now, including changes kept in memory while degraded.
    case store(StoreState, StoreHealth)
    /// The store refused `change` and kept nothing of it.
    case refused(StoreChange, StoreError)
    /// Changes handed to the card's writer and not yet answered (the card is off the loop:
    /// a setting is shown once the store answers, and the status says "saving…" meanwhile).
    case saving(StoreSaving)
    /// The weather cache read at start, decoded.
    case weatherRestored(WeatherReport, CacheValidators)
    /// The barograph's samples saved by the last run (`Effect.saveBarograph`), read at start.
    case barographRestored(PressureHistory)
    /// A reload's new device takes over the old one's storm alarm (its episode, and whether it
    /// was acknowledged); a changed alarm configuration starts afresh.
    case stormAlarmResumed(StormAlarm)
    /// The outcome of the fetch ordered with `token` (an outcome for an older token is dropped:
    /// the place changed while it was in flight).
    /// `receivedAt`: the monotonic instant the answer arrived (stamped off the loop on the
    /// monotonic clock, turned into civil time by the moment's base).
    case weather(token: UInt64, Result<FetchOutcome, WeatherError>, receivedAt: Instant)
    /// The zone asked for with `Effect.loadZone` is loaded.
    case zone(ZoneRules, ZoneSource)
    /// The zone could not be loaded (no tzdata, an unknown name): the reason, for the log.
    case zoneFailed(String, ZoneSource, reason: String)
    case indoor(IndoorReading)
    /// A 3D fix's height above mean sea level, metres (sent at most once a minute): what the
    /// barograph reduces the sensor's pressure with.
    case altitude(Double)
    case display(DisplayHealth)
    /// The kernel dropped this many more button edges (its event buffer overflowed), counted
    /// from the gaps in its sequence numbers.
    case droppedEdges(Int)
    /// The button of that name toggles faster than any finger (a floating line) and is ignored
    /// (`noisy`), or has been quiet again and works (`LineNoise`).
    case buttonNoise(String, noisy: Bool)
}

/// What the logic asks the runtime to do. Carried out in order, after the event that asked.
public enum Effect: Sendable, Equatable {
    /// One atomic store commit; the runtime answers with `.store` or `.refused`.
    case commit(StoreChange)
    /// Fetch off the loop; the answer comes back as `.weather(token:_:)`.
    case fetchWeather(FetchOrder, token: UInt64)
    /// Write the response of fetch `token` to the disk cache (at most hourly: the repository
    /// decides).
    case saveWeatherCache(token: UInt64)
    /// Write the barograph's history to disk (at most hourly, and at a stop: the logic
    /// decides); the runtime encodes `AppState.barograph` as it is now.
    case saveBarograph
    /// Load an IANA zone from tzdata; the answer is `.zone` or `.zoneFailed`.
    case loadZone(String, ZoneSource)
    /// Take one indoor reading; the answer is `.indoor`.
    case measureIndoor
    /// The panel's night level on or off (contrast and pre-charge together).
    case setDimmed(Bool)
    case log(LogLine)
}

/// One line for the log. Settings changes are their own case so the runtime can write them
/// from static text, keeping a button press free of allocation. `problem` is a part failing
/// or refusing (the daemon logs it as a warning and rate-limits its repeats); `text` is news.
public enum LogLine: Sendable, Equatable {
    case settings(Settings)
    case text(String)
    case problem(String)

    /// The words of the line, without its kind.
    public var words: String {
        switch self {
        case .settings(let settings): "settings: \(settings.summary)"
        case .text(let text), .problem(let text): text
        }
    }
}

/// The card's writer as the status screen tells it: how many changes wait for the card, and
/// whether it has been silent so long that the card, not the loop, is the problem.
public struct StoreSaving: Sendable, Equatable {
    public var waiting: Int
    /// The oldest waiting change was handed over longer ago than a healthy card ever takes.
    public var slow: Bool

    public init(waiting: Int, slow: Bool) {
        self.waiting = waiting
        self.slow = slow
    }

    public static let idle = StoreSaving(waiting: 0, slow: false)
}
