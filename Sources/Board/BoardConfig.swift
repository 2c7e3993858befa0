import HAL

/// One physical build, as described by a validated board file.
///
/// Immutable configuration only, kept apart from any state that changes at run time (as Zephyr
/// keeps a device's config apart from its driver data): drivers and services are *given* these
/// values and never write back. Every value here has passed `BoardFile.check`, so consumers need
/// no second round of range checks.
public struct BoardConfig: Sendable, Equatable {
    /// The schema this build reads; a file with a higher `"schema"` is refused, not half-read.
    public static let schemaVersion = 1

    /// A short name for the build, shown by `board check` and on the status screen.
    public let name: String
    public let gps: GPSConfig
    public let display: DisplayConfig
    /// 1–4 buttons, in file order; the order decides the default actions (A, B, C, D).
    public let buttons: [ButtonConfig]
    /// Nil when the build has no indoor sensor; the indoor screen is then skipped.
    public let sensor: SensorConfig?
    /// Stands in for the GPS position until the first fix.
    public let defaultLocation: DefaultLocation
    /// An IANA name such as `Europe/Berlin`; nil means "use the weather provider's zone for the
    /// shown location", which follows the device when it travels.
    public let timeZone: String?
    /// Automatic screen rotation and the burn-in orbit; `.standard` when the file says nothing.
    public let screens: ScreenConfig
    /// Where the weather comes from; Open-Meteo when the file says nothing.
    public let weather: WeatherConfig
    /// The storm alarm on the barograph; on at 3.6 hPa in 3 hours when the file says nothing.
    public let barograph: BarographConfig

    public init(
        name: String, gps: GPSConfig, display: DisplayConfig, buttons: [ButtonConfig],
        sensor: SensorConfig?, defaultLocation: DefaultLocation, timeZone: String?,
        screens: ScreenConfig = .standard, weather: WeatherConfig = .standard, barograph: BarographConfig = .standard
    ) {
        self.name = name
        self.gps = gps
        self.display = display
        self.buttons = buttons
        self.sensor = sensor
        self.defaultLocation = defaultLocation
        self.timeZone = timeZone
        self.screens = screens
        self.weather = weather
        self.barograph = barograph
    }

    /// The parts the file replaces by their simulated twins (`"simulated": true`), in file
    /// order: what `board check` and the daemon's log say.
    public var simulatedParts: [String] {
        var parts: [String] = []
        if gps.simulated { parts.append("gps") }
        if display.simulated { parts.append("display") }
        let twins = buttons.filter(\.simulated).count
        if twins == buttons.count { parts.append("buttons") } else if twins > 0 { parts.append("\(twins) of \(buttons.count) buttons") }
        if sensor?.simulated == true { parts.append("sensor") }
        if weather.simulated { parts.append("weather") }
        return parts
    }
}

/// The GPS receiver's serial port.
public struct GPSConfig: Sendable, Equatable {
    /// A tty path: `/dev/serial0` (the Pi's header UART), `/dev/ttyACM0`, `/dev/serial/by-id/…`.
    public let device: String
    public let baud: GPSBaud
    /// The twin stands in: a receiver that drives out of the default location (`"simulated"`).
    public let simulated: Bool

    public init(device: String, baud: GPSBaud, simulated: Bool = false) {
        self.device = device
        self.baud = baud
        self.simulated = simulated
    }

    /// What the device attaches the receiver at and every GPS status and log line names: the
    /// tty, or for the twin `simulatedReceiver`, so that no line points at a `/dev` path that
    /// nothing reads (a simulated GPS was once reported as /dev/serial0).
    public var receiver: String { simulated ? Self.simulatedReceiver : device }

    public static let simulatedReceiver = "the simulated receiver"
}

/// A fixed rate, or `auto`: the location service tries each rate until NMEA sentences with
/// valid checksums arrive (the cure for "GPS silent" when a module was reconfigured).
public enum GPSBaud: Sendable, Equatable, CustomStringConvertible {
    case fixed(BaudRate)
    case auto

    public var description: String {
        switch self {
        case .fixed(let rate): return String(rate.rawValue)
        case .auto: return "auto"
        }
    }
}

/// The optional indoor sensor.
public struct SensorConfig: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Temperature, humidity and pressure (chip id 0x60).
        case bme280
        /// Temperature and pressure only (chip id 0x56–0x58).
        case bmp280
    }

    public let kind: Kind
    public let bus: I2CBusPath
    /// 0x76 (SDO to GND) or 0x77 (SDO to VDDIO).
    public let address: I2CAddress
    /// Added to every temperature reading, in °C, within ±10: a sensor near the Pi's SoC reads
    /// warm, and this is the honest place to say by how much.
    public let temperatureOffset: Double
    /// The data-sheet model stands in for the chip (`"simulated"`).
    public let simulated: Bool

    public init(kind: Kind, bus: I2CBusPath, address: I2CAddress, temperatureOffset: Double, simulated: Bool = false) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.temperatureOffset = temperatureOffset
        self.simulated = simulated
    }
}

/// The place shown before the first GPS fix (after one, the last known position stays).
public struct DefaultLocation: Sendable, Equatable {
    /// At most 32 characters: room for nearly every place name, while a 128-pixel line or a
    /// 20-column LCD row still shows a recognisable start of it.
    public let name: String
    public let coordinate: Coordinate

    public init(name: String, coordinate: Coordinate) {
        self.name = name
        self.coordinate = coordinate
    }

    /// Degrees, −90…90, north positive.
    public var latitude: Double { coordinate.latitude }
    /// Degrees, −180…180, east positive.
    public var longitude: Double { coordinate.longitude }
}
