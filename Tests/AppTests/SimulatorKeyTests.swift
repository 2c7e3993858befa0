import App
import Testing

/// The keys of `simulate`.
@Suite("Simulator keys")
struct SimulatorKeyTests {
    @Test("a–d press, A–D hold, q Q Ctrl-C Ctrl-D quit, nothing else is a key")
    func decoding() {
        #expect(SimulatorKey.decode(UInt8(ascii: "a")) == .press(button: 0))
        #expect(SimulatorKey.decode(UInt8(ascii: "d")) == .press(button: 3))
        #expect(SimulatorKey.decode(UInt8(ascii: "B")) == .hold(button: 1))
        #expect(SimulatorKey.decode(UInt8(ascii: "D")) == .hold(button: 3))
        for byte: UInt8 in [UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04] {
            #expect(SimulatorKey.decode(byte) == .quit)
        }
        let keys = (0...255).compactMap { SimulatorKey.decode(UInt8($0)) }
        #expect(keys.count == 12, "only a–d, A–D and the four quit bytes")
        for byte: UInt8 in [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "`"), UInt8(ascii: "@"), 0x1B, 0x0D, 0x00, 0xE1] {
            #expect(SimulatorKey.decode(byte) == nil)
        }
    }

    @Test("escape sequences are skipped whole: Up arrow (ESC [ A) is not a hold of button 0")
    func escapeSequences() {
        let up: [UInt8] = [0x1B, 0x5B, 0x41]
        #expect(SimulatorKey.keys(in: up).isEmpty)
        let typed = Array("a".utf8) + up + Array("B".utf8) + [0x1B, 0x5B, 0x31, 0x35, 0x7E]  // F5
            + [0x1B, 0x4F, 0x44]  // Left in application mode
            + [0x1B, 0x1B, 0x5B, 0x41]  // Alt+Up
            + [0x1B, UInt8(ascii: "c")]  // Alt+c: dropped
            + Array("cq".utf8)
        #expect(SimulatorKey.keys(in: typed) == [.press(button: 0), .hold(button: 1), .press(button: 2), .quit])
        #expect(SimulatorKey.keys(in: [0x03]) == [.quit])
    }
}
