import HAL
import HALSim
import Testing

/// Execution times and interface errors of the HD44780 model (HD44780U Table 6, Figure 24),
/// with port-state times from the I²C wire (`I2CWireTiming`).
@Suite struct HD44780TimingTests {
    @Test func testWireTiming_ByteAndTransactionTimes() {
        let wire = I2CWireTiming()
        #expect(wire.acknowledged(byte: 0, start: .zero) == Instant(nanoseconds: 190_000), "START + address + byte 0")
        #expect(wire.acknowledged(byte: 3, start: .zero) == Instant(nanoseconds: 460_000))
        #expect(wire.duration(payloadBytes: 1) == .microseconds(200))
        #expect(I2CWireTiming(clockHz: 400_000).bitTimes(9) == .nanoseconds(22_500))
    }

    @Test func testHD44780_PackedBytesAt100kHz_KeepExecutionTimes() {
        let lcd = LCDScript()
        lcd.initialise()
        // One transaction for a whole line: [b1|E][b1][b2|E][b2] per character, 90 µs per state.
        lcd.transaction("Thunderstorm".utf8.flatMap { lcd.map.pulses(byte: $0, registerSelect: true) })
        #expect(lcd.model.lines[0] == "Thunderstorm    ")
        #expect(lcd.backpack.errors.isEmpty, "\(lcd.backpack.errors)")
    }

    @Test func testHD44780_PackedBytesAt400kHz_AreBusyViolations() {
        let lcd = LCDScript(clockHz: 400_000)
        lcd.initialise()
        lcd.transaction("ab".utf8.flatMap { lcd.map.pulses(byte: $0, registerSelect: true) })
        // 'b' starts 22.5 µs after 'a' was latched; a data write takes 41 µs.
        #expect(lcd.backpack.errors.map(\.kind) == [.busy])
        #expect(lcd.backpack.errors[0].message.contains("data write 0x61"))
        #expect(lcd.model.lines[0].hasPrefix("ab"), "the model runs the transfer anyway")
    }

    @Test func testHD44780_ClearWithoutWaiting_IsBusy() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.byte(0x01)
        lcd.wait(.microseconds(500))
        lcd.text("x")
        #expect(lcd.backpack.errors.map(\.kind) == [.busy])
        #expect(lcd.backpack.errors[0].message.contains("clear display (1.52 ms)"))
    }

    @Test func testHD44780_InitialisationWaits_AreChecked() {
        let lcd = LCDScript(startAt: .milliseconds(50))
        lcd.idle()
        lcd.nibble(0x3)
        lcd.wait(.milliseconds(1))  // needs > 4.1 ms
        lcd.nibble(0x3)
        lcd.wait(.microseconds(20))  // needs > 100 µs; the transaction itself adds 200 µs
        lcd.nibble(0x3)
        #expect(lcd.backpack.errors.map(\.kind) == [.initialisationWait])
        #expect(lcd.backpack.errors[0].message.contains("initialisation function set 1"))
        #expect(lcd.model.isInitialised)
    }

    @Test func testHD44780_TooSoonAfterPowerOn() {
        let lcd = LCDScript(startAt: .milliseconds(10))
        lcd.idle()
        lcd.nibble(0x3)
        #expect(lcd.backpack.errors.map(\.kind) == [.initialisationWait])
        #expect(lcd.backpack.errors[0].message.contains("after power-on"))
    }

    @Test func testHD44780_RegisterSelectChangedBetweenNibbles() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.transaction(lcd.map.pulse(nibble: 0x4, registerSelect: true) + lcd.map.pulse(nibble: 0x1, registerSelect: false))
        #expect(lcd.backpack.errors.map(\.kind) == [.registerSelectChanged])
        #expect(lcd.model.lines[0].hasPrefix("A"), "the first nibble's RS: data")
    }

    @Test func testHD44780_Read_IsReportedAndIgnored() {
        let lcd = LCDScript()
        lcd.initialise()
        let map = lcd.map
        lcd.transaction([map.encode(nibble: 0xF, read: true), map.encode(nibble: 0xF, read: true, enable: true), map.encode(nibble: 0xF, read: true)])
        #expect(lcd.backpack.errors.map(\.kind) == [.read])
        lcd.text("ok")
        #expect(lcd.model.lines[0].hasPrefix("ok"), "nibble pairing undisturbed")
    }

    @Test func testHD44780_FirstStateWithEHigh_IsAReadCycle() {
        let lcd = LCDScript(startAt: .milliseconds(50))
        lcd.nibble(0x3)  // E was high since power-on, with R/W high: no rising edge
        #expect(lcd.backpack.errors.map(\.kind) == [.read])
        #expect(lcd.model.executed == 0, "the nibble is not taken")
    }

    @Test func testHD44780_SnapshotBetweenNibbles_IsACutOff() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.nibble(0x4, rs: true)
        _ = lcd.backpack.snapshot()
        #expect(lcd.backpack.errors.map(\.kind) == [.commandCutOff])
    }

    @Test func testHD44780_NoClock_ChecksNoTiming() {
        let bus = SimulatedI2CBus()
        let backpack = HD44780Backpack()
        bus.attach(backpack, at: 0x27)
        let map = BackpackWiring.ywRobot
        var sender = bus
        try? sender.write(address: 0x27, [map.encode(nibble: 0)])
        for nibble: UInt8 in [3, 3, 3, 2] { try? sender.write(address: 0x27, map.pulse(nibble: nibble)) }
        for byte: UInt8 in [0x28, 0x0C, 0x01] { try? sender.write(address: 0x27, map.pulses(byte: byte)) }
        try? sender.write(address: 0x27, map.pulses(byte: 0x5A, registerSelect: true))
        #expect(backpack.lines[0].hasPrefix("Z") && backpack.errors.isEmpty)
    }

    @Test func testHD44780_PowerOnReset_ThroughTheBus() {
        let lcd = LCDScript()
        lcd.initialise()
        lcd.text("gone")
        lcd.bus.detach(0x27)
        lcd.wait(.seconds(1))
        lcd.bus.reattach(0x27)
        #expect(lcd.model.eightBitInterface && !lcd.model.isInitialised && !lcd.model.displayOn)
        #expect(lcd.backpack.expander.latch == 0xFF)
        lcd.initialise()
        #expect(lcd.backpack.errors.isEmpty, "\(lcd.backpack.errors)")
    }
}
