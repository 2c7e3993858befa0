import App
import HAL
import HALSim
import Testing

/// The burn-in meter over a year (the soak's report): a whole panel lit for 365 days is about
/// 2.6 × 10^20 pixel-nanoseconds, past Int64; the mean must still come out, not trap.
@Suite struct LitMeterTests {
    @Test func aYearOfAFullyLitPanelHasAMeanOfOne() {
        var meter = LitMeter(width: 128, height: 64, start: .zero)
        meter.record(PanelImage(width: 128, height: 64) { _, _ in true }, at: .zero)
        let year = Instant.zero + .seconds(365 * 86_400)
        meter.close(at: year)
        #expect(abs(meter.mean(until: year) - 1) < 1e-9)
        #expect(meter.highest(until: year).fraction == 1)
    }
}
