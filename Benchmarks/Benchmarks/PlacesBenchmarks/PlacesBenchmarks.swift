// The nearest populated place with no network (issue 16), PlaceTable.nearest(to:):
// - "NearestPlace": 1,000 positions uniform on the sphere (SplitMix64, seed 16: latitude
//   asin(2u − 1), longitude 360v − 180), so about 70 % are at sea and some are in the polar
//   caps, where the search has to look farthest; one pass over all 1,000 per iteration.
// - "NearestPlaceNearTowns": 1,000 positions within about 0.3° of a pseudo-random place of the
//   table, where a device usually is; one pass per iteration.
// - "ZoneLookup": ZoneTable.zone(at:) at the same 1,000 positions uniform on the sphere (sea and
//   land); "ZoneLookupNearTowns" at the 1,000 near places, where borders are dense.
// The custom metric is ns/lookup (the pass time divided by 1,000). Mallocs per pass are gated
// at 0 (Thresholds/PlacesBenchmarks.*.p90.json): the search allocates nothing.

import Benchmark
import Foundation
import HAL
import Places

extension BenchmarkMetric {
    static let nanosecondsPerLookup = BenchmarkMetric.custom("ns/lookup", polarity: .prefersSmaller)
}

let lookupsPerIteration = 1000

/// Runs `body` in the measured region and records `metric` as its time divided by `count`.
@inline(__always)
func measure(_ benchmark: Benchmark, _ metric: BenchmarkMetric, per count: Int, _ body: () -> Void) {
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let start = clock.now
    body()
    let duration = clock.now - start
    benchmark.stopMeasurement()
    let elapsed = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    benchmark.measurement(metric, Int(elapsed) / count)
}

final class LookupRig {
    let positions: [Coordinate]

    init(positions: [Coordinate]) {
        precondition(positions.count == lookupsPerIteration)
        self.positions = positions
    }

    /// Uniform on the sphere.
    static func sphere() -> LookupRig {
        var random = SplitMix64(seed: 16)
        return LookupRig(positions: (0..<lookupsPerIteration).map { _ in
            let u = Double(random.next() >> 11) * 0x1p-53
            let v = Double(random.next() >> 11) * 0x1p-53
            return try! Coordinate(latitude: asin(2 * u - 1) * 180 / .pi, longitude: 360 * v - 180)
        })
    }

    /// Near the table's places.
    static func nearTowns() -> LookupRig {
        var random = SplitMix64(seed: 17)
        return LookupRig(positions: (0..<lookupsPerIteration).map { _ in
            let place = PlaceTable.place(at: Int(random.next(below: UInt64(PlaceTable.count)))).coordinate
            let latitude = min(90, max(-90, place.latitude + Double(random.next(in: -3000...3000)) / 10_000))
            var longitude = place.longitude + Double(random.next(in: -3000...3000)) / 10_000
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            return try! Coordinate(latitude: latitude, longitude: longitude)
        })
    }

    func runZones() {
        var sum = 0
        positions.withUnsafeBufferPointer { positions in
            for index in positions.indices {
                let fix = ZoneTable.zone(at: positions[index])
                sum &+= fix.zone.index &+ fix.borderMeters
            }
        }
        blackHole(sum)
    }

    func run() {
        var sum = 0
        positions.withUnsafeBufferPointer { positions in
            for index in positions.indices {
                let found = PlaceTable.nearest(to: positions[index])
                sum &+= found.distanceMeters &+ found.place.index
            }
        }
        blackHole(sum)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .nanosecondsPerLookup],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 1000,
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])]
    )

    Benchmark("NearestPlace") { benchmark, rig in
        measure(benchmark, .nanosecondsPerLookup, per: lookupsPerIteration) { rig.run() }
    } setup: {
        LookupRig.sphere()
    }

    Benchmark("NearestPlaceNearTowns") { benchmark, rig in
        measure(benchmark, .nanosecondsPerLookup, per: lookupsPerIteration) { rig.run() }
    } setup: {
        LookupRig.nearTowns()
    }

    Benchmark("ZoneLookup") { benchmark, rig in
        measure(benchmark, .nanosecondsPerLookup, per: lookupsPerIteration) { rig.runZones() }
    } setup: {
        LookupRig.sphere()
    }

    Benchmark("ZoneLookupNearTowns") { benchmark, rig in
        measure(benchmark, .nanosecondsPerLookup, per: lookupsPerIteration) { rig.runZones() }
    } setup: {
        LookupRig.nearTowns()
    }
}
