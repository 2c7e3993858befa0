// libFuzzer entry point for the weather disk cache as it lies on the medium: raw, possibly
// damaged `weather.cache` bytes → `WeatherCache.decode` → the cached body decoded by its
// provider → what the device does with it at start (issue 15 §2: a fetch time of 2^63 − 1 in
// this file crashed every start). WeatherFuzz only round-trips caches it wrote itself.
//
// The invariants, each a crash with its reason:
// - Decoding never traps, is deterministic, and a refusal is one line.
// - An accepted cache re-encodes to a cache that decodes to itself.
// - Its report, restored into the repository, gives a freshness and a next fetch, and the
//   screens' `Forecast` at the device's clock (any year it may show, 1970 to 2262) does not trap.

import HAL
import Screens
import Weather

@inline(__always)
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = "", line: UInt = #line) {
    if !condition() { fatalError("cache invariant broken: \(message())", line: line) }
}

let identity = ClientIdentity(contact: "fuzz@example.org")
let openMeteo = OpenMeteoService(identity: identity)
let metNorway = METNorwayService(identity: identity, zone: ZoneRules.parse(posix: "CET-1CEST,M3.5.0,M10.5.0/3")!)
/// Device clocks the cache may meet: 1970 (no RTC, no fix yet), now, and the end of `Instant`.
let clocks = [WallTime(seconds: 0), WallTime(seconds: 1_768_461_485), WallTime(seconds: 9_223_372_035)]

func restore<Service: WeatherService>(_ cache: WeatherCache, with service: Service) {
    guard case .success(let report) = cache.report(using: service) else { return }
    // Restored as at a boot whose clock reads each of `clocks`; the stamp stays as written.
    for boot in clocks {
        var repository = WeatherRepository(random: SplitMix64(seed: 1))
        repository.restore(
            report, validators: CacheValidators(lastModified: cache.lastModified),
            base: TimeBase(anchor: .zero, wall: boot, trusted: false))
        invariant(repository.state.value?.fetchedAt == report.fetchedAt, "the restored stamp changed")
        for wall in clocks {
            _ = repository.freshness(at: wall)
            invariant(!repository.restamp(TimeBase(anchor: .zero, wall: wall, trusted: true)), "a restored report was re-stamped")
            invariant(repository.state.value?.fetchedAt == report.fetchedAt, "a restored report was re-stamped")
        }
        repository.updatePosition(cache.position, now: Instant(nanoseconds: 1_000_000_000))
        // The restored report must not stop the device from asking for a new one.
        invariant(repository.nextOrder(now: Instant(nanoseconds: 2_000_000_000)) != nil, "no fetch after a restore")
    }
    for wall in clocks {
        for zone in [ZoneRules.utc, .fixed(offsetSeconds: report.utcOffsetSeconds, identifier: "fixed")] {
            _ = Forecast(report: report, now: wall, zone: zone)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func cacheFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let first = WeatherCache.decode(bytes)
    invariant(first == WeatherCache.decode(bytes), "decoding is not deterministic")
    switch first {
    case .failure(let error):
        invariant(!error.description.contains("\n"), "error not one line: \(error)")
    case .success(let cache):
        let again = WeatherCache.decode(cache.encoded)
        invariant(again == .success(cache), "an accepted cache does not round-trip: \(again)")
        switch cache.provider {
        case .openMeteo: restore(cache, with: openMeteo)
        case .metNorway: restore(cache, with: metNorway)
        }
    }
    return 0
}
