// libFuzzer entry point for the weather response decoders: an untrusted HTTP answer →
// `OpenMeteoService` / `METNorwayService` `.decode` → the screens' `Forecast`.
//
// Input layout: byte 0 picks the provider (bit 0) and the status (bits 1–3: 200, 203, 304, 400,
// 403, 429, 500, 503); bytes 1… are the body. The invariants, each a crash with its reason:
// - Decoding never traps and is deterministic.
// - A report holds only finite numbers, a position in range, MET steps in time order.
// - Every error is one line (the log and the status screen show it as one).
// - The disk cache round-trips the body, and decoding the cached copy gives the same report.
// - The screens' `Forecast` of any report, at any hour of the forecast's days, does not trap.

import HAL
import Screens
import Weather

@inline(__always)
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = "", line: UInt = #line) {
    if !condition() { fatalError("weather invariant broken: \(message())", line: line) }
}

let identity = ClientIdentity(contact: "fuzz@example.org")
let openMeteo = OpenMeteoService(identity: identity)
let metNorway = METNorwayService(identity: identity, zone: ZoneRules.parse(posix: "CET-1CEST,M3.5.0,M10.5.0/3")!)
let statuses = [200, 203, 304, 400, 403, 429, 500, 503]
let received = WallTime(seconds: 1_768_461_485)  // 2026-01-15T07:18:05Z
let order = FetchOrder(position: try! Coordinate(latitude: 59.91, longitude: 10.75))

func finite(_ value: Double?) -> Bool { value.map { $0.isFinite } ?? true }

func check(_ report: WeatherReport) {
    invariant(report.position != nil, "position")
    if let now = report.current {
        for value in [now.temperature, now.apparentTemperature, now.humidity, now.precipitation, now.pressure, now.cloudCover,
                      now.windSpeed, now.windDirection, now.windGusts] { invariant(finite(value), "current value") }
    }
    for hour in report.hours { invariant(finite(hour.temperature) && finite(hour.precipitation), "hourly value") }
    for day in report.days { invariant(finite(day.low) && finite(day.high) && finite(day.precipitation), "daily value") }
    for point in report.pressures { invariant(finite(point.hectopascals), "pressure value") }
    for step in report.nowcast {
        invariant(step.length > .zero, "nowcast step without length")
        for value in [step.precipitation, step.rain, step.snowfall, step.windGusts] { invariant(finite(value), "nowcast value") }
    }
    if report.provider == .metNorway {
        invariant(zip(report.hours, report.hours.dropFirst()).allSatisfy { $0.time <= $1.time }, "MET steps out of order")
        invariant(zip(report.pressures, report.pressures.dropFirst()).allSatisfy { $0.time <= $1.time }, "MET pressures out of order")
    }
    // The screens at the fetch, in a day, and beyond the horizon.
    for offset in [0, 3600 * 5, 86_400, 86_400 * 3] {
        let now = report.fetchedAt + .seconds(offset)
        for zone in [ZoneRules.utc, .fixed(offsetSeconds: report.utcOffsetSeconds, identifier: "fixed")] {
            _ = Forecast(report: report, now: now, zone: zone)
        }
    }
}

func decode<Service: WeatherService>(_ service: Service, _ response: HTTPResponse) {
    let first = service.decode(response, for: order, receivedAt: received)
    let second = service.decode(response, for: order, receivedAt: received)
    invariant(same(first, second), "decoding is not deterministic")
    switch first {
    case .failure(let error):
        invariant(!error.description.contains("\n") && !error.shortText.isEmpty, "error not one line: \(error)")
    case .success(.notModified):
        invariant(response.status == 304, "notModified from \(response.status)")
    case .success(.report(let report, _)):
        check(report)
        let cache = WeatherCache(response: response, report: report, order: order)
        guard case .success(let copy) = WeatherCache.decode(cache.encoded) else { invariantFailure("cache does not round-trip") }
        invariant(copy == cache, "cache differs after a round trip")
        if response.status == 200, case .success(let again) = copy.report(using: service) {
            invariant(again == report, "cached copy decodes differently")
        } else if response.status == 200 {
            invariantFailure("cached copy does not decode")
        }
    }
}

func same(_ a: Result<FetchOutcome, WeatherError>, _ b: Result<FetchOutcome, WeatherError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y
    case (.failure(let x), .failure(let y)): x == y
    default: false
    }
}

func invariantFailure(_ message: String) -> Never { fatalError("weather invariant broken: \(message)") }

@_cdecl("LLVMFuzzerTestOneInput")
public func weatherFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let selector = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let status = statuses[Int(selector >> 1) & 7]
    var headers = [HTTPHeader("Date", "Thu, 15 Jan 2026 07:18:05 GMT")]
    if selector & 0x10 != 0 { headers.append(HTTPHeader("Expires", "Thu, 15 Jan 2026 07:48:31 GMT")) }
    if selector & 0x20 != 0 { headers.append(HTTPHeader("Retry-After", String(decoding: body.prefix(8), as: UTF8.self))) }
    let response = HTTPResponse(status: status, headers: headers, body: body)
    if selector & 1 == 0 { decode(openMeteo, response) } else { decode(metNorway, response) }
    return 0
}
