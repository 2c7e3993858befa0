import Board
import HAL
import Weather

/// What the device's logic needs to know about the build it runs on, taken from the board file
/// once at start (and again on a reload): immutable, like the board file itself.
public struct DeviceOptions: Sendable, Equatable {
    public struct Buttons: Sendable, Equatable {
        public var press: ButtonAction
        public var longPress: ButtonAction
        public init(press: ButtonAction, longPress: ButtonAction) {
            self.press = press
            self.longPress = longPress
        }
    }

    public var defaultName: String
    public var defaultPosition: Coordinate
    /// Each button's short and long press, in board-file order (A, B, C, D).
    public var buttons: [Buttons]
    public var hasSensor: Bool
    /// The display's and the sensor's bus (`/dev/i2c-1`), named when the adapter is gone.
    public var displayBus: String?
    public var sensorBus: String?
    /// The board's time zone (`timeZone`), used until a weather answer names the place's zone.
    public var boardZone: String?
    /// Automatic screen rotation; nil keeps the screen a person chose.
    public var rotateEvery: Duration?
    /// Move the frame a few pixels every `orbitEvery` against OLED burn-in (never on an LCD).
    public var orbit: Bool
    public var orbitEvery: Duration = .seconds(180)
    /// How often the indoor sensor is read.
    public var sensorEvery: Duration = .seconds(60)
    /// How long a removed place can be brought back with a long press of the same button.
    public var undoWindow: Duration = .seconds(5)
    public var provider: WeatherProvider = .openMeteo
    /// The storm alarm on the barograph's three-hour fall (`StormAlarm`).
    public var stormAlarm = StormAlarm.Configuration()
    /// The board file's height of the sensor, m: the barograph's altitude when no GPS fix
    /// gives one.
    public var sensorAltitude: Double?

    public init(
        defaultName: String, defaultPosition: Coordinate, buttons: [Buttons], hasSensor: Bool, boardZone: String?,
        rotateEvery: Duration? = nil, orbit: Bool = true
    ) {
        self.defaultName = defaultName
        self.defaultPosition = defaultPosition
        self.buttons = buttons
        self.hasSensor = hasSensor
        self.boardZone = boardZone
        self.rotateEvery = rotateEvery
        self.orbit = orbit
    }
}

extension DeviceOptions {
    /// The options of a validated board file. An OLED gets the orbit unless the board turns it
    /// off; a character LCD has no burn-in to fight and a cell grid that cannot move by a pixel.
    public init(board: BoardConfig) {
        self.init(
            defaultName: board.defaultLocation.name,
            defaultPosition: board.defaultLocation.coordinate,
            buttons: board.buttons.map { Buttons(press: $0.press, longPress: $0.longPress) },
            hasSensor: board.sensor != nil, boardZone: board.timeZone, rotateEvery: board.screens.rotateEvery,
            orbit: board.screens.orbit && board.display.kind.isOLED)
        displayBus = board.display.bus.path
        sensorBus = board.sensor?.bus.path
        stormAlarm = StormAlarm.Configuration(enabled: board.barograph.alarm, fall: board.barograph.alarmFall)
        sensorAltitude = board.barograph.altitude
    }
}
