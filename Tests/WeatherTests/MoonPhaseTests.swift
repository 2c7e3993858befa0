import HAL
import Testing
import Weather

/// The Moon's phase (Meeus ch. 48 and 49) against JPL's DE421 ephemeris through Skyfield:
/// `MoonReference.swift`, written by Tools/moon/reference.py (Skyfield 1.55, skyfield-data's
/// de421.bsp, its built-in timescale). Every new moon, quarter and full moon of 2025–2030, the
/// lit fraction every 5 days 7 hours, and the name of every UTC day.
@Suite("Moon phase")
struct MoonPhaseTests {
    static let kinds: [MoonPhase.Principal] = [.new, .firstQuarter, .full, .lastQuarter]

    /// Ch. 49 is good to well under a minute; measured here 11 s at worst (the line this test
    /// prints), so a minute of tolerance still catches a wrong term.
    @Test func principalInstantsWithinAMinute() {
        var worst: Int64 = 0
        for (kind, seconds) in MoonReference.principal {
            let reference = WallTime(seconds: seconds)
            // Asked from 5 days off, so the search for the nearest phase is exercised too.
            let got = MoonPhase.instant(of: Self.kinds[kind], near: reference + .seconds(5 * 86_400))
            let error = abs(got.seconds - seconds)
            worst = max(worst, error)
            #expect(error <= 60, "\(Self.kinds[kind]) at \(seconds): off by \(error) s")
        }
        #expect(MoonReference.principal.count > 290)
        print("moon: \(MoonReference.principal.count) principal phases, worst error \(worst) s")
    }

    /// 48.4 is the chapter's short formula; measured 0.0030 at worst, allowed 0.005.
    @Test func illuminatedFractionWithinHalfAPercent() {
        var worst = 0.0
        for (seconds, illuminated, waxing) in MoonReference.fractions {
            let phase = MoonPhase(at: WallTime(seconds: seconds))
            let error = abs(phase.illuminated - illuminated)
            worst = max(worst, error)
            #expect(error <= 0.005, "at \(seconds): \(phase.illuminated), DE421 \(illuminated)")
            // Near new and full moon the sense flips within the hour; elsewhere it must agree.
            if illuminated > 0.01 && illuminated < 0.99 {
                #expect(phase.isWaxing == waxing, "at \(seconds)")
            }
            #expect((0...29.6).contains(phase.age), "age \(phase.age) at \(seconds)")
        }
        print("moon: \(MoonReference.fractions.count) fractions, worst error \(worst)")
    }

    @Test func everyDayNamed() {
        let names: [MoonPhase.Name] = [
            .new, .waxingCrescent, .firstQuarter, .waxingGibbous, .full, .waningGibbous, .lastQuarter, .waningCrescent,
        ]
        let digits = MoonReference.dayNames.unicodeScalars.filter { ("0"..."7").contains($0) }
        #expect(digits.count == 2191)
        var wrong = 0
        for (index, digit) in digits.enumerated() {
            let start = WallTime(seconds: MoonReference.firstDay + Int64(index) * 86_400)
            let got = MoonPhase.name(from: start, to: start + .seconds(86_400))
            let want = names[Int(digit.value) - 48]
            if got != want {
                wrong += 1
                Issue.record("day \(index) from 2025-01-01: \(got), DE421 \(want)")
            }
        }
        print("moon: \(digits.count) days named, \(wrong) wrong")
    }

    /// The age runs from 0 at a new moon to about 29.5 days just before the next.
    @Test func ageFromTheLastNewMoon() throws {
        let new = try #require(MoonReference.principal.first { $0.kind == 0 })
        let justAfter = MoonPhase(at: WallTime(seconds: new.seconds + 3_600))
        #expect(abs(justAfter.age - 1.0 / 24) < 0.01)
        let justBefore = MoonPhase(at: WallTime(seconds: new.seconds - 3_600))
        #expect(justBefore.age > 29 && justBefore.age < 30)
        #expect(justBefore.illuminated < 0.01 && justAfter.illuminated < 0.01)
    }
}
