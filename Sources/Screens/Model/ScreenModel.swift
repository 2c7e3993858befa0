import Graphics
import HAL
import Store

/// The screens of the device (docs/design/architecture.md#the-model), in the order the "next screen" button cycles.
public enum Screen: String, Sendable, CaseIterable {
    case now, hours, days, indoor, barograph, status
}

/// Everything the screens show, already decided: which place, which values, which marks. The
/// app derives it from its state; the renderers only lay it out, so every screen can be drawn
/// from a value in a test, and a frame is a pure function of this model.
///
/// Values are in SI units (°C, m/s, mm, hPa); the renderers convert them with `settings`.
public struct ScreenModel: Sendable, Equatable {
    public var settings: Settings
    /// Local time of day on the device.
    public var clock: ClockTime?
    public var place: Place
    public var gps: GPSMark
    public var weather: WeatherPanel
    /// The "next two hours" line of the now screen, nil when there is nothing honest to say.
    /// Kept apart from `weather` (rebuilt only when the forecast or the hour changes) because
    /// it moves on every minute ("Rain in 20 min"), and it is a fixed value that costs no heap.
    public var outlook: OutlookLine?
    public var indoor: IndoorPanel
    /// Lines of the status screen, most important first (GPS, network, store, display…).
    public var statusLines: [StatusLine]
    /// The barograph screen, the tendency arrow beside every pressure, and the storm banner.
    public var barograph: BarographPanel

    public init(
        settings: Settings = .defaults, clock: ClockTime?, place: Place, gps: GPSMark,
        weather: WeatherPanel, outlook: OutlookLine? = nil, indoor: IndoorPanel = .absent, statusLines: [StatusLine] = [],
        barograph: BarographPanel = .empty
    ) {
        self.settings = settings
        self.clock = clock
        self.place = place
        self.gps = gps
        self.weather = weather
        self.outlook = outlook
        self.indoor = indoor
        self.statusLines = statusLines
        self.barograph = barograph
    }
}

extension ScreenModel {
    /// Calls `body` with the row and the line for at most `limit` status lines: the problems
    /// first, then the rest, each in the model's order, so a small panel shows what is wrong.
    /// Two passes over the lines instead of a sorted copy: nothing is allocated per frame.
    public func forEachStatusLine(limit: Int, _ body: (Int, StatusLine) -> Void) {
        var row = 0
        for pass in 0..<2 {
            for line in statusLines where line.isProblem == (pass == 0) {
                guard row < limit else { return }
                body(row, line)
                row += 1
            }
        }
    }
}

/// A time of day, 0:00–23:59.
public struct ClockTime: Sendable, Equatable, Hashable {
    public var hour: Int
    public var minute: Int
    /// Read from a clock no one vouches for (no NTP, no GPS time yet): drawn with a `?`.
    public var unsure: Bool

    public init(hour: Int, minute: Int, unsure: Bool = false) {
        precondition((0..<24).contains(hour) && (0..<60).contains(minute), "a time of day")
        self.hour = hour
        self.minute = minute
        self.unsure = unsure
    }
}

/// The place the weather is for, and where it came from.
public struct Place: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// The GPS position (named after the nearest place the weather service knows).
        case gps
        /// A saved location, the `index`th of `count`.
        case saved(index: Int, count: Int)
        /// The board's default location, shown until the first fix.
        case boardDefault
    }

    public var name: String
    public var source: Source

    public init(name: String, source: Source) {
        self.name = name
        self.source = source
    }
}

/// What the now screen says about the GPS.
public enum GPSMark: Sendable, Equatable {
    case fix
    /// A receiver talks but has no fix yet; `satellites` in view when known.
    case noFix(satellites: Int?)
    /// No receiver, no data or no valid sentences: the status screen says which.
    case noReceiver
    /// The last fix is older than the receiver's cycle allows.
    case stale
}

