import HAL
import HALSim
import Testing

@Suite struct PanelLogReplayTests {
    static let upright = "3C: 00 AE D5 80 A8 3F D3 00 40 8D 14 20 00 A1 C8 DA 12 D9 F1 DB 40 A4 A6 AF"

    @Test func testReplay_SnapshotsResetsAndOtherAddresses() throws {
        let text = """
            # a comment
            \(Self.upright)
            3C: 00 21 00 7F 22 00 07
            3C: 40 01
            76: F4 27
            !snapshot dot
            !reset
            !snapshot dark
            """
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        let replay = PanelLogReplay(try I2CTransactionLog(parsing: text), into: oled, at: 0x3C)
        #expect(replay.snapshots.map(\.name) == ["dot", "dark"])
        #expect(replay.snapshot(named: "dot")?.image.litCount == 1)
        #expect(replay.snapshot(named: "dot")?.errorCount == 0)
        #expect(replay.snapshot(named: "dark")?.image.litCount == 0)
        #expect(replay.snapshot(named: "dark")?.errorCount == 1, "a snapshot after the reset: never switched on")
        #expect(replay.transactions == 3)
        #expect(replay.unacknowledged.count == 1 && replay.unacknowledged[0].hasPrefix("entry 4: 0x76"))
    }

    @Test func testReplay_TimesMoveTheClock_BackwardsIsAnIssue() throws {
        let text = """
            t=0.500000 3C: 00 AF
            t=0.250000 3C: 00 AE
            t=1.000000 3C: 00 AF
            """
        let clock = VirtualClock()
        let replay = PanelLogReplay(try I2CTransactionLog(parsing: text), into: OLEDControllerModel(.ssd1306_128x64), at: 0x3C, clock: clock)
        #expect(clock.now() == Instant(nanoseconds: 1_000_000_000))
        #expect(replay.issues.count == 1 && replay.issues[0].hasPrefix("entry 1"))
    }

    /// What a driver sends through a logging `SimulatedI2CBus` replays to the same glass: the
    /// bus log and the replayer speak the corpus format both ways.
    @Test func testReplay_ABusLogReplaysToTheSameImage() throws {
        let clock = VirtualClock()
        var bus = SimulatedI2CBus(clock: clock)
        let live = OLEDControllerModel.blank(.sh1106_128x64())
        bus.attach(live, at: 0x3C)
        try bus.write(address: 0x3C, hexBytes("00 AE A8 3F D3 00 40 AD 8B A1 C8 DA 12 AF"))
        for page: UInt8 in 0..<8 {
            clock.advance(by: .milliseconds(1))
            try bus.write(address: 0x3C, [0x00, 0xB0 + page, 0x02, 0x10])
            try bus.write(address: 0x3C, [0x40] + (0..<128).map { UInt8(truncatingIfNeeded: Int($0) * Int(page + 1)) })
        }
        bus.log.appendSnapshot("frame")
        let parsed = try I2CTransactionLog(parsing: bus.log.render())
        let replayed = OLEDControllerModel.blank(.sh1106_128x64())
        let replay = PanelLogReplay(parsed, into: replayed, at: 0x3C, clock: VirtualClock())
        #expect(replay.snapshots.first?.image == live.image)
        #expect(live.image.litCount > 0 && replayed.errors.isEmpty)
    }

    @Test func testReplay_HD44780WithStamps() throws {
        let map = BackpackWiring.ywRobot
        var lines: [String] = []
        var t = 50_000  // µs
        func add(_ states: [UInt8], wait: Int) {
            for s in states {
                lines.append("t=0.\(String(t + 1_000_000).dropFirst()) 27: \(String(s, radix: 16))")
                t += 100
            }
            t += wait
        }
        add([map.encode(nibble: 0)], wait: 0)
        for (nibble, wait) in [(3, 5000), (3, 200), (3, 100), (2, 100)] as [(UInt8, Int)] { add(map.pulse(nibble: nibble), wait: wait) }
        for byte: UInt8 in [0x28, 0x0C, 0x01] { add(map.pulses(byte: byte), wait: 2000) }
        add(map.pulses(byte: 0x3F, registerSelect: true), wait: 0)
        let clock = VirtualClock()
        let lcd = HD44780Backpack(clock: clock, portTiming: .stamps)
        let replay = PanelLogReplay(try I2CTransactionLog(parsing: lines.joined(separator: "\n")), into: lcd, at: 0x27, clock: clock)
        #expect(replay.transactions == lines.count)
        #expect(lcd.lines[0].hasPrefix("?"))
        #expect(lcd.errors.isEmpty, "\(lcd.errors)")
    }
}
