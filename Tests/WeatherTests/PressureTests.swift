import Glibc
import HAL
import Testing
import Weather

/// The barograph's arithmetic: the tendency's code figure and words, the reduction to sea
/// level, the ring, the alarm and the altitude track.
@Suite("Pressure: tendency, reduction, history, storm alarm")
struct PressureTests {
    typealias C = PressureTendency.Characteristic

    /// One trace per code figure of WMO code table 0200 (three hours ago, halfway, now).
    @Test(
        "each WMO 0200 code figure from its trace",
        arguments: [
            (1010.0, 1011.0, 1010.5, C.increasingThenDecreasing),
            (1010.0, 1011.0, 1011.05, C.increasingThenSteady),
            (1010.0, 1011.0, 1012.0, C.increasing),
            (1010.0, 1010.05, 1011.0, C.increasingMoreRapidly),
            (1010.0, 1010.5, 1012.0, C.increasingMoreRapidly),
            (1010.0, 1011.5, 1012.0, C.increasingThenSteady),
            (1010.0, 1010.05, 1010.02, C.steady),
            (1010.0, 1009.0, 1009.5, C.decreasingThenIncreasing),
            (1010.0, 1009.0, 1008.95, C.decreasingThenSteady),
            (1010.0, 1009.0, 1008.0, C.decreasing),
            (1010.0, 1010.0, 1009.0, C.decreasingMoreRapidly),
            (1010.0, 1009.5, 1008.0, C.decreasingMoreRapidly),
            (1010.0, 1011.0, 1009.5, C.decreasingMoreRapidly),
            (1010.0, 1009.0, 1010.5, C.increasingMoreRapidly),
            (1010.0, 1010.1, 1010.2, C.increasing),
        ])
    func characteristic(p3: Double, p1: Double, p0: Double, expected: C) {
        let t = PressureTendency(threeHoursAgo: p3, halfway: p1, now: p0)
        #expect(t.characteristic == expected, "\(p3) → \(p1) → \(p0)")
    }

    @Test func noiseIsSteadyWithNoChange() {
        let t = PressureTendency(threeHoursAgo: 1013.2, halfway: 1013.3, now: 1013.1)
        #expect(t.characteristic == .steady)
        #expect(t.change == 0)
        #expect(t.rate == .steady)
    }

    @Test(
        "the Met Office's bands, in tenths as reported",
        arguments: [
            (0.04, PressureTendency.Rate.steady), (0.1, .slowly), (1.54, .slowly), (1.6, .moderately), (3.5, .moderately),
            (3.6, .quickly), (6.0, .quickly), (6.1, .veryRapidly), (-3.6, .quickly), (-12, .veryRapidly),
        ])
    func rate(change: Double, expected: PressureTendency.Rate) {
        #expect(PressureTendency.Rate(threeHourChange: change) == expected)
    }

    /// The International Standard Atmosphere (ISO 2533): 954.61 hPa at 500 m, 898.76 hPa at
    /// 1000 m and 795.01 hPa at 2000 m, with 1013.25 hPa at sea level. Reduced with the
    /// standard atmosphere's own temperature, they must come back to 1013.25.
    @Test("the standard atmosphere reduces to 1013.25 hPa", arguments: [(0.0, 1013.25), (500.0, 954.61), (1000.0, 898.76), (2000.0, 795.01)])
    func standardAtmosphere(altitude: Double, station: Double) {
        let reduced = SeaLevelPressure.reduce(stationHectopascals: station, altitude: altitude)
        #expect(abs(reduced - 1013.25) < 0.15, "\(altitude) m: \(reduced)")
    }

    @Test func aWarmColumnWeighsLess() {
        let cold = SeaLevelPressure.reduce(stationHectopascals: 950, altitude: 500, outdoorCelsius: -10)
        let warm = SeaLevelPressure.reduce(stationHectopascals: 950, altitude: 500, outdoorCelsius: 30)
        #expect(cold > warm)
        #expect(abs(SeaLevelPressure.hectopascals(perMetres: 8) - 0.96) < 0.02)
    }

