import HAL
import Board
import GPS
import HALSim
import Testing

/// Our receiver against gpsd on its own regression captures (docs/design/parts.md#the-gps-receiver).
///
/// For each capture, replayed in random chunk splits: the sentences we accept equal the ones
/// gpsd echoed, and for every epoch gpsd reports with a time we report the same epoch, with the
/// time equal to the millisecond, latitude and longitude within 1e-6° and altitude (MSL) within
/// 1e-3 m. The deliberate differences are listed below with their reasons.
@Suite(.enabled(if: nmeaCorpusPresent, "needs ../shared/corpus/nmea beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here gpsd's regression captures of 20 receivers with gpsd's decoded fixes"))
struct GPSDCorpusConformanceTests {
    /// Captures whose gpsd times we deliberately do not reproduce, and how they relate.
    static let timeShift: [String: Int] = [
        // gpsd's week-rollover heuristic ("WKRO": the receiver's leap-second count is above 17
        // while the date is before 2017) moved this 2015-03-18 capture forward 1,024 weeks to
        // 2034-11-01. The u-blox NEO-M8N had no rollover; the NMEA dates are right, and we
        // decode captures with `GPSTimeRules.archive`, which keeps them.
        "neo-m8n.log": -1024 * 7
    ]

    /// TPV fields gpsd fills from sentences we deliberately do not decode.
    static let fieldsNotCompared: [String: Set<String>] = [
        // The Garmin 48 sends no GGA; gpsd takes the altitude from Garmin's proprietary
        // `$PGRMZ` (feet). We decode the standard sentences only, so our fixes from this receiver
        // have no altitude (and are 2D).
        "garmin48.log": ["altMSL"]
    ]

    struct Replay {
        var accepted: [String] = []
        var fixes: [Fix] = []
        var statistics = NMEAStatistics()
    }

    static func replay(_ bytes: [UInt8], seed: UInt64) -> Replay {
        var receiver = NMEAReceiver(rules: .archive)
        var replay = Replay()
        var random = SplitMix64(seed: seed)
        var offset = 0
        let handle: (NMEAReceiver.Event) -> Void = { event in
            switch event {
            case .sentence(let sentence, _): replay.accepted.append(String(decoding: sentence, as: UTF8.self))
            case .fix(let fix): replay.fixes.append(fix)
            }
        }
        bytes.withUnsafeBytes { all in
            while offset < all.count {
                // Chunks of 1 to 300 bytes: splits inside sentences, checksums and line ends.
                let size = min(all.count - offset, Int(random.next() % 300) + 1)
                receiver.consume(UnsafeRawBufferPointer(rebasing: all[offset..<offset + size]), handle)
                offset += size
            }
        }
        receiver.finish(handle)
        replay.statistics = receiver.statistics
        return replay
    }

    @Test("Corpus: accepted sentences equal gpsd's echo", arguments: try GPSDCorpus.captures())
    func corpusAcceptedSentences(capture: String) throws {
        let expected = try GPSDCorpus.expectation(capture)
        for seed: UInt64 in [1, 2, 3] {
            let ours = Self.replay(try corpusStream(capture), seed: seed)
            #expect(ours.accepted == expected.accepted, "\(capture), split seed \(seed)")
            if ours.accepted != expected.accepted {
                let missing = expected.accepted.filter { !ours.accepted.contains($0) }.prefix(3)
                let extra = ours.accepted.filter { !expected.accepted.contains($0) }.prefix(3)
                Issue.record("\(capture): gpsd only \(Array(missing)); ours only \(Array(extra))")
                break
            }
        }
    }

    @Test("Corpus: every timed epoch matches", arguments: try GPSDCorpus.captures())
    func corpusEpochs(capture: String) throws {
        let expected = try GPSDCorpus.expectation(capture)
        let ours = Self.replay(try corpusStream(capture), seed: 7)
        var byTime: [String: Fix] = [:]
        for fix in ours.fixes {
            guard let time = fix.time else { continue }
            var key = time
            if let shift = Self.timeShift[capture] { key.date = key.date.adding(days: -shift) }
            byTime[key.description] = fix
        }
        var problems: [String] = []
        // One fix per epoch: no time of day is reported twice in a row.
        for (a, b) in zip(ours.fixes, ours.fixes.dropFirst()) where a.timeOfDay != nil && a.timeOfDay == b.timeOfDay {
            problems.append("\(a.timeOfDay!): reported as two epochs")
        }
        for (time, tpv) in expected.epochs {
            guard let fix = byTime[time] else {
                problems.append("\(time): no epoch (gpsd mode \(tpv["mode"].map(String.init(describing:)) ?? "-"))")
                continue
            }
            for (key, value, tolerance) in [
                ("lat", fix.latitude?.degrees, 1e-6), ("lon", fix.longitude?.degrees, 1e-6),
                ("altMSL", fix.altitudeMSL?.doubleValue, 1e-3),
            ] {
                guard case .number(let theirs)? = tpv[key], Self.fieldsNotCompared[capture]?.contains(key) != true
                else { continue }
                guard let value else {
                    problems.append("\(time): \(key) gpsd \(theirs), ours absent (mode \(fix.mode))")
                    continue
                }
                if abs(value - theirs) > tolerance {
                    problems.append("\(time): \(key) gpsd \(theirs), ours \(value)")
                }
            }
        }
        #expect(problems.isEmpty, "\(capture): \(problems.count) of \(expected.epochs.count) epochs differ:\n\(problems.prefix(8).joined(separator: "\n"))")
    }
}
