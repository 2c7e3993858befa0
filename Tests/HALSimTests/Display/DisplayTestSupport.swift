import HAL
import HALSim

/// `"00 AE D5 80"` → `[0x00, 0xAE, 0xD5, 0x80]`.
func hexBytes(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

extension I2CDeviceModel {
    /// One write transaction, given as hex text. Display models never refuse a byte.
    func send(_ text: String) { send(hexBytes(text)) }

    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            do throws(I2CError) { try write(raw) } catch { fatalError("display models acknowledge every byte: \(error)") }
        }
    }
}

extension OLEDControllerModel {
    /// A model whose RAM starts blank, so tests see only what they wrote.
    static func blank(_ configuration: Configuration) -> OLEDControllerModel {
        var configuration = configuration
        configuration.powerOnRAM = .zero
        return OLEDControllerModel(configuration)
    }

    /// The upright init every library sends (docs/design/parts.md#initialisation-sequences), display on.
    func initialiseUpright(mux: Int = 64, comPins: UInt8 = 0x12) {
        let m = String(UInt8(mux - 1), radix: 16)
        let da = String(comPins, radix: 16)
        send("00 AE D5 80 A8 \(m) D3 00 40 8D 14 20 00 A1 C8 DA \(da) 81 CF D9 F1 DB 40 A4 A6 AF")
    }

    /// The glass rows with at least one lit pixel.
    var litRows: [Int] {
        let image = self.image
        return (0..<image.height).filter { y in (0..<image.width).contains { image[$0, y] } }
    }
}

/// A minimal HD44780 backpack driver for the model's tests: port states from the pin map, one
/// transaction per nibble or byte, sleeps as clock steps.
struct LCDScript {
    let clock = VirtualClock()
    let bus: SimulatedI2CBus
    let backpack: HD44780Backpack
    var map: BackpackWiring { backpack.lcd.pinMap }
    var model: HD44780Model { backpack.lcd }

    init(
        geometry: HD44780Model.Geometry = .lcd16x2, pinMap: BackpackWiring = .ywRobot,
        clockHz: Int = 100_000, startAt: Duration = .zero
    ) {
        bus = SimulatedI2CBus(clock: clock)
        backpack = HD44780Backpack(
            geometry: geometry, pinMap: pinMap, clock: clock, portTiming: .wire(I2CWireTiming(clockHz: clockHz)))
        bus.attach(backpack, at: 0x27)
        clock.advance(by: startAt)  // the supply came up at 0
    }

    func wait(_ duration: Duration) { clock.advance(by: duration) }

    func transaction(_ states: [UInt8]) {
        var bus = bus
        try! bus.write(address: 0x27, states)
    }

    /// All LCD pins low, backlight on: what drivers write first (the PCF8574 starts all high).
    func idle() { transaction([map.encode(nibble: 0)]) }

    func nibble(_ value: UInt8, rs: Bool = false) { transaction(map.pulse(nibble: value, registerSelect: rs)) }

    func byte(_ value: UInt8, rs: Bool = false) { transaction(map.pulses(byte: value, registerSelect: rs)) }

    func command(_ value: UInt8) {
        byte(value)
        wait(value < 4 ? .milliseconds(2) : .microseconds(50))
    }

    func text(_ string: String) {
        for scalar in string.unicodeScalars { byte(UInt8(scalar.value), rs: true) }
    }

    /// HD44780U Figure 24 with the usual margins, then 2 lines, display on, entry increment.
    func initialise() {
        idle()
        wait(.milliseconds(50))
        nibble(0x3)
        wait(.milliseconds(5))
        nibble(0x3)
        wait(.microseconds(150))
        nibble(0x3)
        wait(.microseconds(50))
        nibble(0x2)
        wait(.microseconds(50))
        for instruction: UInt8 in [0x28, 0x08, 0x01, 0x06, 0x0C] { command(instruction) }
    }
}
