import HAL
import Testing
@testable import Weather

/// Weather codes and MET symbols → the nine icon groups of WMO code table 4677; docs/design/parts.md#weather-codes.
@Suite("Condition groups")
struct ConditionTests {
    @Test("every WMO code Open-Meteo documents maps to its §5 group", arguments: [
        (0, ConditionGroup.clear), (1, .partlyCloudy), (2, .partlyCloudy), (3, .cloudy), (45, .fog), (48, .fog),
        (51, .drizzle), (53, .drizzle), (55, .drizzle), (56, .drizzle), (57, .drizzle),
        (61, .rain), (63, .rain), (65, .rain), (66, .rain), (67, .rain),
        (71, .snow), (73, .snow), (75, .snow), (77, .snow), (85, .snow), (86, .snow),
        (80, .showers), (81, .showers), (82, .showers), (95, .thunderstorm), (96, .thunderstorm), (99, .thunderstorm),
    ])
    func documented(code: Int, group: ConditionGroup) {
        #expect(Condition(wmo: code, isNight: false)?.group == group)
        #expect(Condition(wmo: code, isNight: true)?.isNight == true)
    }

    @Test("other codes fall back by their WMO 4677 decade; outside 0–99 there is none")
    func decades() {
        let expected: [(ClosedRange<Int>, ConditionGroup?)] = [
            (4...39, .cloudy), (40...44, .fog), (46...47, .fog), (49...49, .fog), (50...50, .drizzle), (58...59, .drizzle),
            (60...60, .rain), (68...69, .rain), (70...70, .snow), (78...79, .snow), (83...84, .showers),
            (87...90, .showers), (91...94, .thunderstorm), (97...98, .thunderstorm),
        ]
        for (codes, group) in expected {
            for code in codes { #expect(Condition(wmo: code, isNight: false)?.group == group, "code \(code)") }
        }
        for code in [-1, 100, 255, Int.max] { #expect(Condition(wmo: code, isNight: false) == nil) }
        #expect(Condition(wmo: 42, isNight: false)?.code == "42")
    }

    @Test("all 41 MET base symbols map, with day, night and polar-twilight variants")
    func metSymbols() {
        #expect(Condition.metGroups.count == 43)  // the 41 of the schema + its 2 misspellings
        let samples: [(String, ConditionGroup)] = [
            ("clearsky", .clear), ("fair", .partlyCloudy), ("partlycloudy", .partlyCloudy), ("cloudy", .cloudy),
            ("fog", .fog), ("lightrain", .rain), ("heavyrain", .rain), ("sleet", .rain), ("lightsleet", .rain),
            ("snow", .snow), ("lightsnow", .snow), ("heavysnowshowers", .snow), ("rainshowers", .showers),
            ("lightsleetshowers", .showers), ("rainandthunder", .thunderstorm), ("heavysnowshowersandthunder", .thunderstorm),
            ("lightssleetshowersandthunder", .thunderstorm), ("lightssnowshowersandthunder", .thunderstorm),
        ]
        for (name, group) in samples {
            #expect(Condition(metSymbol: name)?.group == group, "\(name)")
        }
        #expect(Condition(metSymbol: "fair_night") == Condition(group: .partlyCloudy, isNight: true, code: "fair"))
        #expect(Condition(metSymbol: "clearsky_day") == Condition(group: .clear, isNight: false, code: "clearsky"))
        #expect(Condition(metSymbol: "rainshowers_polartwilight")?.isNight == false)
    }

    @Test("unknown MET names fall back by their words, thunder first, or give nil")
    func metFallback() {
        #expect(Condition(metSymbol: "extremerainandthunder_day")?.group == .thunderstorm)
        #expect(Condition(metSymbol: "wetsnow")?.group == .snow)
        #expect(Condition(metSymbol: "extremerainshowers")?.group == .showers)
        #expect(Condition(metSymbol: "freezingrain")?.group == .rain)
        #expect(Condition(metSymbol: "sandstorm") == nil)
        #expect(Condition(metSymbol: "") == nil)
    }
}