    static func at(_ minutes: Int) -> WallTime { WallTime(seconds: 1_790_000_000 + Int64(minutes) * 60) }

    @Test func theRingKeepsTheNewestInOrder() {
        var history = PressureHistory(capacity: 4)
        for i in 0..<6 {
            let taken = history.record(PressureSample(time: Self.at(i * 10), hectopascals: 1000 + Double(i)))
            #expect(taken)
        }
        #expect(history.count == 4)
        #expect((0..<4).map { history[$0].hectopascals } == [1002, 1003, 1004, 1005])
        let same = history.record(PressureSample(time: Self.at(50), hectopascals: 1))
        #expect(!same, "a sample at the same time was taken")
        let past = history.record(PressureSample(time: Self.at(10), hectopascals: 1))
        #expect(!past, "a sample from the past was taken")
        #expect(history.sample(near: Self.at(36), within: .seconds(300))?.hectopascals == 1004)
        #expect(history.sample(near: Self.at(34), within: .seconds(300))?.hectopascals == 1003)
        #expect(history.sample(near: Self.at(80), within: .seconds(300)) == nil)
    }

    /// 48 h of samples, every 10 minutes, falling `perHour` hPa an hour from `start` on.
    static func history(hours: Int, perHour: Double, from start: Double = 1015, quality: (Int) -> PressureSample.Quality = { _ in .good }) -> PressureHistory {
        var history = PressureHistory()
        for i in 0...(hours * 6) {
            history.record(PressureSample(time: at(i * 10), hectopascals: start - perHour * Double(i) / 6, quality: quality(i)))
        }
        return history
    }

    @Test func aTendencyNeedsThreeHours() {
        let short = Self.history(hours: 2, perHour: 1)
        #expect(short.tendency(at: Self.at(120)) == .unknown)
        let long = Self.history(hours: 3, perHour: 1)
        guard case .sure(let t) = long.tendency(at: Self.at(180)) else {
            Issue.record("no sure tendency: \(long.tendency(at: Self.at(180)))")
            return
        }
        #expect(t.characteristic == .decreasing)
        #expect(abs(t.change + 3) < 1e-9)
        #expect(t.rate == .moderately)
    }

    @Test func aMovingSampleMakesTheWindowUnsure() {
        // Sample 15 (150 minutes in) was taken moving.
        let history = Self.history(hours: 6, perHour: 2) { $0 == 15 ? .moving : .good }
        guard case .unsure(let tendency) = history.tendency(at: Self.at(200)) else {
            Issue.record("a window with a moving sample is not unsure: \(history.tendency(at: Self.at(200)))")
            return
        }
        #expect(tendency.characteristic == .decreasing)
        // Three hours after the move, the window is clear again.
        guard case .sure = history.tendency(at: Self.at(340)) else {
            Issue.record("\(history.tendency(at: Self.at(340)))")
            return
        }
    }

    @Test func aFallingGlassRaisesTheAlarmOnceAndAButtonClearsIt() {
        // A deepening low: steady for 6 h, then falling 1.5 hPa an hour for 6 h (4.5 hPa in
        // three hours: "falling quickly"), then steady again.
        var history = PressureHistory()
        var alarm = StormAlarm()
        var raised: [Int] = []
        var ended: [Int] = []
        var acknowledged = false
        for i in 0...(24 * 6) {
            let hour = Double(i) / 6
            let p = hour < 6 ? 1012 : hour < 12 ? 1012 - 1.5 * (hour - 6) : 1003
            history.record(PressureSample(time: Self.at(i * 10), hectopascals: p))
            switch alarm.update(history.tendency(at: Self.at(i * 10))) {
            case .raised?: raised.append(i)
            case .ended?: ended.append(i)
            case nil: break
            }
            if alarm.isShown, i == raised.first.map({ $0 + 6 }) {
                acknowledged = alarm.acknowledge()
            }
        }
        #expect(raised.count == 1, "raised at \(raised)")
        // 3.6 hPa fallen over three hours after 2.4 h of falling: at 6 h + 2 h 30 min it is 3.0 +
        // what fell before the start… the first instant the three-hour fall reaches 3.6 hPa.
        #expect(raised.first.map { Double($0) / 6 } ?? 0 >= 8.4 && raised.first.map { Double($0) / 6 } ?? 99 <= 9.1)
        #expect(acknowledged)
        #expect(!alarm.isShown)
        #expect(ended.count == 1, "the episode did not end after the fall: \(ended)")
    }

