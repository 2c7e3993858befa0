import HAL

/// An SSD1306 or SH1106 OLED controller on a panel module, modelled from the data sheets
/// (Solomon Systech SSD1306 Rev 1.1; Sino Wealth SH1106 V2.3), not from any driver
/// (docs/design/architecture.md#layers): it interprets the I²C byte stream as the controller does and computes what
/// the glass shows from its display RAM and settings.
///
/// - I²C framing (SSD1306 §8.1.5.1, Figure 8-7; SH1106 "I²C-bus interface"): each write
///   transaction starts with a control byte `Co D/C# 0 0 0 0 0 0`. D/C# = 0 makes the following
///   bytes commands, 1 makes them display data. Co = 0: every remaining byte of the transaction
///   is of that kind (`0x00` command stream, `0x40` data stream); Co = 1: exactly one byte of
///   that kind follows, then another control byte (`0x80 cmd`, `0xC0 data`).
/// - The command decoder keeps its state across transactions: a command's argument bytes may
///   come in a later transaction (CircuitPython sends `80 A8` then `80 3F`).
/// - Commands: `+Commands.swift` (SSD1306 Table 9-1, SH1106 "Commands"); RAM writes
///   and addressing: `+RAM.swift`; the glass: `+Glass.swift`.
/// - Protocol errors are collected in `errors` (see `PanelProtocolError`), never thrown: the
///   model always acknowledges, as the controller does.
///
/// Attach it to a `SimulatedI2CBus` at 0x3C (or 0x3D), run a driver, then compare `image`
/// with the expected picture and check `errors`.
public final class OLEDControllerModel: PanelModel {
    public enum Controller: Sendable, Equatable {
        /// 128 × 64 RAM; horizontal, vertical and page addressing; charge pump `8D`.
        case ssd1306
        /// 132 × 64 RAM; page addressing only; DC-DC `AD`.
        case sh1106
    }

    /// How the module maker wired the panel's rows to the controller's COM pins, named after
    /// the `DA` setting the module needs (SSD1306 §10.1.18, Table 10-3): 128×64 modules use
    /// the alternative configuration (`DA 12`), 128×32 modules the sequential one (`DA 02`).
    /// A driver that sends the other value sees interleaved or squashed rows, as on real modules.
    public enum COMWiring: Sendable, Equatable {
        case sequential, alternative
        case sequentialLeftRightRemap, alternativeLeftRightRemap
    }

    /// Where the OLED drive voltage comes from: the controller's charge pump (SSD1306 `8D 14`,
    /// SH1106 DC-DC `AD 8B`, the usual cheap module) or an external VCC supply.
    public enum Supply: Sendable, Equatable { case internalVCC, externalVCC }

    /// What the display RAM holds after power-on: the data sheets do not define it, and real
    /// parts show noise, so by default the model fills it with seeded noise (a driver that does
    /// not clear every column shows garbage in tests); `.zero` for a blank start.
    public enum PowerOnRAM: Sendable, Equatable {
        case zero
        case noise(seed: UInt64)
    }

    public struct Configuration: Sendable, Equatable {
        public var controller: Controller
        /// The glass in pixels (≤ 128 × 64 for the SSD1306, ≤ 132 × 64 for the SH1106).
        public var width: Int
        public var height: Int
        public var comWiring: COMWiring
        /// The RAM column shown at the glass's left edge when the module is driven upright:
        /// 2 for most SH1106 modules (columns 2…129 of 132), 0 for some, 0 for the SSD1306.
        public var columnOffset: Int
        public var supply: Supply
        public var powerOnRAM: PowerOnRAM

        /// Sequential wiring for panels of 32 rows or fewer, alternative above; SH1106 offset 2.
        public init(
            controller: Controller, width: Int = 128, height: Int = 64, comWiring: COMWiring? = nil,
            columnOffset: Int? = nil, supply: Supply = .internalVCC, powerOnRAM: PowerOnRAM = .noise(seed: 0x5EED)
        ) {
            self.controller = controller
            self.width = width
            self.height = height
            self.comWiring = comWiring ?? (height > 32 ? .alternative : .sequential)
            self.columnOffset = columnOffset ?? (controller == .sh1106 ? 2 : 0)
            self.supply = supply
            self.powerOnRAM = powerOnRAM
        }

        public static let ssd1306_128x64 = Configuration(controller: .ssd1306)
        public static let ssd1306_128x32 = Configuration(controller: .ssd1306, height: 32)
        public static func sh1106_128x64(columnOffset: Int = 2) -> Configuration {
            Configuration(controller: .sh1106, columnOffset: columnOffset)
        }
    }

    public let configuration: Configuration
    /// The controller's registers; reset values from SSD1306 Table 9-1 / SH1106 "Commands".
    public internal(set) var registers: Registers
    /// The display RAM, page by page, each page `ramColumns` bytes in segment order (SEG0
    /// first): byte `ram[page * ramColumns + seg]`, bit n = row 8·page + n. Segment order, not
    /// column-address order, because the segment remap is applied when a byte is written
    /// (SSD1306 §10.1.8).
    public internal(set) var ram: [UInt8]
    public internal(set) var errors: [PanelProtocolError] = []

