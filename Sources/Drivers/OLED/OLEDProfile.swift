/// One OLED module as data: which controller, how big, how its panel is wired to the
/// controller's RAM, and the values its initialisation needs (the rust `ssd1306` crate's
/// `size.rs`, widened with the quirks of docs/design/parts.md#the-display).
///
/// The three static profiles cover the modules of docs/design/architecture.md#the-reference-device; customise a copy for other
/// boards (`var p = OLEDProfile.sh1106_128x64; p.columnOffset = 0`). `problem` says what is
/// inconsistent before a driver is built with it.
public struct OLEDProfile: Sendable, Equatable {
    public enum Controller: Sendable, Equatable, CaseIterable {
        /// 128-column RAM, horizontal addressing with windows (SSD1306 Rev 1.1).
        case ssd1306
        /// 132-column RAM, page addressing only (SH1106 V2.3).
        case sh1106
    }

    /// Rotation done by the controller: segment remap and COM scan direction. "Normal" is the
    /// A1h + C8h that every library calls upright; 180° is A0h + C0h.
    public enum Rotation: Int, Sendable, Equatable, CaseIterable {
        case normal = 0
        case upsideDown = 180
    }

    /// Display brightness policy: the day level and the night (dimmed) level.
    public enum Brightness: Sendable, Equatable, CaseIterable {
        case normal
        case dim
    }

    /// A brightness level: contrast (81h) and pre-charge period (D9h). A shorter pre-charge
    /// dims further than contrast alone can, which is what night dimming needs.
    public struct Level: Sendable, Equatable {
        public var contrast: UInt8
        public var precharge: UInt8

        public init(contrast: UInt8, precharge: UInt8) {
            self.contrast = contrast
            self.precharge = precharge
        }
    }

    public var controller: Controller
    /// Visible pixels.
    public var width: Int
    public var height: Int
    /// Columns of display RAM: 128 on the SSD1306, 132 on the SH1106.
    public var ramColumns: Int
    /// The RAM column shown at the panel's left edge when upright: 0 on SSD1306 128-wide
    /// modules, 2 on most SH1106 modules (some need 0).
    public var columnOffset: Int
    /// COM pins configuration (DAh): 0x12 for 64 rows, 0x02 for most 128×32 (some need 0x22).
    public var comPins: UInt8
    /// 7-bit I²C address: 0x3C (SA0 low) or 0x3D.
    public var address: UInt8
    public var rotation: Rotation
    /// A separate panel supply: charge pump (SSD1306 8Dh) or DC-DC (SH1106 ADh) off.
    public var externalVCC: Bool
    public var normal: Level
    public var dim: Level
    /// D5h: oscillator frequency and divide ratio.
    public var clockDivide: UInt8
    /// DBh: V_COMH deselect level.
    public var vcomh: UInt8

    public init(
        controller: Controller, width: Int, height: Int, ramColumns: Int, columnOffset: Int,
        comPins: UInt8, address: UInt8 = 0x3C, rotation: Rotation = .normal, externalVCC: Bool = false,
        normal: Level, dim: Level, clockDivide: UInt8 = 0x80, vcomh: UInt8
    ) {
        self.controller = controller
        self.width = width
        self.height = height
        self.ramColumns = ramColumns
        self.columnOffset = columnOffset
        self.comPins = comPins
        self.address = address
        self.rotation = rotation
        self.externalVCC = externalVCC
        self.normal = normal
        self.dim = dim
        self.clockDivide = clockDivide
        self.vcomh = vcomh
    }

    /// 0.96″ modules: `AE D5 80 A8 3F D3 00 40 8D 14 20 00 A1 C8 DA 12 81 CF D9 F1 DB 40 A4 A6 2E`.
    public static let ssd1306_128x64 = OLEDProfile(
        controller: .ssd1306, width: 128, height: 64, ramColumns: 128, columnOffset: 0, comPins: 0x12,
        normal: Level(contrast: 0xCF, precharge: 0xF1), dim: Level(contrast: 0x01, precharge: 0x11), vcomh: 0x40)

    /// 0.91″ modules: as 128×64 with `A8 1F`, `DA 02`, `81 8F`.
    public static let ssd1306_128x32 = OLEDProfile(
        controller: .ssd1306, width: 128, height: 32, ramColumns: 128, columnOffset: 0, comPins: 0x02,
        normal: Level(contrast: 0x8F, precharge: 0xF1), dim: Level(contrast: 0x01, precharge: 0x11), vcomh: 0x40)

    /// 1.3″ modules: `AE D5 80 A8 3F D3 00 40 AD 8B A1 C8 DA 12 81 80 D9 22 DB 35 A4 A6`, panel on
    /// RAM columns 2…129.
    public static let sh1106_128x64 = OLEDProfile(
        controller: .sh1106, width: 128, height: 64, ramColumns: 132, columnOffset: 2, comPins: 0x12,
        normal: Level(contrast: 0x80, precharge: 0x22), dim: Level(contrast: 0x01, precharge: 0x11), vcomh: 0x35)

    /// The same module with a separate panel supply: charge pump / DC-DC off and, on the
    /// SSD1306, the pre-charge of external-VCC panels (`8D 10`, `D9 22`; Adafruit_SSD1306).
    public func withExternalVCC() -> OLEDProfile {
        var copy = self
        copy.externalVCC = true
        if controller == .ssd1306 { copy.normal.precharge = 0x22 }
        return copy
    }

    /// Pages of the visible image (8 rows each).
    public var pages: Int { (height + 7) / 8 }

    /// Pages of display RAM: 8 on both controllers (SSD1306 §8.7, SH1106 "Display Data RAM").
    public var ramPages: Int { 8 }

    public func level(_ brightness: Brightness) -> Level { brightness == .normal ? normal : dim }

    /// The RAM column at the panel's left edge for `rotation`. The panel is wired to a fixed
    /// range of segments; A1h maps column `ramColumns − 1 − s` to segment `s`, A0h column `s`,
    /// so turning the panel by 180° mirrors the offset: `ramColumns − width − columnOffset`
    /// (2 stays 2 on a 132-column SH1106; an offset of 0 becomes 4).
    public func columnOffset(for rotation: Rotation) -> Int {
        rotation == .normal ? columnOffset : ramColumns - width - columnOffset
    }

    /// What is inconsistent, or `nil` when a driver can be built with the profile.
    public var problem: String? {
        let ram = controller == .ssd1306 ? 128 : 132
        if ramColumns != ram { return "the \(controller) has \(ram) RAM columns, not \(ramColumns)" }
        if width < 1 || columnOffset < 0 || columnOffset + width > ramColumns {
            return "width \(width) at column offset \(columnOffset) does not fit \(ramColumns) RAM columns"
        }
        if height < 16 || height > 64 || height % 8 != 0 {
            return "height \(height) is not a multiple of 8 from 16 to 64"
        }
        if address > 0x7F { return "address 0x\(String(address, radix: 16)) is not a 7-bit address" }
        let pins: Set<UInt8> = controller == .ssd1306 ? [0x02, 0x12, 0x22, 0x32] : [0x02, 0x12]
        if !pins.contains(comPins) { return "COM pins 0x\(String(comPins, radix: 16)) is not a DAh setting" }
        return nil
    }
}
