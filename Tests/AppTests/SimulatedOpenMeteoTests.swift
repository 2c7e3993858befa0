import App
import HAL
import Testing
import Weather

/// The simulated Open-Meteo read by the real `OpenMeteoService`: the answer has everything the
/// device asks for, plausible values, the place's time, and is the same forecast in any units.
@Suite("Simulated Open-Meteo")
struct SimulatedOpenMeteoTests {
    static let service = OpenMeteoService(identity: ClientIdentity(contact: "test@example.org"))

    struct Place: Sendable, CustomTestStringConvertible {
        var name: String
        var latitude: Double
        var longitude: Double
        var zoneName: String
        var zone: @Sendable () -> ZoneRules
        var time: String
        var testDescription: String { "\(name) at \(time)" }
    }

    static let places = [
        Place(name: "Berlin in winter", latitude: 52.52, longitude: 13.41, zoneName: "Europe/Berlin", zone: TestZones.berlin, time: "2026-01-15T07:20:00Z"),
        Place(name: "Berlin in summer", latitude: 52.52, longitude: 13.41, zoneName: "Europe/Berlin", zone: TestZones.berlin, time: "2026-07-04T13:05:00Z"),
        Place(name: "Sydney in summer", latitude: -33.87, longitude: 151.21, zoneName: "Australia/Sydney", zone: TestZones.sydney, time: "2026-01-10T02:00:00Z"),
        Place(name: "Sydney in winter", latitude: -33.87, longitude: 151.21, zoneName: "Australia/Sydney", zone: TestZones.sydney, time: "2026-07-10T21:45:00Z"),
        Place(name: "Tromsø in the polar night", latitude: 69.65, longitude: 18.96, zoneName: "Europe/Oslo", zone: TestZones.oslo, time: "2026-12-15T11:00:00Z"),
        Place(name: "Tromsø under the midnight sun", latitude: 69.65, longitude: 18.96, zoneName: "Europe/Oslo", zone: TestZones.oslo, time: "2026-06-21T22:30:00Z"),
    ]

    static func transport(_ place: Place, at time: WallTime, seed: UInt64 = 1) -> SimulatedOpenMeteo {
        SimulatedOpenMeteo(now: { time }, zone: place.zone(), zoneName: place.zoneName, seed: seed)
    }

    /// Request, simulated answer, real decoder.
    static func fetch(_ place: Place, at time: WallTime, units: RequestUnits = .metric, seed: UInt64 = 1) throws -> WeatherReport {
        var transport = transport(place, at: time, seed: seed)
        let order = FetchOrder(position: try Coordinate(latitude: place.latitude, longitude: place.longitude), units: units)
        let response = try transport.send(service.request(for: order)).get()
        #expect(response.status == 200)
        guard case .report(let report, _) = try service.decode(response, for: order, receivedAt: time).get() else {
            throw WeatherError.malformed("not a report")
        }
        return report
    }

    @Test("the real decoder reads it: current, 96 hours from 48 before the current hour, 3 days, the zone", arguments: places)
    func decodes(place: Place) throws {
        let time = WallTime.utc(place.time)
        let report = try Self.fetch(place, at: time)
        let offset = place.zone().offset(at: time)
        #expect(report.provider == .openMeteo)
        #expect(report.timeZone == place.zoneName)
        #expect(report.utcOffsetSeconds == offset)
        #expect(abs(report.latitude - place.latitude) < 0.01 && abs(report.longitude - place.longitude) < 0.01)

        let now = try #require(report.current)
        #expect(now.time <= time && time - now.time < .seconds(900), "the 15-minute slot of now")
        #expect((now.time.seconds + Int64(offset)) % 900 == 0)
        #expect(now.temperature != nil && now.apparentTemperature != nil && now.condition != nil)
        #expect(now.humidity.map { (15...100).contains($0) } == true)
        #expect(now.pressure.map { (980...1040).contains($0) } == true)
        #expect(now.windSpeed.map { (0...30).contains($0) } == true)
        #expect(now.windDirection.map { (0..<360).contains($0) } == true)
        #expect(now.precipitation.map { $0 >= 0 } == true)

        #expect(report.hours.count == 96)
        let local = time.seconds + Int64(offset)
        let hour = local - local % 3_600 - Int64(offset)
        #expect(report.hours.first?.time == WallTime(seconds: hour - 48 * 3_600))
        #expect(zip(report.hours, report.hours.dropFirst()).allSatisfy { $1.time - $0.time == .seconds(3_600) })
        #expect(report.hours.allSatisfy { $0.temperature != nil && $0.condition != nil && $0.precipitationChance != nil })

        #expect(report.days.count == 3)
        #expect(report.days.first?.date == localTime(time, in: place.zone()).date)
        let temperatures = [now.temperature, now.apparentTemperature].compactMap { $0 } + report.hours.compactMap(\.temperature)
            + report.days.flatMap { [$0.low, $0.high] }.compactMap { $0 }
        #expect(temperatures.allSatisfy { (-40...50).contains($0) }, "\(temperatures)")
        for day in report.days {
            let low = try #require(day.low), high = try #require(day.high)
            #expect(low <= high)
        }
    }

