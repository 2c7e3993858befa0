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

    public init(
        name: String, gps: GPSConfig, display: DisplayConfig, buttons: [ButtonConfig],
        sensor: SensorConfig?, defaultLocation: DefaultLocation, timeZone: String?,
        screens: ScreenConfig = .standard
    ) {
        self.name = name
        self.gps = gps
        self.display = display
        self.buttons = buttons
        self.sensor = sensor
        self.defaultLocation = defaultLocation
        self.timeZone = timeZone
        self.screens = screens
    }
}

/// The GPS receiver's serial port.
public struct GPSConfig: Sendable, Equatable {
    /// A tty path: `/dev/serial0` (the Pi's header UART), `/dev/ttyACM0`, `/dev/serial/by-id/…`.
    public let device: String
    public let baud: GPSBaud

    public init(device: String, baud: GPSBaud) {
        self.device = device
        self.baud = baud
    }
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

    public init(kind: Kind, bus: I2CBusPath, address: I2CAddress, temperatureOffset: Double) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.temperatureOffset = temperatureOffset
    }
}

/// The place shown before the first GPS fix (after one, the last known position stays).
public struct DefaultLocation: Sendable, Equatable {
    /// At most 32 characters: room for nearly every place name, while a 128-pixel line or a
    /// 20-column LCD row still shows a recognisable start of it.
    public let name: String
    /// Degrees, −90…90, north positive.
    public let latitude: Double
    /// Degrees, −180…180, east positive.
    public let longitude: Double

    public init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}
