import Drivers
import Graphics
import HAL
import HALSim
import Testing

/// The LCD driver against the HD44780 + PCF8574 model of `HALSim/Display`, with the model's
/// timing checks on (port states timed by the wire at the bus clock, the clock moved to each
/// `.busy(until:)`): the glass shows the frame and the model reports no protocol error.
@Suite struct HD44780ModelTests {
    struct Backpack: Sendable, CustomStringConvertible {
        var name: String
        var driver: HD44780PinMap
        var model: HALSim.BackpackWiring
        var description: String { name }
    }

    static let backpacks = [
        Backpack(name: "ywrobot", driver: .ywrobot, model: .ywRobot),
        Backpack(name: "lcm1602", driver: .lcm1602, model: .lcm1602),
        Backpack(name: "mjkdz", driver: .mjkdz, model: .mjkdz),
    ]

    static let geometries: [(CharacterLCDGeometry, HD44780Model.Geometry)] = [(.lcd16x2, .lcd16x2), (.lcd20x4, .lcd20x4)]

    struct Rig {
        let clock = VirtualClock(start: Instant(nanoseconds: 5_000_000_000))
        let bus: SimulatedI2CBus
        let panel: HD44780Backpack
        var lcd: HD44780Display<SimulatedI2CBus>

        init(_ backpack: Backpack, _ geometry: (CharacterLCDGeometry, HD44780Model.Geometry), busClockHz: Int = 100_000) {
            bus = SimulatedI2CBus(clock: clock)
            bus.isLogging = false
            panel = HD44780Backpack(
                geometry: geometry.1, pinMap: backpack.model, clock: clock,
                portTiming: .wire(I2CWireTiming(clockHz: busClockHz)))
            bus.attach(panel, at: 0x27)
            lcd = HD44780Display(bus: bus, pins: backpack.driver, geometry: geometry.0, timing: HD44780Timing(busClockHz: busClockHz))
        }

        /// Flushes until done, moving the clock to every `.busy(until:)`.
        mutating func show(_ frame: CharacterFrame) throws(I2CError) -> FlushReport {
            while true {
                switch try lcd.flush(frame, now: clock.now()) {
                case .done(let report): return report
                case .busy(let until): clock.advance(to: until)
                }
            }
        }

        /// Whether every cell shows what the frame means: its ROM A00 code, or a CGRAM slot
        /// holding its glyph (or ROM's 0xDF / `?` when no slot was free).
        func mismatches(_ frame: CharacterFrame) -> [String] {
            var problems: [String] = []
            for row in 0..<frame.rows {
                for column in 0..<frame.columns {
                    let cell = frame[column, row]
                    guard let code = panel.lcd.code(row: row, column: column) else {
                        problems.append("(\(column),\(row)) not driven")
                        continue
                    }
                    let glyph: CellGlyph? = switch cell {
                    case .glyph(let g): g
                    case .scalar(let s): s == "°" ? .degree : nil
                    }
                    if let glyph {
                        if code < 16 {
                            let slot = Int(code & 7) * 8
                            if Array(panel.lcd.cgram[slot..<slot + 8]) != rowsOf(glyph) {
                                problems.append("(\(column),\(row)) slot \(code) does not hold \(glyph)")
                            }
                        } else if code != (glyph == .degree ? 0xDF : 0x3F) {
                            problems.append("(\(column),\(row)) \(glyph) shown as code \(code)")
                        }
                    } else if case .scalar(let s) = cell, code != HD44780ROMCodes.codeA00(for: s) {
                        problems.append("(\(column),\(row)) \(s) shown as code \(code)")
                    }
                }
            }
            return problems
        }
    }

    static func randomFrame(_ geometry: CharacterLCDGeometry, _ rng: inout SplitMix64, from base: CharacterFrame? = nil) -> CharacterFrame {
        var frame = base ?? CharacterFrame(columns: geometry.columns, rows: geometry.rows)
        let alphabet = Array("ABCxyz 0123456789:.-°%/äöüéß".unicodeScalars)
        let glyphs = CellGlyph.allCases
        for _ in 0..<(1 + rng.next() % 6) {
            let column = Int(rng.next() % UInt64(geometry.columns)), row = Int(rng.next() % UInt64(geometry.rows))
            frame[column, row] = rng.next() % 6 == 0
                ? .glyph(glyphs[Int(rng.next() % UInt64(glyphs.count))])
                : .scalar(alphabet[Int(rng.next() % UInt64(alphabet.count))])
        }
        return frame
    }