    /// 128 (SSD1306) or 132 (SH1106).
    public let ramColumns: Int
    /// Payload bytes received since power-on.
    var position = 0
    /// A command whose argument bytes have not all arrived, and those that have.
    var pendingCommand: UInt8?
    var pendingNeeded = 0
    var arguments: [UInt8] = []
    var cutOffReported = false
    /// Whether `AF` was received since power-on.
    var everSwitchedOn = false
    /// Whether an out-of-range RAM write was reported since the last addressing command.
    var rangeReported = false

    public init(_ configuration: Configuration) {
        let columns = configuration.controller == .sh1106 ? 132 : 128
        precondition(configuration.width > 0 && configuration.width <= columns, "panel wider than the RAM")
        precondition(
            configuration.columnOffset >= 0 && configuration.columnOffset + configuration.width <= columns,
            "the visible columns lie inside the RAM")
        precondition(configuration.height > 0 && configuration.height <= 64, "at most 64 COM lines")
        self.configuration = configuration
        ramColumns = columns
        registers = Registers(configuration.controller)
        ram = []
        arguments.reserveCapacity(8)
        powerOnReset()
    }

    /// Back to the data sheet's reset state (SSD1306 Table 9-1 reset values; SH1106 POR
    /// values), with the RAM filled as `configuration.powerOnRAM` says.
    public func powerOnReset() {
        registers = Registers(configuration.controller)
        ram = [UInt8](repeating: 0, count: ramColumns * 8)
        if case .noise(let seed) = configuration.powerOnRAM {
            var random = SplitMix64(seed: seed)
            for i in ram.indices { ram[i] = UInt8(truncatingIfNeeded: random.next()) }
        }
        position = 0
        pendingCommand = nil
        arguments.removeAll(keepingCapacity: true)
        everSwitchedOn = false
        rangeReported = false
    }

    public func clearErrors() { errors.removeAll() }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        var expectingControl = true
        var isData = false
        var singleByte = false
        for byte in bytes {
            defer { position += 1 }
            if expectingControl {
                if byte & 0x3F != 0 {
                    record(.malformedControlByte, byte: byte,
                        "control byte \(hex(byte)) has bits 5…0 set; read as Co=\(byte >> 7), D/C#=\(byte >> 6 & 1)")
                }
                singleByte = byte & 0x80 != 0
                isData = byte & 0x40 != 0
                expectingControl = false
                continue
            }
            if isData { writeRAM(byte) } else { receiveCommandByte(byte) }
            if singleByte { expectingControl = true }
        }
    }

    /// An I²C read returns the status byte (SSD1306 §8.1.5 "status register read", SH1106
    /// "Read Status"): bit 6 set while the display is off, bit 7 (busy) never set.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        for i in buffer.indices { buffer[i] = registers.displayOn ? 0x00 : 0x40 }
    }

    /// One command-stream byte: an argument of the pending command, or a new command.
    func receiveCommandByte(_ byte: UInt8) {
        if let command = pendingCommand {
            arguments.append(byte)
            guard arguments.count == pendingNeeded else { return }
            pendingCommand = nil
            execute(command, arguments)
            arguments.removeAll(keepingCapacity: true)
            return
        }
        guard let count = argumentCount(of: byte) else {
            record(.unknownCommand, byte: byte, unknownCommandMessage(byte))
            return
        }
        if count == 0 {
            execute(byte, [])
        } else {
            pendingCommand = byte
            pendingNeeded = count
            cutOffReported = false
        }
    }

    func argumentCount(of command: UInt8) -> Int? {
        configuration.controller == .ssd1306 ? Self.ssd1306ArgumentCount(command) : Self.sh1106ArgumentCount(command)
    }

    func execute(_ command: UInt8, _ arguments: [UInt8]) {
        switch configuration.controller {
        case .ssd1306: executeSSD1306(command, arguments)
        case .sh1106: executeSH1106(command, arguments)
        }
    }

    /// Reports a pending command cut off by `what` (a data byte, a snapshot), once per command.
    func reportCutOff(by what: String) {
        guard let command = pendingCommand, !cutOffReported else { return }
        cutOffReported = true
        let missing = pendingNeeded - arguments.count
        record(.commandCutOff, byte: command,
            "\(what) while command \(hex(command)) still waits for \(missing) argument byte(s); the command decoder keeps waiting")
    }

    func record(_ kind: PanelProtocolError.Kind, byte: UInt8? = nil, _ message: String) {
        errors.append(PanelProtocolError(kind, byte: byte, position: position, message))
    }

    func hex(_ value: UInt8) -> String { PanelProtocolError.hex(value) }
}
