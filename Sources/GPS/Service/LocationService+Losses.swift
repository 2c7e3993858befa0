import HAL

/// Counting what the link lost (`GPSLosses`): damaged sentences as the framer finds them, and
/// the UART's and the kernel's dropped characters from the port's counters.
extension LocationService {
    /// Adds the sentences the framer dropped since `before` (the statistics ahead of a read).
    func countLosses(since before: NMEAStatistics) {
        let after = receiver.statistics
        losses.badChecksum += after.badChecksum - before.badChecksum
        losses.cutShort += (after.garbage - before.garbage) + (after.missingChecksum - before.missingChecksum)
            + (after.overlong - before.overlong)
    }

    /// Reads the port's counters (one `TIOCGICOUNT`) and adds what grew since the last reading.
    /// The kernel keeps them per UART since the device appeared, so the first reading after an
    /// open is only the baseline; counts that went down (the device was removed and probed
    /// again) start a new one.
    func readLossCounters(_ now: Instant) {
        lossCountersDue = now + configuration.lossCountersEvery
        guard port != nil, let counts = port!.lossCounters() else { return }
        var total = losses.kernel ?? SerialLossCounters()
        if let base = lossBaseline, counts.overrun >= base.overrun, counts.bufferOverrun >= base.bufferOverrun {
            total.overrun += counts.overrun - base.overrun
            total.bufferOverrun += counts.bufferOverrun - base.bufferOverrun
        }
        losses.kernel = total
        lossBaseline = counts
    }

    /// A new port: its counters' baseline, and the next reading a minute on.
    func startCountingLosses(_ now: Instant) {
        lossBaseline = nil
        readHoldUntil = nil
        readLossCounters(now)
    }

    /// The port is about to close: what it lost up to now (nothing when it is already gone).
    func stopCountingLosses(_ now: Instant) {
        if lossBaseline != nil { readLossCounters(now) }
        lossBaseline = nil
        lossCountersDue = nil
        readHoldUntil = nil
    }
}
