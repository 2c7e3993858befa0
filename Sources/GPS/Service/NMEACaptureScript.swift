import HAL

/// Builds NMEA sentences with their checksum, as a receiver sends them.
public enum NMEASentence {
    /// `$` + `body` + `*hh` + CR LF, where `hh` is the XOR of the body's bytes in upper-case hex.
    public static func make(_ body: String) -> [UInt8] {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let hex = Array("0123456789ABCDEF".utf8)
        return [0x24] + Array(body.utf8) + [0x2A, hex[Int(checksum >> 4)], hex[Int(checksum & 15)], 0x0D, 0x0A]
    }
}

/// Replays a capture file (the `../corpus/nmea/*.log` format: NMEA lines, `#` comments) as a
/// receiver would send it: one burst per epoch, one epoch per `epochPeriod`, so the location
/// service sees real timing through a `SimulatedSerialPort` and a virtual clock.
///
/// A capture has no timestamps, so epochs are found the way a receiver delimits them: a line
/// starts a new epoch when it carries a different UTC time (RMC, GGA, GNS, ZDA field 1; GLL
/// field 5), or repeats a once-per-epoch sentence (RMC, GGA, GNS, GLL, VTG, ZDA of the same
/// talker) — the second rule splits the time-less sentences a receiver sends before its first
/// fix. Lines keep their bytes and end in CR LF whatever the file used.
public enum NMEACaptureScript {
    /// The capture's epochs, the first at `start`, one per `epochPeriod`: feed it to
    /// `SimulatedSerialPort.load(script:baudRate:)`, which spreads each burst over the wire at the
    /// baud rate (a burst longer than the period delays the next, as on one wire).
    public static func script(
        _ capture: some Sequence<UInt8>, start: Instant, epochPeriod: Duration = .seconds(1)
    ) -> [(Instant, [UInt8])] {
        epochs(capture).enumerated().map { (index, bytes) in (start + epochPeriod * index, bytes) }
    }

    /// The capture cut into epochs, comments and blank lines dropped, each line ending in CR LF.
    /// The time and the once-per-epoch key of a line come from the decoder and the epoch
    /// assembler's own rules, so replay splits epochs exactly where the receiver does.
    public static func epochs(_ capture: some Sequence<UInt8>) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var current: [UInt8] = []
        var currentTime: TimeOfDay?
        var seen: [UInt32] = []
        for line in lines(capture) {
            var time: TimeOfDay?
            var onceKey: UInt32?
            line.withUnsafeBytes { bytes in
                guard case .decoded(let talker, let message) = NMEADecoder.decode(bytes) else { return }
                time = EpochAssembler.time(of: message)
                if EpochAssembler.isOncePerEpoch(message) { onceKey = EpochAssembler.key(talker, message) }
            }
            let newTime = time != nil && currentTime != nil && time != currentTime
            let repeated = onceKey.map(seen.contains) ?? false
            if !current.isEmpty, newTime || repeated {
                result.append(current)
                current = []
                seen = []
            }
            if let time { currentTime = time }
            if let onceKey { seen.append(onceKey) }
            current += line + [0x0D, 0x0A]
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Non-empty, non-comment lines without their line endings.
    static func lines(_ capture: some Sequence<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        for byte in capture {
            if byte == 0x0A || byte == 0x0D {
                if !line.isEmpty, line.first != 0x23 { lines.append(line) }  // "#"
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
        if !line.isEmpty, line.first != 0x23 { lines.append(line) }
        return lines
    }
}
