/// Which PCF8574 port bit (P0…P7) drives which HD44780 pin on an I²C backpack.
///
/// NXP PCF8574 §8.2: each byte of a write transaction is put on P7…P0 when it is acknowledged,
/// so a port byte is one state of the LCD's RS, R/W, E, D4–D7 and backlight lines. Backpacks
/// differ, and the wrong map shows nothing at all, so the map is configuration (the names are
/// those of duinoWitchery's hd44780 library). D4–D7 are four consecutive bits from
/// `firstDataBit` on every backpack seen in the wild.
public struct HD44780PinMap: Sendable, Equatable {
    public let registerSelect: Int
    public let readWrite: Int
    public let enable: Int
    /// The backlight transistor's bit, or `nil` for boards without one.
    public let backlight: Int?
    /// Whether a 1 on `backlight` lights it (YwRobot) or a 0 does (LCM1602, mjkdz).
    public let backlightActiveHigh: Bool
    /// The bit of D4; D5–D7 follow.
    public let firstDataBit: Int

    /// A map, or `nil` when a bit is outside P0…P7 or two pins share a bit.
    public init?(
        registerSelect: Int, readWrite: Int, enable: Int, backlight: Int?, backlightActiveHigh: Bool,
        firstDataBit: Int
    ) {
        var used: UInt16 = 0
        for bit in [registerSelect, readWrite, enable, backlight ?? -1] where bit != -1 {
            guard (0...7).contains(bit), used & (1 << bit) == 0 else { return nil }
            used |= 1 << bit
        }
        guard (0...4).contains(firstDataBit), used & (0xF << firstDataBit) == 0 else { return nil }
        self.init(
            unchecked: registerSelect, readWrite, enable, backlight, backlightActiveHigh, firstDataBit)
    }

    private init(unchecked rs: Int, _ rw: Int, _ e: Int, _ bl: Int?, _ activeHigh: Bool, _ data: Int) {
        registerSelect = rs
        readWrite = rw
        enable = e
        backlight = bl
        backlightActiveHigh = activeHigh
        firstDataBit = data
    }

    /// YwRobot, DFRobot, SainSmart, Funduino (the LiquidCrystal_I2C default): RS P0, RW P1,
    /// E P2, backlight P3 active high, D4–D7 on P4–P7.
    public static let ywrobot = HD44780PinMap(unchecked: 0, 1, 2, 3, true, 4)
    /// LCM1602: the YwRobot wiring with the backlight active low.
    public static let lcm1602 = HD44780PinMap(unchecked: 0, 1, 2, 3, false, 4)
    /// mjkdz, GY-I2CLCD: RS P6, RW P5, E P4, D4–D7 on P0–P3, backlight P7 active low.
    public static let mjkdz = HD44780PinMap(unchecked: 6, 5, 4, 7, false, 0)

    /// The port byte for one state: `nibble` on D7…D4, RS for data (`true`) or instruction,
    /// R/W low (write), E as given, the backlight on or off. Unused bits are 0.
    public func port(nibble: UInt8, registerSelect rs: Bool, enable e: Bool, backlight on: Bool) -> UInt8 {
        var byte = (nibble & 0x0F) << UInt8(firstDataBit)
        if rs { byte |= 1 << UInt8(registerSelect) }
        if e { byte |= 1 << UInt8(enable) }
        if let backlight, on == backlightActiveHigh { byte |= 1 << UInt8(backlight) }
        return byte
    }

    /// The E bit of a port byte.
    public var enableMask: UInt8 { 1 << UInt8(enable) }
}

/// A character LCD's size and where its rows live in DDRAM (HD44780U §"Display Data RAM",
/// Figures 4–6): a 2-line controller has 40 cells per line at 0x00–0x27 and 0x40–0x67; a
/// 4-row panel shows lines 1 and 2 as rows 0 and 1 and their continuations as rows 2 and 3.
public struct CharacterLCDGeometry: Sendable, Equatable {
    public let columns: Int
    public let rows: Int

    /// A geometry, or `nil` when the controller cannot drive it (1, 2 or 4 rows, 8–40
    /// columns; with 4 rows two rows share a 40-cell line, so at most 20 columns).
    public init?(columns: Int, rows: Int) {
        guard [1, 2, 4].contains(rows), columns >= 8, columns <= (rows == 4 ? 20 : 40) else { return nil }
        self.columns = columns
        self.rows = rows
    }

    private init(unchecked columns: Int, _ rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public static let lcd16x2 = CharacterLCDGeometry(unchecked: 16, 2)
    public static let lcd20x4 = CharacterLCDGeometry(unchecked: 20, 4)
    public static let lcd20x2 = CharacterLCDGeometry(unchecked: 20, 2)
    public static let lcd16x4 = CharacterLCDGeometry(unchecked: 16, 4)

    /// The DDRAM address of row `row`'s first cell: 0x00, 0x40, then `columns` and
    /// 0x40 + `columns` (0x14 and 0x54 on a 20×4, 0x10 and 0x50 on a 16×4).
    public func rowAddress(_ row: Int) -> UInt8 {
        let line: UInt8 = row % 2 == 0 ? 0x00 : 0x40
        return row < 2 ? line : line + UInt8(columns)
    }

    public func address(column: Int, row: Int) -> UInt8 { rowAddress(row) + UInt8(column) }

    /// Whether the controller runs in 2-line mode (function set N = 1).
    public var twoLineMode: Bool { rows > 1 }
}