    @Test("Tromsø in December: no sunrise, every hour night; in June: no sunset, every hour day")
    func polar() throws {
        let night = try Self.fetch(Self.places[4], at: .utc(Self.places[4].time))
        #expect(night.days.allSatisfy { $0.sun == .polarNight })
        #expect(night.hours.allSatisfy { $0.condition?.isNight == true })
        #expect(night.current?.condition?.isNight == true)
        let day = try Self.fetch(Self.places[5], at: .utc(Self.places[5].time))
        #expect(day.days.allSatisfy { $0.sun == .midnightSun })
        #expect(day.hours.allSatisfy { $0.condition?.isNight == false })
        // Berlin: the sun rises and sets, and the hours between are day.
        let berlin = try Self.fetch(Self.places[0], at: .utc(Self.places[0].time))
        guard case .times(let sunrise, let sunset) = berlin.days[0].sun else {
            Issue.record("Berlin has a sunrise: \(berlin.days[0].sun)")
            return
        }
        #expect(sunrise == .utc("2026-01-15T07:09:00Z") || abs((sunrise - .utc("2026-01-15T07:09:00Z")).components.seconds) <= 120)
        #expect(abs((sunset - .utc("2026-01-15T15:24:00Z")).components.seconds) <= 120)
        for hour in SimulatedOpenMeteoValueTests.today(berlin) {
            #expect(hour.condition?.isNight == !(sunrise <= hour.time && hour.time < sunset))
        }
    }
}

/// The simulated weather's shape, units, determinism, and the network switch.
@Suite("Simulated Open-Meteo: values and failures")
struct SimulatedOpenMeteoValueTests {
    typealias Base = SimulatedOpenMeteoTests
    static let berlin = Base.places[1]

    /// The local hour `hour` of `report`'s hourly block on day `day` (0 = the fetch's day).
    static func hour(_ report: WeatherReport, day: Int, _ hour: Int) -> HourlyPoint? {
        let offset = Int64(report.utcOffsetSeconds)
        let local = report.fetchedAt.seconds + offset
        let midnight = local - local % 86_400 - offset
        let time = WallTime(seconds: midnight + Int64(day * 86_400 + hour * 3_600))
        return report.hours.first { $0.time == time }
    }

    /// The 24 hours of the fetch's local day (the block starts 48 hours before the fetch).
    static func today(_ report: WeatherReport) -> [HourlyPoint] { (0..<24).compactMap { hour(report, day: 0, $0) } }

