/// A small, seeded, deterministic random number generator for the simulations (contact bounce,
/// line noise), so that a failing test fails the same way on every run and every machine.
///
/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014; the seeding generator of xoshiro). The bounded helpers below are written out
/// here rather than taken from `Int.random(in:using:)`, whose algorithm the standard library
/// may change between releases: the same seed must give the same bounces on every toolchain.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (Lemire's multiply-high; the bias is below 2⁻⁶⁴·bound). 0 when
    /// `bound` is 0.
    public mutating func next(below bound: UInt64) -> UInt64 {
        bound.multipliedFullWidth(by: next()).high
    }

    /// A value in `range`, inclusive.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if span == 0 { return Int(truncatingIfNeeded: next()) }  // the whole Int range
        return range.lowerBound &+ Int(truncatingIfNeeded: next(below: span))
    }

    /// `true` with probability `p` (0 never, 1 always), from the top 53 bits.
    public mutating func chance(_ p: Double) -> Bool {
        guard p > 0 else { return false }
        guard p < 1 else { return true }
        return Double(next() >> 11) * 0x1p-53 < p
    }
}