    @Test func aVeryRapidFallRaisesAgainAfterAnAcknowledgement() {
        var alarm = StormAlarm()
        func fall(_ change: Double, _ c: C = .decreasing) -> StormAlarm.Change? {
            alarm.update(.sure(PressureTendency(characteristic: c, change: change)))
        }
        #expect(fall(-4) == .raised(PressureTendency(characteristic: .decreasing, change: -4)))
        var acknowledged = alarm.acknowledge()
        #expect(acknowledged)
        #expect(fall(-5) == nil)
        #expect(fall(-7, .decreasingMoreRapidly) == .raised(PressureTendency(characteristic: .decreasingMoreRapidly, change: -7)))
        acknowledged = alarm.acknowledge()
        #expect(acknowledged)
        #expect(fall(-9) == nil)
        #expect(fall(-1, .steady) == .ended)
    }

    @Test func offOrUnsureRaisesNothing() {
        var off = StormAlarm(.init(enabled: false))
        let whenOff = off.update(.sure(PressureTendency(characteristic: .decreasing, change: -10)))
        #expect(whenOff == nil)
        var on = StormAlarm()
        let unsure = on.update(.unsure(PressureTendency(characteristic: .decreasing, change: -10)))
        let unknown = on.update(.unknown)
        #expect(unsure == nil && unknown == nil)
        #expect(!on.isShown)
    }

    /// A van drives up 600 m in 20 minutes under steady weather (1013.25 hPa at sea level, the
    /// standard atmosphere). The GPS heights are off by up to ±10 m, changing every fix. The
    /// reduced samples taken during the climb are marked moving, and no alarm is raised.
    @Test func aDriveUp600MetresRaisesNothing() {
        var track = AltitudeTrack()
        var history = PressureHistory()
        var alarm = StormAlarm()
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Double {  // SplitMix64, in ±10 m
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z % 2001) / 100 - 10
        }
        var moving = 0
        for second in 0..<(12 * 3600) {
            // Climb from 10 m to 610 m between 4 h and 4 h 20 min.
            let t = Double(second)
            let height = 10 + 600 * min(max((t - 4 * 3600) / 1200, 0), 1)
            track.add(height + noise(), at: Instant.zero + .seconds(Int64(second)))
            guard second % 600 == 599 else { continue }
            // The station pressure at that height in the standard atmosphere (ISO 2533).
            let station = 1013.25 * pow(1 - 0.0065 * height / 288.15, 5.255_88)
            guard let (altitude, still) = track.closeInterval() else { continue }
            let reduced = SeaLevelPressure.reduce(stationHectopascals: station, altitude: altitude)
            if !still { moving += 1 }
            history.record(PressureSample(time: Self.at(second / 60), hectopascals: reduced, quality: still ? .good : .moving))
            let change = alarm.update(history.tendency(at: Self.at(second / 60)))
            #expect(change == nil, "an alarm at \(second) s")
        }
        #expect(moving >= 2, "the climb was not seen: \(moving) moving samples")
        #expect(!alarm.isShown)
        // After the climb the reduced value is back near 1013.25 (within the smoothed GPS error).
        let last = history.latest?.hectopascals ?? 0
        #expect(abs(last - 1013.25) < 1.5, "\(last)")
    }
}