    @Test(arguments: backpacks)
    func testHD44780Model_Text_EqualsTheFrameWithNoProtocolErrors(backpack: Backpack) throws {
        for geometry in Self.geometries {
            var rig = Rig(backpack, geometry)
            let lines = geometry.0.rows == 2
                ? ["Hamilton  14:05", "23°C rain 5km/h"]
                : ["Hamilton", "23°C light rain", "Wind 12 km/h NNE", "14:05  GPS 3D fix"]
            var frame = characterFrame(geometry.0, lines)
            _ = try rig.show(frame)
            #expect(rig.mismatches(frame).isEmpty, "\(rig.mismatches(frame))")
            #expect(rig.panel.lines[0].hasPrefix("Hamilton"))
            #expect(rig.panel.lcd.displayOn && rig.panel.backlightOn)
            // Minute ticks.
            for minute in 6...12 {
                let text = String(format2(minute))
                for (i, s) in text.unicodeScalars.enumerated() {
                    if geometry.0.rows == 2 { frame[13 + i, 0] = .scalar(s) } else { frame[3 + i, 3] = .scalar(s) }
                }
                let report = try rig.show(frame)
                #expect(report.transactions == 1)
                #expect(rig.mismatches(frame).isEmpty)
            }
            #expect(rig.panel.errors.isEmpty, "\(geometry.0.columns)×\(geometry.0.rows): \(rig.panel.errors.prefix(3))")
            try rig.lcd.setBacklight(false)
            #expect(!rig.panel.backlightOn)
        }
    }

    @Test(arguments: [100_000, 400_000])
    func testHD44780Model_RandomFramesWithGlyphs_KeepTimingAtBusSpeed(busClockHz: Int) throws {
        for backpack in Self.backpacks {
            for geometry in Self.geometries {
                var rig = Rig(backpack, geometry, busClockHz: busClockHz)
                var rng = SplitMix64(seed: 0x44780 ^ UInt64(busClockHz) ^ UInt64(geometry.0.columns))
                var frame = Self.randomFrame(geometry.0, &rng)
                for _ in 0..<40 {
                    frame = Self.randomFrame(geometry.0, &rng, from: frame)
                    _ = try rig.show(frame)
                    let problems = rig.mismatches(frame)
                    #expect(problems.isEmpty, "\(backpack) \(geometry.0.columns)×\(geometry.0.rows): \(problems.prefix(3))")
                    // Time passes between frames, as in the event loop.
                    rig.clock.advance(by: .milliseconds(Int64(rng.next() % 3)))
                }
                #expect(rig.panel.errors.isEmpty, "\(backpack) @\(busClockHz): \(rig.panel.errors.prefix(3))")
            }
        }
    }

    @Test(arguments: backpacks)
    func testHD44780Model_PowerLoss_ReinitialisesAndRewritesEverything(backpack: Backpack) throws {
        var rig = Rig(backpack, Self.geometries[0])
        var frame = characterFrame(.lcd16x2, ["Hamilton 23°C", "14:05"])
        frame[15, 0] = .glyph(.sun)
        _ = try rig.show(frame)
        rig.bus.detach(0x27)
        frame[4, 1] = .scalar("6")
        #expect(caught(I2CError.self) { _ = try rig.show(frame) }?.kind == .noAcknowledge(.address))
        rig.clock.advance(by: .milliseconds(500))
        rig.bus.reattach(0x27)
        let report = try rig.show(frame)
        #expect(report.reinitialised && report.fullFrame)
        #expect(rig.mismatches(frame).isEmpty, "\(rig.mismatches(frame))")
        #expect(rig.panel.errors.isEmpty, "\(rig.panel.errors.prefix(3))")
        // A fault in the middle of the initialisation, no power loss: it starts over.
        rig.lcd.invalidate()
        _ = try rig.lcd.flush(frame, now: rig.clock.now())
        rig.bus.injectFault(.timeout, at: 0x27, count: 1)
        rig.clock.advance(by: .milliseconds(60))
        #expect(caught(I2CError.self) { _ = try rig.lcd.flush(frame, now: rig.clock.now()) } != nil)
        _ = try rig.show(frame)
        #expect(rig.mismatches(frame).isEmpty)
        #expect(rig.panel.errors.isEmpty, "\(rig.panel.errors.prefix(3))")
    }

    // Negative controls: the model catches a driver set up for the wrong module.

    @Test func testHD44780Model_NoSpacersAt400kHz_IsReportedBusy() throws {
        let clock = VirtualClock()
        let bus = SimulatedI2CBus(clock: clock)
        let panel = HD44780Backpack(geometry: .lcd16x2, pinMap: .ywRobot, clock: clock, portTiming: .wire(I2CWireTiming(clockHz: 400_000)))
        bus.attach(panel, at: 0x27)
        // The driver believes the bus runs at 100 kHz, so it inserts no spacer states.
        var lcd = HD44780Display(bus: bus, timing: HD44780Timing(busClockHz: 100_000))
        let frame = characterFrame(.lcd16x2, ["Temperature", "falling"])
        while case .busy(let until) = try lcd.flush(frame, now: clock.now()) { clock.advance(to: until) }
        #expect(panel.errors.contains { $0.kind == .busy })
    }

    @Test func testHD44780Model_WrongPinMap_ShowsNothingRight() throws {
        let clock = VirtualClock()
        let bus = SimulatedI2CBus(clock: clock)
        let panel = HD44780Backpack(geometry: .lcd16x2, pinMap: .mjkdz, clock: clock)
        bus.attach(panel, at: 0x27)
        var lcd = HD44780Display(bus: bus, pins: .ywrobot)
        let frame = characterFrame(.lcd16x2, ["Hello"])
        while case .busy(let until) = try lcd.flush(frame, now: clock.now()) { clock.advance(to: until) }
        #expect(!panel.lines[0].hasPrefix("Hello"))
    }
}

private func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