    @Test("on a clear day the afternoon is warmer than the early morning, by several degrees", arguments: [0, 1])
    func clearDays(placeIndex: Int) throws {
        // Berlin in summer, Sydney in summer; 60 fetches a day apart find clear days to check:
        // clear sky or a few clouds (WMO 0, 1) from 03:00 to 18:00.
        let place = [Base.places[1], Base.places[2]][placeIndex]
        let start = WallTime.utc(place.time)
        var clearDays = 0
        for dayOffset in 0..<60 {
            let report = try Base.fetch(place, at: start + .seconds(86_400 * Int64(dayOffset)))
            let today = Self.today(report)
            try #require(today.count == 24)
            guard today[3...18].allSatisfy({ $0.condition?.code == "0" || $0.condition?.code == "1" }) else { continue }
            clearDays += 1
            let early = try #require(Self.hour(report, day: 0, 5)?.temperature)
            let afternoon = try #require(Self.hour(report, day: 0, 15)?.temperature)
            #expect(afternoon >= early + 4, "\(place.name) +\(dayOffset) d: 05:00 \(early) °C, 15:00 \(afternoon) °C")
            let coolest = try #require(today.compactMap(\.temperature).min())
            let coolestHour = try #require(today.firstIndex { $0.temperature == coolest })
            #expect((3...8).contains(coolestHour), "coolest near sunrise, at \(coolestHour):00")
        }
        #expect(clearDays >= 3, "the 60 days hold clear days")
    }

    @Test("the seasons: Berlin's July is warmer than its January, Sydney's the other way round")
    func seasons() throws {
        func mean(_ place: Base.Place, _ time: String) throws -> Double {
            var total = 0.0
            for week in 0..<4 {
                let report = try Base.fetch(place, at: .utc(time) + .seconds(7 * 86_400 * Int64(week)))
                total += Self.today(report).compactMap(\.temperature).reduce(0, +) / 24
            }
            return total / 4
        }
        let berlin = Base.places[0], sydney = Base.places[2]
        #expect(try mean(berlin, "2026-07-01T12:00:00Z") > mean(berlin, "2026-01-05T12:00:00Z") + 10)
        #expect(try mean(sydney, "2026-01-05T12:00:00Z") > mean(sydney, "2026-07-01T12:00:00Z") + 4)
        #expect(try mean(Base.places[4], "2026-12-01T12:00:00Z") < mean(berlin, "2026-12-01T12:00:00Z"))
    }

