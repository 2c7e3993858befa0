/// What a key pressed in the `simulate` terminal does: the four buttons of the board, a short
/// press or a hold each, and a way out.
///
/// The buttons are `a`…`d` (button 0…3, the order of the board file's `buttons` array); the
/// same letter in upper case holds the button long enough for a long press. A terminal sends
/// no key-up, so the simulator cannot tell how long a key is held: shift chooses the gesture
/// instead. Raw mode turns off `ISIG` (see `TerminalSession`), so Ctrl-C and Ctrl-D arrive as
/// the bytes 0x03 and 0x04 and quit like `q`, after the terminal has been restored, rather than
/// killing the process with the terminal still raw.
public enum SimulatorKey: Equatable, Sendable {
    case press(button: Int)
    case hold(button: Int)
    case quit

    /// The key for one byte read from the terminal, or nil for any other byte. Use
    /// `keys(in:)` on what a read returned: it skips escape sequences, whose bytes one by one
    /// would decode wrongly (Up arrow is `ESC [ A`, and "A" alone is a hold of button 0).
    public static func decode(_ byte: UInt8) -> SimulatorKey? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "d"): .press(button: Int(byte - UInt8(ascii: "a")))
        case UInt8(ascii: "A")...UInt8(ascii: "D"): .hold(button: Int(byte - UInt8(ascii: "A")))
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: .quit
        default: nil
        }
    }

    /// The keys in `bytes`, in order, with escape sequences left out: ECMA-48 §5.4 control
    /// sequences (`ESC [`, then parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F and one
    /// final byte 0x40–0x7E: arrows, Home, End, function keys) and `ESC O` plus
    /// one byte (SS3: arrows and F1–F4 in the keypad's application mode). Any other byte after
    /// an ESC (Alt+key) is dropped with it. A sequence cut off at the end of `bytes` is
    /// dropped; terminals write each sequence in one piece, so one read holds all of it.
    public static func keys(in bytes: some Sequence<UInt8>) -> [SimulatorKey] {
        var keys: [SimulatorKey] = []
        var state = EscapeState.text
        for byte in bytes {
            switch state {
            case .text:
                if byte == 0x1B {
                    state = .escape
                } else if let key = decode(byte) {
                    keys.append(key)
                }
            case .escape:
                switch byte {
                case UInt8(ascii: "["): state = .controlSequence
                case UInt8(ascii: "O"): state = .singleShift
                case 0x1B: state = .escape  // the first ESC stood alone (Alt+Up is ESC ESC [ A)
                default: state = .text  // Alt+key: dropped with its ESC
                }
            case .controlSequence:
                if (0x40...0x7E).contains(byte) { state = .text }
            case .singleShift:
                state = .text
            }
        }
        return keys
    }

    /// Where `keys(in:)` is in an escape sequence.
    private enum EscapeState { case text, escape, controlSequence, singleShift }

    /// One line for the status bar: what the keys do.
    public static let help = "a–d press · A–D hold · q quit"
}
