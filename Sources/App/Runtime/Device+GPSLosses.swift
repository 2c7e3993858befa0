import Core
import GPS
import HAL
import SystemPackage

/// One log line when the GPS link loses sentences or bytes, at most one a minute: the first
/// loss at once, then what was lost since the last line, at the first wake-up a minute on. The
/// line starts `GPS: lost `, so a test of a long run can assert that there is none.
extension Device {
    /// The shortest time between two loss lines.
    static var lossLineInterval: Duration { .seconds(60) }

    func reportGPSLosses() {
        let losses = location.losses
        guard losses != reportedLosses, moment.now >= nextLossLine else { return }
        let grown = Self.growth(from: reportedLosses, to: losses)
        reportedLosses = losses
        // Only a count that appeared (a port answering TIOCGICOUNT for the first time) is no loss.
        guard !grown.isEmpty else { return }
        let span = moment.now - lossesReportedAt
        lossesReportedAt = moment.now
        nextLossLine = moment.now + Self.lossLineInterval
        dependencies.log(moment.now, .problem(Self.lossLine(grown, path: (location.openPath ?? location.configuration.path).string, baud: location.baudRate, over: span)))
    }

    static func growth(from old: GPSLosses, to new: GPSLosses) -> GPSLosses {
        var grown = GPSLosses(badChecksum: new.badChecksum - old.badChecksum, cutShort: new.cutShort - old.cutShort)
        if let counts = new.kernel {
            let before = old.kernel ?? SerialLossCounters()
            grown.kernel = SerialLossCounters(overrun: counts.overrun - before.overrun, bufferOverrun: counts.bufferOverrun - before.bufferOverrun)
        }
        return grown
    }

    /// `GPS: lost 3 sentences and 812 bytes on /dev/ttyS1 at 115200 Bd in 5 min (2 bad checksum,
    /// 1 cut short; kernel: 812 bytes with its tty buffer full, 0 UART FIFO overruns) — …`
    public static func lossLine(_ grown: GPSLosses, path: String, baud: BaudRate, over span: Duration) -> String {
        let sentences = grown.sentences == 1 ? "1 sentence" : "\(grown.sentences) sentences"
        var what = "GPS: lost \(sentences)"
        if let kernel = grown.kernel, kernel.total > 0 { what += " and \(kernel.total) byte\(kernel.total == 1 ? "" : "s")" }
        var detail = "\(grown.badChecksum) bad checksum, \(grown.cutShort) cut short"
        if let kernel = grown.kernel {
            detail += "; kernel: \(kernel.bufferOverrun) bytes with its tty buffer full, \(kernel.overrun) UART FIFO overruns"
        } else {
            detail += "; this tty keeps no overrun counts"
        }
        let advice: String
        if let kernel = grown.kernel, kernel.bufferOverrun > 0 {
            advice = "the daemon read the tty too late (a stalled loop or an overloaded CPU)"
        } else if let kernel = grown.kernel, kernel.overrun > 0 {
            advice = "the UART's receive FIFO overflowed (interrupts served late: CPU load, or lower the baud rate)"
        } else {
            advice = "damaged on the wire: check the wiring, the ground and the baud rate"
        }
        return "\(what) on \(path) at \(baud.rawValue) Bd in \(LogLimiter.describe(span)) (\(detail)) — \(advice)"
    }
}
