import Testing

@testable import Board

/// The `"barograph"` section: the storm alarm on or off, and its threshold.
@Suite("Board file: the barograph's storm alarm")
struct BoardBarographTests {
    typealias V = BoardValidationTests

    static func with(_ section: String) -> String {
        BoardTwinAndWeatherTests.edited([(#"  "defaultLocation""#, "  \"barograph\": \(section),\n  \"defaultLocation\"")])
    }

    @Test("without the section the alarm is on at 3.6 hPa in 3 h")
    func testBarograph_Absent_DefaultAlarm() throws {
        let config = try BoardTwinAndWeatherTests.config(BrokenDocuments.minimal())
        #expect(config.barograph == .standard)
        #expect(config.barograph.alarm && config.barograph.alarmFall == 3.6)
        #expect(try BoardTwinAndWeatherTests.config(Self.with("null")).barograph == .standard)
        #expect(try BoardTwinAndWeatherTests.config(Self.with("{}")).barograph == .standard)
    }

    @Test("\"alarm\": false turns it off; \"alarmFall\" sets the threshold")
    func testBarograph_AlarmAndFall_Read() throws {
        let off = try BoardTwinAndWeatherTests.config(Self.with(#"{ "alarm": false }"#))
        #expect(off.barograph == BarographConfig(alarm: false, alarmFall: 3.6))
        let fall = try BoardTwinAndWeatherTests.config(Self.with(#"{ "alarmFall": 6 }"#))
        #expect(fall.barograph == BarographConfig(alarm: true, alarmFall: 6))
    }

    @Test("a wrong type, a threshold out of range, an unknown key: each one clear line")
    func testBarograph_Invalid_Fails() {
        let quoted = V.problems(Self.with(#"{ "alarm": "false" }"#))
        #expect(quoted.map(\.path) == ["barograph.alarm"])
        #expect(quoted.first?.message.contains("without quotes") == true, "\(quoted)")
        let low = V.problems(Self.with(#"{ "alarmFall": 0.5 }"#))
        #expect(low.map(\.path) == ["barograph.alarmFall"])
        #expect(low.first?.message.contains("between 1 and 20") == true, "\(low)")
        let negative = V.problems(Self.with(#"{ "alarmFall": -4 }"#))
        #expect(negative.map(\.path) == ["barograph.alarmFall"])
        let text = V.problems(Self.with(#"{ "alarmFall": "4" }"#))
        #expect(text.first?.message.contains("expected a number") == true, "\(text)")
        let typo = V.problems(Self.with(#"{ "alarmfall": 4 }"#))
        #expect(typo.map(\.path) == ["barograph.alarmfall"])
        #expect(typo.first?.message.contains("alarmFall") == true, "\(typo)")
        let notObject = V.problems(Self.with("false"))
        #expect(notObject.map(\.path) == ["barograph"])
    }

    @Test("\"altitude\": the sensor's height, m, read; out of range or not a number is one clear line")
    func testBarograph_Altitude() throws {
        #expect(BarographConfig.standard.altitude == nil)
        let flat = try BoardTwinAndWeatherTests.config(Self.with(#"{ "altitude": 86.5 }"#))
        #expect(flat.barograph == BarographConfig(alarm: true, alarmFall: 3.6, altitude: 86.5))
        let shore = try BoardTwinAndWeatherTests.config(Self.with(#"{ "altitude": -400 }"#))
        #expect(shore.barograph.altitude == -400)
        let high = V.problems(Self.with(#"{ "altitude": 12000 }"#))
        #expect(high.map(\.path) == ["barograph.altitude"])
        #expect(high.first?.message.contains("between -430 and 9000") == true, "\(high)")
        let text = V.problems(Self.with(#"{ "altitude": "86 m" }"#))
        #expect(text.map(\.path) == ["barograph.altitude"])
        #expect(text.first?.message.contains("expected a number") == true, "\(text)")
    }
}
