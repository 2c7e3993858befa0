/// How an I²C backpack wires its PCF8574's port bits P7…P0 to an HD44780's pins, as data
/// (docs/design/parts.md#the-character-lcd, "Pin maps"; duinoWitchery hd44780
/// `hd44780_I2Cexp.h`). Only D7…D4 are wired: the LCD runs its 4-bit interface.
public struct BackpackWiring: Sendable, Equatable {
    /// Port bit numbers (0…7).
    public var registerSelect: Int
    public var readWrite: Int
    public var enable: Int
    /// The bits carrying D4, D5, D6, D7, in that order.
    public var data: [Int]
    /// The bit switching the backlight transistor, if the board has one.
    public var backlight: Int?
    /// Whether a 1 on `backlight` lights it (YwRobot) or a 0 does (LCM1602, mjkdz).
    public var backlightActiveHigh: Bool

    public init(
        registerSelect: Int, readWrite: Int, enable: Int, data: [Int], backlight: Int?, backlightActiveHigh: Bool
    ) {
        precondition(data.count == 4, "D4…D7")
        let bits = [registerSelect, readWrite, enable] + data + (backlight.map { [$0] } ?? [])
        precondition(bits.allSatisfy { (0...7).contains($0) } && Set(bits).count == bits.count, "distinct port bits 0…7")
        self.registerSelect = registerSelect
        self.readWrite = readWrite
        self.enable = enable
        self.data = data
        self.backlight = backlight
        self.backlightActiveHigh = backlightActiveHigh
    }

    /// YwRobot / DFRobot / SainSmart / Funduino (the LiquidCrystal_I2C default, most boards):
    /// RS P0, RW P1, E P2, backlight P3 active high, D4–D7 on P4–P7.
    public static let ywRobot = BackpackWiring(
        registerSelect: 0, readWrite: 1, enable: 2, data: [4, 5, 6, 7], backlight: 3, backlightActiveHigh: true)
    /// LCM1602 (Robot Arduino): the YwRobot map with the backlight active low.
    public static let lcm1602 = BackpackWiring(
        registerSelect: 0, readWrite: 1, enable: 2, data: [4, 5, 6, 7], backlight: 3, backlightActiveHigh: false)
    /// mjkdz / GY-I2CLCD: RS P6, RW P5, E P4, D4–D7 on P0–P3, backlight P7 active low.
    public static let mjkdz = BackpackWiring(
        registerSelect: 6, readWrite: 5, enable: 4, data: [0, 1, 2, 3], backlight: 7, backlightActiveHigh: false)

    /// The LCD-side meaning of one port state.
    public struct PortState: Sendable, Equatable {
        public var registerSelect: Bool
        public var read: Bool
        public var enable: Bool
        /// D7…D4 as a value 0…15.
        public var nibble: UInt8
        public var backlightOn: Bool
    }

    public func decode(_ port: UInt8) -> PortState {
        func bit(_ n: Int) -> Bool { port & (1 << UInt8(n)) != 0 }
        var nibble: UInt8 = 0
        for (i, n) in data.enumerated() where bit(n) { nibble |= 1 << UInt8(i) }
        let light = backlight.map { bit($0) == backlightActiveHigh } ?? true
        return PortState(
            registerSelect: bit(registerSelect), read: bit(readWrite), enable: bit(enable), nibble: nibble,
            backlightOn: light)
    }

    /// The port byte that puts these levels on the LCD's pins (for tests and drivers).
    public func encode(
        nibble: UInt8, registerSelect: Bool = false, read: Bool = false, enable: Bool = false, backlightOn: Bool = true
    ) -> UInt8 {
        var port: UInt8 = 0
        for (i, n) in data.enumerated() where nibble & (1 << UInt8(i)) != 0 { port |= 1 << UInt8(n) }
        if registerSelect { port |= 1 << UInt8(self.registerSelect) }
        if read { port |= 1 << UInt8(readWrite) }
        if enable { port |= 1 << UInt8(self.enable) }
        if let backlight, backlightOn == backlightActiveHigh { port |= 1 << UInt8(backlight) }
        return port
    }

    /// The two port states of one nibble transfer: E high with the data, then E low with the
    /// same data (the LCD latches on E's falling edge).
    public func pulse(nibble: UInt8, registerSelect: Bool = false, backlightOn: Bool = true) -> [UInt8] {
        [
            encode(nibble: nibble, registerSelect: registerSelect, enable: true, backlightOn: backlightOn),
            encode(nibble: nibble, registerSelect: registerSelect, enable: false, backlightOn: backlightOn),
        ]
    }

    /// The four port states of one byte in 4-bit mode: high nibble, then low nibble.
    public func pulses(byte: UInt8, registerSelect: Bool = false, backlightOn: Bool = true) -> [UInt8] {
        pulse(nibble: byte >> 4, registerSelect: registerSelect, backlightOn: backlightOn)
            + pulse(nibble: byte & 0x0F, registerSelect: registerSelect, backlightOn: backlightOn)
    }
}