/// The weather part of the screens: a loading state that keeps the last good value.
public struct WeatherPanel: Sendable, Equatable {
    public enum Freshness: Sendable, Equatable {
        case fresh
        /// The last fetch failed or is overdue: the values are `minutes` old.
        case stale(minutes: Int)
        /// Stamped by a clock ahead of the one shown now: how old is not known.
        case ageUnknown
    }

    /// The last good forecast, if there ever was one.
    public var forecast: Forecast?
    public var freshness: Freshness
    /// Why the last fetch failed, in a few words ("timed out", "no network"), if it did.
    public var problem: String?

    public init(forecast: Forecast?, freshness: Freshness = .fresh, problem: String? = nil) {
        self.forecast = forecast
        self.freshness = freshness
        self.problem = problem
    }
}

public struct Forecast: Sendable, Equatable {
    public var current: Conditions
    /// The next hours, first one the coming full hour; the screens show up to four.
    public var hours: [HourForecast]
    /// Today first; the screens show up to three days.
    public var days: [DayForecast]
    public var sunrise: ClockTime?
    public var sunset: ClockTime?

    public init(
        current: Conditions, hours: [HourForecast], days: [DayForecast], sunrise: ClockTime?, sunset: ClockTime?
    ) {
        self.current = current
        self.hours = hours
        self.days = days
        self.sunrise = sunrise
        self.sunset = sunset
    }
}

/// The conditions now. A value the service did not send, or one too old to show (realtime
/// fields are blanked 3 hours after the fetch), is nil and drawn as "--".
public struct Conditions: Sendable, Equatable {
    public var temperature: Double?
    public var icon: ConditionGroup?
    public var isNight: Bool
    /// Relative humidity, percent.
    public var humidity: Int?
    /// Wind speed in m/s and the direction it blows from, degrees clockwise from north.
    public var windSpeed: Double?
    public var windDirection: Int?

    public init(temperature: Double?, icon: ConditionGroup?, isNight: Bool, humidity: Int?, windSpeed: Double?, windDirection: Int?) {
        self.temperature = temperature
        self.icon = icon
        self.isNight = isNight
        self.humidity = humidity
        self.windSpeed = windSpeed
        self.windDirection = windDirection
    }
}

public struct HourForecast: Sendable, Equatable {
    public var time: ClockTime
    public var temperature: Double?
    public var icon: ConditionGroup
    public var isNight: Bool
    /// Probability of precipitation, percent (MET Norway's compact forecast has none).
    public var precipitationChance: Int?

    public init(time: ClockTime, temperature: Double?, icon: ConditionGroup, isNight: Bool, precipitationChance: Int?) {
        self.time = time
        self.temperature = temperature
        self.icon = icon
        self.isNight = isNight
        self.precipitationChance = precipitationChance
    }
}

public struct DayForecast: Sendable, Equatable {
    /// Short day name as the screens show it ("Today", "Tue").
    public var label: String
    public var icon: ConditionGroup
    public var low: Double?
    public var high: Double?
    /// Precipitation sum in mm.
    public var precipitation: Double?
    /// The Moon of the day at the place.
    public var moon: MoonMark?

    public init(label: String, icon: ConditionGroup, low: Double?, high: Double?, precipitation: Double?, moon: MoonMark? = nil) {
        self.label = label
        self.icon = icon
        self.low = low
        self.high = high
        self.precipitation = precipitation
        self.moon = moon
    }
}

/// The optional indoor sensor.
public enum IndoorPanel: Sendable, Equatable {
    /// No sensor configured.
    case absent
    /// Configured but not answering; `problem` in a few words.
    case offline(problem: String)
    /// Temperature °C, relative humidity % (nil on a BMP280), pressure hPa.
    case reading(temperature: Double, humidity: Double?, pressure: Double)
}

/// One line of the status screen: a short label and what is wrong or right.
public struct StatusLine: Sendable, Equatable {
    public var label: String
    public var text: String
    public var isProblem: Bool

    public init(_ label: String, _ text: String, isProblem: Bool = false) {
        self.label = label
        self.text = text
        self.isProblem = isProblem
    }
}
