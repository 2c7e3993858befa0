import App
import HAL
import Testing
import Weather

/// What the pressure history and the 15-minute steps cost, measured on the twin's bodies (the
/// twin follows the server's `getTimerange2` for the past and 15-minute counts): the device's
/// request against the one without them and against the alternatives it did not take.
@Suite("Simulated Open-Meteo: the cost of the pressure history")
struct SimulatedOpenMeteoCostTests {
    typealias Base = SimulatedOpenMeteoTests

    /// Berlin at 08:20 CET, the body of `url` and its decoded report.
    static func answer(_ url: String) throws -> (bytes: Int, report: WeatherReport) {
        let place = Base.places[0], time = WallTime.utc(place.time)
        var transport = Base.transport(place, at: time)
        let response = try transport.send(HTTPRequest(url: url)).get()
        try #require(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let order = FetchOrder(position: try Coordinate(latitude: place.latitude, longitude: place.longitude))
        guard case .report(let report, _) = try Base.service.decode(response, for: order, receivedAt: time).get() else {
            throw WeatherError.malformed("not a report")
        }
        return (response.body.count, report)
    }

    static let head = "https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41"
        + "&current=temperature_2m,relative_humidity_2m,apparent_temperature,is_day,precipitation,weather_code,pressure_msl,wind_speed_10m,wind_direction_10m"
    static let daily = "&daily=weather_code,temperature_2m_max,temperature_2m_min,sunrise,sunset,precipitation_sum&timezone=auto&forecast_days=3"
    static let minutely = "&minutely_15=precipitation,rain,snowfall,wind_gusts_10m,weather_code&forecast_minutely_15=12"

    @Test("past_hours=48 with forecast_hours=48 is the cheapest 48 hours of history; past_hours alone is 16 days")
    func cost() throws {
        let device = try Self.answer(Base.service.request(
            for: FetchOrder(position: try Coordinate(latitude: 52.52, longitude: 13.41))).url)
        let before = try Self.answer(Self.head + "&hourly=temperature_2m,precipitation_probability,weather_code,is_day" + Self.daily)
        let hourly = "&hourly=temperature_2m,precipitation_probability,weather_code,is_day,pressure_msl"
        let pastDays = try Self.answer(Self.head + hourly + Self.daily + "&past_days=2" + Self.minutely)
        let alone = try Self.answer(Self.head + hourly + Self.daily + "&past_hours=48" + Self.minutely)
        let noCount = try Self.answer(Self.head + hourly + Self.daily + "&past_hours=48&forecast_hours=48"
            + "&minutely_15=precipitation,rain,snowfall,wind_gusts_10m,weather_code")

        #expect(before.report.hours.count == 72 && before.report.pressures.isEmpty && before.report.nowcast.isEmpty)
        #expect(device.report.hours.count == 96 && device.report.nowcast.count == 12 && device.report.days.count == 3)
        // past_days counts from local midnight and adds two daily rows: 48 + 8 hours back here.
        #expect(pastDays.report.hours.count == 120 && pastDays.report.days.count == 5)
        #expect(WallTime.utc(Base.places[0].time) - pastDays.report.pressures[0].time == .seconds(56 * 3_600 + 20 * 60))
        // past_hours without forecast_hours: the server's default forecast side is forecastDaysMax × 24.
        #expect(alone.report.hours.count == 48 + 16 * 24)
        // minutely_15 without a count: three days from local midnight.
        #expect(noCount.report.nowcast.count == 288)
        #expect(device.bytes < pastDays.bytes && pastDays.bytes < alone.bytes && device.bytes < noCount.bytes)
        print("Open-Meteo body bytes (simulated Berlin, 2026-01-15 08:20 CET): without pressure and 15-minute steps \(before.bytes), "
            + "device's request \(device.bytes), past_days=2 \(pastDays.bytes), past_hours=48 alone \(alone.bytes), "
            + "minutely_15 without forecast_minutely_15 \(noCount.bytes)")
    }

    @Test("the twin refuses out-of-range past and 15-minute counts as the server does")
    func refusals() throws {
        var transport = Base.transport(Base.places[0], at: .utc(Base.places[0].time))
        func reason(_ query: String) -> String {
            let response = try? transport.send(HTTPRequest(url: Self.head + query)).get()
            #expect(response?.status == 400)
            return String(decoding: response?.body ?? [], as: UTF8.self)
        }
        #expect(reason("&past_days=93").contains("Past days is invalid. Allowed range 0 to 92. Given 93."))
        #expect(reason("&past_hours=-1").contains("Past days is invalid. Allowed range 0 to 2208."))
        #expect(reason("&forecast_minutely_15=2000").contains("Forecast days is invalid. Allowed range 0 to 1536."))
    }
}
