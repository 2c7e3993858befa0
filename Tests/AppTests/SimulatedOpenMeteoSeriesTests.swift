import App
import HAL
import Testing
import Weather

/// The barograph's and the next-hours line's fields in the simulated Open-Meteo: 48 hours of sea-level pressure behind the
/// fetch and 48 ahead, with fronts passing; 15-minute precipitation for the next hours; the
/// request's cost measured on the twin's bodies; the disk cache keeping all of it.
@Suite("Simulated Open-Meteo: pressure and 15-minute data")
struct SimulatedOpenMeteoSeriesTests {
    typealias Base = SimulatedOpenMeteoTests
    static let berlin = Base.places[0]

    @Test("96 hourly pressures from 48 h back, 12 quarter-hour steps from the one just ended", arguments: [0, 2, 4])
    func shape(placeIndex: Int) throws {
        let place = Base.places[placeIndex]
        let time = WallTime.utc(place.time)
        let report = try Base.fetch(place, at: time)
        try #require(report.pressures.count == 96)
        #expect(report.pressures.first?.time == report.hours.first?.time && report.pressures.last?.time == report.hours.last?.time)
        #expect(report.pressures.allSatisfy { $0.hectopascals.map { (975...1045).contains($0) } == true })
        #expect(time - report.pressures[0].time >= .seconds(48 * 3_600), "at least 48 hours of history")
        try #require(report.nowcast.count == 12)
        #expect(report.nowcast[0].start <= time - .seconds(900) && report.nowcast[0].end > time - .seconds(900))
        #expect(zip(report.nowcast, report.nowcast.dropFirst()).allSatisfy { $0.end == $1.start })
        #expect(try #require(report.nowcast.last).end - time >= .seconds(150 * 60), "the next two hours, and more")
        #expect(report.nowcast.allSatisfy {
            $0.precipitation != nil && $0.rain != nil && $0.snowfall != nil && $0.windGusts != nil && $0.condition != nil
        })
    }

    @Test("a front passes: within 30 days, a fall of 3 hPa or more in 12 hours that recovers within the next day")
    func fronts() throws {
        var fronts = 0
        for day in 0..<30 {
            let report = try Base.fetch(Self.berlin, at: .utc(Self.berlin.time) + .seconds(86_400 * Int64(day)))
            let values = report.pressures.compactMap(\.hectopascals)
            try #require(values.count == 96)
            // From the fetch's hour (index 48): the lowest point of the next day, and where it was 12 h before.
            let window = values[36..<72]
            guard let low = window.min(), let at = window.firstIndex(of: low), at >= 36 + 12, at + 12 < values.count else { continue }
            if values[at - 12] - low >= 3 && values[at + 12] - low >= 1 { fronts += 1 }
        }
        #expect(fronts >= 2, "\(fronts) fronts in 30 days")
    }

    @Test("15-minute precipitation: wet steps exist, and each is rain or snow (rain plus snow as water is the precipitation)")
    func quarterHours() throws {
        var wet = 0
        for day in 0..<30 {
            let time = WallTime.utc(Self.berlin.time) + .seconds(86_400 * Int64(day) + 3_600 * Int64(day % 24))
            let report = try Base.fetch(Self.berlin, at: time)
            for step in report.nowcast {
                let water = try #require(step.precipitation), rain = try #require(step.rain)
                let snow = try #require(step.snowfall)
                #expect(water >= 0 && rain >= 0 && snow >= 0)
                // Snow is kept as depth, 7 cm (70 mm) of it for 10 mm of water; both rounded by the body.
                #expect(abs(rain + snow / 7 - water) <= 0.02, "\(step)")
                if water > 0 { wet += 1 }
            }
        }
        #expect(wet >= 5, "\(wet) wet quarter-hours in 30 fetches")
    }

    @Test("inch and mp/h give the same 15-minute values as mm, cm and km/h")
    func imperial() throws {
        for day in [0, 5, 9] {
            let time = WallTime.utc(Self.berlin.time) + .seconds(86_400 * Int64(day))
            let metric = try Base.fetch(Self.berlin, at: time), imperial = try Base.fetch(Self.berlin, at: time, units: .imperial)
            #expect(metric.pressures == imperial.pressures)
            for (a, b) in zip(metric.nowcast, imperial.nowcast) {
                #expect(a.start == b.start && a.condition == b.condition)
                // cm with 2 decimals is 0.1 mm of snow, inch with 3 is 0.025 mm.
                #expect(abs(a.precipitation! - b.precipitation!) <= 0.02 && abs(a.snowfall! - b.snowfall!) <= 0.08)
                #expect(abs(a.windGusts! - b.windGusts!) <= 0.05)
            }
        }
    }

    @Test("the disk cache keeps the body, and the body decodes to the same pressures and steps")
    func cacheRoundTrip() throws {
        let time = WallTime.utc(Self.berlin.time)
        var transport = Base.transport(Self.berlin, at: time)
        let order = FetchOrder(position: try Coordinate(latitude: Self.berlin.latitude, longitude: Self.berlin.longitude))
        let response = try transport.send(Base.service.request(for: order)).get()
        guard case .report(let fetched, _) = try Base.service.decode(response, for: order, receivedAt: time).get() else {
            throw WeatherError.malformed("not a report")
        }
        let cache = WeatherCache(provider: .openMeteo, fetchedAt: time, position: order.position, lastModified: nil, body: response.body)
        let restored = try WeatherCache.decode(cache.encoded).get()
        let reread = HTTPResponse(status: 200, body: restored.body)
        guard case .report(let report, _) = try Base.service.decode(reread, for: order, receivedAt: restored.fetchedAt).get() else {
            throw WeatherError.malformed("not a report")
        }
        #expect(report == fetched)
        #expect(report.pressures.count == 96 && report.nowcast.count == 12)
    }
}
