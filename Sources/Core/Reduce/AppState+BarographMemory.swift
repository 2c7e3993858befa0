import HAL
import Weather

/// The barograph across restarts: the runtime writes `barograph` when the logic asks
/// (`Effect.saveBarograph`) and hands the file's samples back at start
/// (`Event.barographRestored`).
extension AppState {
    /// How often the history goes to disk while the device runs: a power cut loses at most
    /// this much of the trace, and the card sees one small rewrite an hour (`BarographFile`
    /// gives the bytes per day).
    static var barographSaveEvery: Duration { .seconds(3_600) }

    /// The samples the last run saved. They keep their quality, and the time the device was
    /// off stays a gap: the tendency needs samples near now, 1½ h and 3 h ago, so it is known
    /// at once after a short cut and unknown after a long one, never filled in.
    mutating func restoreBarograph(_ history: PressureHistory, _ moment: Moment, _ effects: inout [Effect]) {
        // A device that already samples (a second restore) keeps its own trace.
        guard barograph.count == 0, let latest = history.latest else { return }
        barograph = history
        barographSavedThrough = latest.time
        effects.append(.log(.text("barograph: \(history.count) sample\(history.count == 1 ? "" : "s") restored")))
        if moment.source.isTrusted { pressureTendency = barograph.tendency(at: moment.wall) }
    }

    /// At a stop: the samples taken since the last hourly write go to disk too.
    mutating func saveBarographIfNewer(_ effects: inout [Effect]) {
        guard let latest = barograph.latest?.time, barographSavedThrough.map({ latest > $0 }) ?? true else { return }
        barographSavedThrough = latest
        effects.append(.saveBarograph)
    }

    /// The trace runs past a trusted clock's now: it was written under a clock that was wrong
    /// (samples are only taken under a trusted one, so this is a clock that lied while it was
    /// believed). Kept, it would refuse every new sample until that time came round.
    mutating func dropFutureSamples(_ newest: WallTime, now: WallTime, _ effects: inout [Effect]) {
        effects.append(
            .log(.problem("barograph: the saved trace runs \(newest.seconds - now.seconds) s past the trusted clock; it starts again")))
        barograph.removeAll()
        barographSavedThrough = nil
    }
}
