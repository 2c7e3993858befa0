import HAL

/// Something a driver did that a display controller's data sheet does not allow, or that would
/// not show what the driver meant on a real module. Display models collect these in their
/// `errors` list instead of crashing or throwing, so a test can look at all of them at the end
/// of a run (and a conformance suite can list the ones it expects, with the reason).
public struct PanelProtocolError: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        // SSD1306 / SH1106
        /// A data byte, or a `!snapshot`, arrived while a command still waited for argument bytes.
        case commandCutOff
        /// A byte the controller has no command for (run as a one-byte no-op).
        case unknownCommand
        /// A command argument outside the range the data sheet allows.
        case invalidArgument
        /// A control byte with bits 5…0 set (the data sheet has them 0).
        case malformedControlByte
        /// Display RAM written outside the column/page window or past the end of the RAM.
        case ramWriteOutOfRange
        /// The image was taken while the panel had never been switched on (no `AF` since reset,
        /// or no charge pump on an internal-VCC module).
        case panelNeverLit
        /// The driver used a feature the model records but does not draw (hardware scrolling).
        case unsupportedEffect
        // HD44780 behind a PCF8574
        /// E rose for a new instruction or data byte while the previous one was still executing.
        case busy
        /// E rose before a power-on or initialisation wait of the data sheet had passed.
        case initialisationWait
        /// An instruction or a data write before the initialisation by instruction.
        case usedBeforeInitialisation
        /// RS differed between the two nibbles of one byte in 4-bit mode.
        case registerSelectChanged
        /// E pulsed with R/W high: a read, which a write-only backpack driver never does.
        case read
        /// A DDRAM address the current line mode does not have.
        case invalidAddress
    }

    public var kind: Kind
    /// The byte concerned (the command, the argument, the instruction), when there is one.
    public var byte: UInt8?
    /// Where in the stream: the number of payload bytes (OLED) or port states (HD44780) the
    /// model had received before this one since power-on, counting from 0.
    public var position: Int
    /// When, for models that know the time.
    public var time: Instant?
    /// One line for a person: what happened and what the model did about it.
    public var message: String

    public init(_ kind: Kind, byte: UInt8? = nil, position: Int, time: Instant? = nil, _ message: String) {
        self.kind = kind
        self.byte = byte
        self.position = position
        self.time = time
        self.message = message
    }

    public var description: String {
        var text = "byte \(position)"
        if let time { text += " (\(time))" }
        return text + ": " + message
    }

    /// `0x3C`-style text for messages.
    static func hex(_ value: UInt8) -> String {
        var text = "0x"
        I2CTransactionLog.appendHex(value, to: &text)
        return text
    }
}

/// A simulated display that a log replay or a driver test can look at: an I²C device model
/// with an image of its glass and a list of protocol errors.
public protocol PanelModel: I2CDeviceModel {
    /// What the glass shows now.
    var image: PanelImage { get }

    /// The protocol errors seen since power-on (or since `clearErrors()`), in order.
    var errors: [PanelProtocolError] { get }

    /// Forgets the errors seen so far (a test that provoked some on purpose).
    func clearErrors()

    /// The image at a `!snapshot` line: `image`, after recording what a snapshot reveals that
    /// a single byte cannot (a command still waiting for its arguments, a panel never lit).
    func snapshot() -> PanelImage
}
