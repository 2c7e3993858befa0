import Drivers

/// The display: which controller, how big, where on the bus, and the panel quirks the driver
/// must know before it sends the first byte.
public struct DisplayConfig: Sendable, Equatable {
    /// The controller with its kind-specific options, so an SSD1306 cannot carry a backpack map
    /// and an HD44780 cannot carry a column offset.
    public enum Controller: Sendable, Equatable {
        case ssd1306(OLEDOptions)
        case sh1106(OLEDOptions)
        case hd44780(BackpackMap)
    }

    public let controller: Controller
    public let geometry: DisplayGeometry
    public let bus: I2CBusPath
    public let address: I2CAddress
    /// The controller's model stands in for the panel (`"simulated"`).
    public let simulated: Bool
    /// What the panel shows once the daemon has stopped (`"onStop"`).
    public let onStop: DisplayStop

    public init(
        controller: Controller, geometry: DisplayGeometry, bus: I2CBusPath, address: I2CAddress, simulated: Bool = false,
        onStop: DisplayStop? = nil
    ) {
        self.controller = controller
        self.geometry = geometry
        self.bus = bus
        self.address = address
        self.simulated = simulated
        if case .hd44780 = controller { self.onStop = onStop ?? .message } else { self.onStop = onStop ?? .off }
    }

    public var kind: DisplayKind {
        switch controller {
        case .ssd1306: return .ssd1306
        case .sh1106: return .sh1106
        case .hd44780: return .hd44780
        }
    }

    /// `SSD1306 128x64 at 0x3C on /dev/i2c-1`, for `board check` and the status screen.
    public var summary: String {
        var text = "\(kind.rawValue.uppercased()) \(geometry.rawValue) at \(address) on \(bus)"
        switch controller {
        case .sh1106(let options): text += ", column offset \(options.columnOffset)"
        case .hd44780(let backpack): text += ", \(backpack.rawValue) backpack"
        case .ssd1306: break
        }
        return text
    }
}

public enum DisplayKind: String, Sendable, CaseIterable {
    /// 0.96″ OLED modules (and most 128×32 ones).
    case ssd1306
    /// 1.3″ OLED modules, often sold as SSD1306: 132-column RAM, page addressing only.
    case sh1106
    /// Character LCD behind a PCF8574 I²C backpack.
    case hd44780

    /// The geometries this controller comes in; the first is the default.
    public var geometries: [DisplayGeometry] {
        switch self {
        case .ssd1306: return [.oled128x64, .oled128x32]
        case .sh1106: return [.oled128x64]
        case .hd44780: return [.lcd16x2, .lcd20x4]
        }
    }

    /// Where a module of this kind usually answers: OLEDs at 0x3C (SA0 low), PCF8574
    /// backpacks at 0x27 (all straps open; PCF8574A boards answer at 0x3F).
    public var defaultAddress: UInt8 {
        self == .hd44780 ? 0x27 : 0x3C
    }

    /// Addresses the module can be strapped to, used only to catch `27` written for `"0x27"`.
    var strappableAddresses: ClosedRange<UInt8>? {
        switch self {
        case .ssd1306, .sh1106: return 0x3C...0x3D
        case .hd44780: return nil
        }
    }

    public var isOLED: Bool { self != .hd44780 }
}

/// Panel size: pixels for OLEDs, columns × rows for character LCDs.
public enum DisplayGeometry: String, Sendable, CaseIterable {
    case oled128x64 = "128x64"
    case oled128x32 = "128x32"
    case lcd16x2 = "16x2"
    case lcd20x4 = "20x4"

    public var width: Int {
        switch self {
        case .oled128x64, .oled128x32: return 128
        case .lcd16x2: return 16
        case .lcd20x4: return 20
        }
    }

    public var height: Int {
        switch self {
        case .oled128x64: return 64
        case .oled128x32: return 32
        case .lcd16x2: return 2
        case .lcd20x4: return 4
        }
    }

    /// The SSD1306/SH1106 COM pins setting (command 0xDA): alternative for 64 rows, sequential
    /// for 32. The wrong one shows every other line, the usual 128×32 complaint.
    public var comPins: UInt8? {
        switch self {
        case .oled128x64: return 0x12
        case .oled128x32: return 0x02
        case .lcd16x2, .lcd20x4: return nil
        }
    }
}

/// OLED panel options.
public struct OLEDOptions: Sendable, Equatable {
    /// SH1106 only: the first visible RAM column, 2 on most 1.3″ boards and 0 on some; an
    /// SSD1306 always has 0. A 2-pixel shift with a stripe of noise means this is wrong.
    public let columnOffset: Int
    public let rotation: Rotation
    /// True for the rare modules with a separate panel supply; internal-VCC modules (nearly all)
    /// stay dark unless the driver turns the charge pump on, so false is the default.
    public let externalVCC: Bool

    public init(columnOffset: Int, rotation: Rotation, externalVCC: Bool) {
        self.columnOffset = columnOffset
        self.rotation = rotation
        self.externalVCC = externalVCC
    }
}

/// Rotation is done by the controller (segment remap and COM scan direction), so only 0 and
/// 180 degrees exist; 90 would need a portrait layout the screens do not have.
public typealias Rotation = OLEDProfile.Rotation

/// Which PCF8574 bit drives which LCD pin. Backpacks differ, and the wrong map shows nothing
/// at all, so the map is named in the board file rather than guessed.
public enum BackpackMap: String, Sendable, CaseIterable {
    /// YwRobot, DFRobot, SainSmart, Funduino: the LiquidCrystal_I2C default, most eBay boards.
    case ywrobot
    /// LCM1602: the YwRobot wiring with the backlight active low.
    case lcm1602
    /// mjkdz and GY-I2CLCD boards.
    case mjkdz

    public var pins: HD44780PinMap {
        switch self {
        case .ywrobot: return .ywrobot
        case .lcm1602: return .lcm1602
        case .mjkdz: return .mjkdz
        }
    }
}

/// What the panel shows after the daemon stops. An OLED is switched off by default: a frame
/// left lit for days burns in. A character LCD shows "stopped" by default: it does not burn in,
/// and a blank LCD looks like a dead one.
public enum DisplayStop: String, Sendable, CaseIterable {
    /// The display-off command (an OLED), or cleared with the backlight off (an LCD).
    case off
    /// One last frame that says "stopped".
    case message
}
