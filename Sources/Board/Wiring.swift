import HAL

// How the parts attach to the board: buttons on GPIO lines, devices at I²C addresses.

/// One push button on one GPIO line.
public struct ButtonConfig: Sendable, Equatable {
    /// A short label (`A`, `left`) used in logs and by `hal` diagnostics.
    public let name: String
    /// The gpiochip's label (`pinctrl-bcm2711`, `pinctrl-rp1`); nil means "find the line by
    /// name on any chip". Never a chip number: numbers change between kernels on a Pi 5.
    public let chip: String?
    public let line: LineReference
    /// True when pressing pulls the line low (a button to GND with a pull-up, the usual wiring).
    public let activeLow: Bool
    public let bias: Bias
    public let press: ButtonAction
    public let longPress: ButtonAction
    /// How long the line must rest at a new level before the change counts (`"debounceMs"`);
    /// zero for a line that is debounced already (by the kernel or an RC filter). The runtime
    /// hands this and `longPressDuration` to Core's `ButtonTiming`; Board does not depend on Core.
    public let debounce: Duration
    /// How long a hold lasts before it is a long press (`"longPressMs"`). Not `longPress`:
    /// that name is the action.
    public let longPressDuration: Duration
    /// A twin stands in for the switch (`"simulated"`): `simulate`'s keys, or standard input
    /// under `run`, press it.
    public let simulated: Bool

    /// 20 ms, inside the 10–30 ms that debouncers in use span (Linux `gpio-keys` defaults to
    /// 5 ms, Zephyr's to 30 ms; docs/design/parts.md#buttons).
    public static let defaultDebounce = Duration.milliseconds(20)
    /// 800 ms: a firm short press stays short, a deliberate hold needs no patience.
    public static let defaultLongPressDuration = Duration.milliseconds(800)

    public init(
        name: String, chip: String?, line: LineReference, activeLow: Bool, bias: Bias,
        press: ButtonAction, longPress: ButtonAction,
        debounce: Duration = ButtonConfig.defaultDebounce,
        longPressDuration: Duration = ButtonConfig.defaultLongPressDuration, simulated: Bool = false
    ) {
        self.name = name
        self.chip = chip
        self.line = line
        self.activeLow = activeLow
        self.bias = bias
        self.press = press
        self.longPress = longPress
        self.debounce = debounce
        self.longPressDuration = longPressDuration
        self.simulated = simulated
    }

    /// Actions for the button at `index` when the file gives none (docs/design/architecture.md#the-model):
    /// A = temperature unit / next location, B = units / save position, C = time notation /
    /// next screen; a fourth button does nothing until told.
    public static func defaultActions(forIndex index: Int) -> (press: ButtonAction, longPress: ButtonAction) {
        switch index {
        case 0: return (.cycleTemperatureUnit, .nextLocation)
        case 1: return (.cycleUnits, .savePosition)
        case 2: return (.cycleTimeNotation, .nextScreen)
        default: return (.none, .none)
        }
    }
}

/// How a line is found on its chip.
public enum LineReference: Sendable, Hashable, CustomStringConvertible {
    /// The line name from the device tree (`GPIO17`); stable across kernels and Pi models.
    case name(String)
    /// The offset within the chip; meaningful only together with a chip label.
    case offset(Int)
    /// No line: a simulated button that the file gave none.
    case simulated

    public var description: String {
        switch self {
        case .name(let name): return name
        case .offset(let offset): return "offset \(offset)"
        case .simulated: return "no line (simulated)"
        }
    }
}

/// What a button does. The raw values are the spellings used in the board file.
public enum ButtonAction: String, Sendable, CaseIterable {
    case cycleTemperatureUnit = "cycle-temperature-unit"
    case cycleUnits = "cycle-units"
    case cycleTimeNotation = "cycle-time-notation"
    /// Brightness policy: automatic (dim from sunset to sunrise) → always bright → always dim.
    case cycleBrightness = "cycle-brightness"
    case nextScreen = "next-screen"
    case nextLocation = "next-location"
    case savePosition = "save-position"
    case removeLocation = "remove-location"
    case none = "none"
}

/// A 7-bit I²C address, 0x08…0x77 (the rest are reserved by the I²C specification).
public struct I2CAddress: Sendable, Hashable, CustomStringConvertible {
    public static let usable: ClosedRange<UInt8> = 0x08...0x77

    public let value: UInt8

    /// Nil outside 0x08…0x77.
    public init?(_ value: UInt8) {
        guard Self.usable.contains(value) else { return nil }
        self.value = value
    }

    /// `0x3C`, the way i2cdetect and data sheets write it.
    public var description: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}

/// An I²C adapter, `/dev/i2c-N`. On a Pi the header pins 3 and 5 are bus 1.
public struct I2CBusPath: Sendable, Hashable, CustomStringConvertible {
    public let number: Int

    public init(number: Int) { self.number = number }

    public var path: String { "/dev/i2c-\(number)" }
    public var description: String { path }
}

extension I2CAddress {
    /// For defaults that are known to be in range; inputs go through the failable initializer.
    init(known value: UInt8) { self.value = min(max(value, Self.usable.lowerBound), Self.usable.upperBound) }

    /// `0x1B` for any small integer, for messages about addresses that failed to validate.
    static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }
}