    @Test("°F, mp/h and inch decode to the same SI values as °C, km/h and mm (±0.1)", arguments: [0, 2, 4])
    func imperial(placeIndex: Int) throws {
        let place = Base.places[placeIndex]
        for days in [0, 3, 11] {
            let time = WallTime.utc(place.time) + .seconds(86_400 * Int64(days))
            let metric = try Base.fetch(place, at: time)
            let imperial = try Base.fetch(place, at: time, units: .imperial)
            func close(_ a: Double?, _ b: Double?, _ what: String) {
                guard let a, let b else { return #expect(a == nil && b == nil, "\(what): \(String(describing: a)) vs \(String(describing: b))") }
                #expect(abs(a - b) <= 0.1, "\(what): \(a) vs \(b)")
            }
            let m = try #require(metric.current), i = try #require(imperial.current)
            close(m.temperature, i.temperature, "temperature")
            close(m.apparentTemperature, i.apparentTemperature, "apparent temperature")
            close(m.windSpeed, i.windSpeed, "wind")
            close(m.precipitation, i.precipitation, "precipitation")
            #expect(m.condition == i.condition && m.humidity == i.humidity && m.pressure == i.pressure)
            #expect(metric.hours.count == imperial.hours.count && metric.days.count == imperial.days.count)
            for (a, b) in zip(metric.hours, imperial.hours) {
                close(a.temperature, b.temperature, "hourly temperature at \(a.time.seconds)")
                #expect(a.condition == b.condition && a.precipitationChance == b.precipitationChance)
            }
            for (a, b) in zip(metric.days, imperial.days) {
                close(a.low, b.low, "low")
                close(a.high, b.high, "high")
                #expect(a.sun == b.sun)
            }
        }
    }

    @Test("the body: Open-Meteo's keys in order, the units asked for, the zone's offset and abbreviation")
    func bodyFormat() throws {
        let time = WallTime.utc("2026-01-15T07:20:00Z")
        var transport = Base.transport(Base.places[0], at: time)
        let order = FetchOrder(position: try Coordinate(latitude: 52.52, longitude: 13.41))
        let metric = String(decoding: try transport.send(Base.service.request(for: order)).get().body, as: UTF8.self)
        #expect(metric.hasPrefix("{\"latitude\":52.52,\"longitude\":13.41,\"generationtime_ms\":0."))
        #expect(metric.contains(",\"utc_offset_seconds\":3600,\"timezone\":\"Europe/Berlin\",\"timezone_abbreviation\":\"GMT+1\",\"elevation\":"))
        #expect(metric.contains("\"current_units\":{\"time\":\"iso8601\",\"interval\":\"seconds\",\"temperature_2m\":\"°C\",\"relative_humidity_2m\":\"%\""))
        #expect(metric.contains("\"current\":{\"time\":\"2026-01-15T08:15\",\"interval\":900,\"temperature_2m\":"))
        #expect(metric.contains("\"hourly\":{\"time\":[\"2026-01-13T08:00\",\"2026-01-13T09:00\","))
        #expect(metric.contains("\"daily\":{\"time\":[\"2026-01-15\",\"2026-01-16\",\"2026-01-17\"],\"weather_code\":["))
        #expect(metric.contains("\"wind_speed_10m\":\"km/h\"") && metric.contains("\"precipitation_sum\":\"mm\""))
        #expect(!metric.contains(", ") && !metric.contains(": ") && metric.hasSuffix("]}}"), "no whitespace between tokens")
        var imperial = FetchOrder(position: order.position, units: .imperial)
        imperial.units = .imperial
        let text = String(decoding: try transport.send(Base.service.request(for: imperial)).get().body, as: UTF8.self)
        #expect(text.contains("\"temperature_2m\":\"°F\"") && text.contains("\"wind_speed_10m\":\"mp/h\"")
            && text.contains("\"precipitation\":\"inch\""))
        #expect(transport.requestCount == 2)

        // Polar night: sunrise and sunset at the day's 00:00; midnight sun: 00:00 to the next 00:00.
        let tromso = Base.places[4], june = Base.places[5]
        var north = Base.transport(tromso, at: .utc(tromso.time))
        let polar = String(decoding: try north.send(Base.service.request(for: FetchOrder(
            position: try Coordinate(latitude: tromso.latitude, longitude: tromso.longitude)))).get().body, as: UTF8.self)
        #expect(polar.contains("\"sunrise\":[\"2026-12-15T00:00\",") && polar.contains("\"sunset\":[\"2026-12-15T00:00\","))
        var summer = Base.transport(june, at: .utc(june.time))
        let light = String(decoding: try summer.send(Base.service.request(for: FetchOrder(
            position: try Coordinate(latitude: june.latitude, longitude: june.longitude)))).get().body, as: UTF8.self)
        #expect(light.contains("\"sunrise\":[\"2026-06-22T00:00\",") && light.contains("\"sunset\":[\"2026-06-23T00:00\","))
    }

    @Test("one offset for the whole body, the one at the request: across the spring DST change the hours stay 1 h apart")
    func daylightSaving() throws {
        let place = Base.places[0]
        let before = try Base.fetch(place, at: .utc("2026-03-28T22:00:00Z"))  // 23:00 CET, the night before
        #expect(before.utcOffsetSeconds == 3600)
        #expect(before.hours[0].time == .utc("2026-03-26T22:00:00Z"))  // 23:00 CET, 48 hours back
        #expect(zip(before.hours, before.hours.dropFirst()).allSatisfy { $1.time - $0.time == .seconds(3_600) })
        let after = try Base.fetch(place, at: .utc("2026-03-29T02:00:00Z"))  // 04:00 CEST
        #expect(after.utcOffsetSeconds == 7200)
        #expect(after.hours[0].time == .utc("2026-03-27T02:00:00Z"))  // 04:00 at the body's one offset, +2
    }

