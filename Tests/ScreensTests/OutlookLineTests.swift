import GraphicsTesting
import HAL
import Store
import Testing
import Weather
@testable import Screens

/// The "next two hours" line between the summariser and the glass: local times in the place's
/// zone, minutes in fives, the chosen units, and every form within the cells it is made for.
@Suite struct OutlookLineTests {
    /// 2026-05-22 14:05 UTC; Zürich is at +02:00 (CEST).
    static let now = WallTime(seconds: 1_779_458_700)
    static let zurich = ZoneRules.fixed(offsetSeconds: 7_200, identifier: "Europe/Zurich")

    static func at(_ minutes: Int) -> WallTime { now + .seconds(minutes * 60) }

    static func line(_ outlook: NowcastOutlook) -> OutlookLine { OutlookLine(outlook, now: now, zone: zurich) }

    static func text(_ line: OutlookLine, _ settings: Settings = .defaults, _ form: OutlookText.Form = .full) -> String {
        let text = OutlookText(line, settings, form: form)
        return text.lead + text.value + text.trail
    }

    static let imperial12h: Settings = {
        var settings = Settings.defaults
        settings.units = .imperial
        settings.time = .twelveHour
        return settings
    }()

    @Test func testOutlookLine_StartSoon_MinutesInFives() {
        #expect(Self.line(.starts(.rain, at: Self.at(25), chance: nil)) == .startsIn(.rain, minutes: 25))
        #expect(Self.line(.starts(.rain, at: Self.at(22) + .seconds(30), chance: nil)) == .startsIn(.rain, minutes: 25))
        #expect(Self.line(.starts(.rain, at: Self.at(1), chance: nil)) == .startsIn(.rain, minutes: 5))
        #expect(Self.text(.startsIn(.rain, minutes: 20)) == "Rain in 20 min")
    }

    @Test func testOutlookLine_StartLater_LocalClock() {
        // 15:25 UTC is 17:25 in Zürich.
        let line = Self.line(.starts(.snow, at: Self.at(80), chance: nil))
        #expect(line == .startsAt(.snow, ClockTime(hour: 17, minute: 25), chance: nil))
        #expect(Self.text(line) == "Snow from 17:25")
        #expect(Self.text(line, Self.imperial12h) == "Snow from 5:25 PM")
        #expect(Self.text(line, .defaults, .compact) == "Snow 17:25")
        #expect(Self.text(line, Self.imperial12h, .compact) == "Snow 5:25p")
    }

    @Test func testOutlookLine_HourlyChance_ShowsIt() {
        let line = Self.line(.starts(.rain, at: Self.at(55), chance: 70))
        #expect(line == .startsAt(.rain, ClockTime(hour: 17, minute: 0), chance: 70))
        #expect(Self.text(line) == "Rain 70% at 17:00")
        #expect(Self.text(line, .defaults, .tiny) == "Rain 70%")
        #expect(Self.text(line, Self.imperial12h, .compact) == "Rain 70% 5p")
    }

    @Test func testOutlookLine_RainUntil_AndNow() {
        #expect(Self.text(Self.line(.until(.rain, end: Self.at(40)))) == "Rain until 16:45")
        #expect(Self.text(Self.line(.until(.rain, end: nil))) == "Rain for next 2 h")
        #expect(Self.text(Self.line(.until(.rain, end: Self.at(40))), .defaults, .tiny) == "Rain-16:45")
        #expect(Self.text(Self.line(.thunder(at: Self.at(-5)))) == "Thunder now")
        #expect(Self.text(Self.line(.thunder(at: Self.at(55)))) == "Thunder risk 17:00")
    }

    @Test func testOutlookLine_Gusts_InTheChosenUnits() {
        let line = Self.line(.gusts(metresPerSecond: 19.4, at: Self.at(55)))
        #expect(Self.text(line) == "Gusts 70 km/h 17:00")
        #expect(Self.text(line, Self.imperial12h) == "Gusts 43 mph 5:00 PM")
        #expect(Self.text(line, .defaults, .tiny) == "Gust 70km/h")
    }

    @Test func testOutlookLine_Unsure_SaysTheAge() {
        #expect(Self.line(.unsure(age: .seconds(75 * 60))) == .unsure(ageMinutes: 75))
        #expect(Self.text(.unsure(ageMinutes: 75)) == "Dry? data 75 min old")
        #expect(Self.text(.unsure(ageMinutes: 125)) == "Dry? data 2 h old")
        #expect(Self.text(.unsure(ageMinutes: 125), .defaults, .compact) == "Dry? 2h old")
    }

    /// Every line in every setting: the full form fits 21 cells (128 px of the small font; the
    /// 20×4 LCD falls back when it does not), the compact one 15 and the tiny one 12, the most
    /// the renderers' fallbacks are designed around; and none outgrows a small string.
    @Test func testOutlookText_EveryForm_WithinItsCells() {
        let lines: [OutlookLine] = [
            .dry, .startsIn(.snow, minutes: 60), .startsAt(.snow, ClockTime(hour: 12, minute: 45), chance: nil),
            .startsAt(.rain, ClockTime(hour: 23, minute: 0), chance: 100), .until(.snow, ClockTime(hour: 10, minute: 30)),
            .until(.rain, nil), .thunder(ClockTime(hour: 11, minute: 15)), .thunder(nil),
            .gusts(metresPerSecond: 33, ClockTime(hour: 12, minute: 0)), .gusts(metresPerSecond: 33, nil), .unsure(ageMinutes: 179),
        ]
        for settings in [Settings.defaults, Self.imperial12h] {
            for line in lines {
                for (form, cells) in [(OutlookText.Form.full, 21), (.compact, 15), (.tiny, 12)] {
                    let text = OutlookText(line, settings, form: form)
                    #expect(text.count <= cells, "\(line) \(form): \(Self.text(line, settings, form))")
                    // The built pieces stay small strings; the lead is always a literal (static, never on the heap).
                    for piece in [text.value, text.trail] { #expect(piece.utf8.count <= 15, "\(piece)") }
                }
            }
        }
    }
}

extension OutlookLineTests {
    /// The burn-in orbit draws the tall layouts on a 62-row canvas: the now screen with every
    /// kind of line still draws no pixel twice and nothing outside.
    @Test func testNowScreen_OrbitCanvas_NoOverdraw() {
        let lines: [OutlookLine] = [
            .dry, .startsIn(.rain, minutes: 20), .until(.snow, ClockTime(hour: 16, minute: 45)),
            .gusts(metresPerSecond: 24, nil), .unsure(ageMinutes: 150),
        ]
        for scene in [SampleScene.now, .error, .rainSoon] {
            for line in lines {
                var model = scene.frames[0]
                model.outlook = line
                model.settings.units = .imperial
                var display = MockDisplay(width: 128, height: 62)
                OLEDScreens.draw(model, .now, into: &display)
                #expect(display.problems.isEmpty, "\(scene) \(line): \(display.problems.prefix(3))")
            }
        }
    }
}