    @Test("the same place, time and seed give the same answer; another seed other weather; a few metres change nothing")
    func determinism() throws {
        let time = WallTime.utc(Self.berlin.time)
        let order = FetchOrder(position: try Coordinate(latitude: 52.52, longitude: 13.41))
        var a = Base.transport(Self.berlin, at: time), b = Base.transport(Self.berlin, at: time)
        #expect(try a.send(Base.service.request(for: order)).get() == b.send(Base.service.request(for: order)).get())
        var seeds: Set<[Double?]> = []
        for seed: UInt64 in 1...6 {
            let report = try Base.fetch(Self.berlin, at: time, seed: seed)
            seeds.insert(report.hours.map(\.temperature))
        }
        #expect(seeds.count == 6)
        var near = Self.berlin
        near.latitude += 0.01
        near.longitude -= 0.01
        let here = try Base.fetch(Self.berlin, at: time), there = try Base.fetch(near, at: time)
        #expect(here.hours.map(\.condition) == there.hours.map(\.condition))
        #expect(zip(here.hours, there.hours).allSatisfy { abs($0.temperature! - $1.temperature!) < 0.3 })
    }

    @Test("with the network down, every request fails as an unresolvable name does, and is counted")
    func unreachable() throws {
        let time = WallTime.utc(Self.berlin.time)
        var transport = Base.transport(Self.berlin, at: time)
        let request = Base.service.request(for: FetchOrder(position: try Coordinate(latitude: 52.52, longitude: 13.41)))
        transport.isReachable = false
        let result = transport.send(request)
        #expect(result == .failure(SimulatedOpenMeteo.networkDown))
        guard case .failure(let error) = result else { return }
        #expect(error.kind == .hostNotFound)
        #expect(transport.requestCount == 1)
        transport.isReachable = true
        #expect(try transport.send(request).get().status == 200)
        #expect(transport.requestCount == 2)
    }

    @Test("what the real service refuses is refused: unknown variable, bad latitude, bad unit, other paths")
    func refusals() throws {
        var transport = Base.transport(Self.berlin, at: .utc(Self.berlin.time))
        func answer(_ url: String) -> (Int, String) {
            let response = try? transport.send(HTTPRequest(url: url)).get()
            return (response?.status ?? 0, String(decoding: response?.body ?? [], as: UTF8.self))
        }
        let base = "https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41"
        let unknown = answer(base + "&hourly=tempeture_2m")
        #expect(unknown.0 == 400)
        #expect(unknown.1 == "{\"error\":true,\"reason\":\"Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly\"}")
        let decoded = Base.service.decode(
            HTTPResponse(status: unknown.0, body: Array(unknown.1.utf8)),
            for: FetchOrder(position: try! Coordinate(latitude: 52.52, longitude: 13.41)), receivedAt: .utc(Self.berlin.time))
        #expect(decoded == .failure(.badRequest(status: 400, reason: "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly")))
        #expect(answer("https://api.open-meteo.com/v1/forecast?latitude=91&longitude=0").1.contains("Latitude must be in range of -90 to 90°"))
        #expect(answer("https://api.open-meteo.com/v1/forecast?longitude=0").0 == 400)
        #expect(answer(base + "&temperature_unit=kelvin").1.contains("invalid String value kelvin for key temperature_unit"))
        #expect(answer(base + "&forecast_days=17").0 == 400)
        #expect(answer(base + "&timezone=Mars%2FOlympus").1.contains("Invalid timezone Mars/Olympus"))
        #expect(answer("https://api.open-meteo.com/v1/archive?latitude=1&longitude=2").0 == 404)
        // Percent-encoded commas and forecast_hours: the hourly block starts at the current hour.
        let hours = answer(base + "&hourly=temperature_2m%2Cis_day&forecast_hours=6&timezone=auto")
        #expect(hours.0 == 200 && hours.1.contains("\"hourly\":{\"time\":[\"2026-07-04T15:00\","))
        #expect(hours.1.contains("\"is_day\":[1,1,1,1,1,1]"))
        // Without a zone every time is GMT.
        #expect(answer(base + "&current=temperature_2m").1.contains("\"utc_offset_seconds\":0,\"timezone\":\"GMT\",\"timezone_abbreviation\":\"GMT\""))
    }
}
