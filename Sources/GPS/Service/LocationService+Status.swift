import HAL
import SystemPackage

/// The service's state in one line for people: the status screen, the log, `gps monitor`.
/// Each line says what is wrong, where, and the one thing to check (docs/design/architecture.md#failures).
extension LocationService {
    public var statusLine: String { statusLine(at: clock.now()) }

    public func statusLine(at now: Instant) -> String {
        let path = (openPath ?? configuration.path).string
        let last = lastFix.map { "; last fix \(Self.spoken(now - $0.receivedAt)) ago" } ?? ""
        switch state(at: now) {
        case .noDevice:
            let retry = nextAttemptAt.map { " (retry in \(Self.spoken(max($0 - now, .zero))))" } ?? ""
            return "GPS: \(problem(path: configuration.path.string))\(retry)\(last)"
        case .waiting:
            return "GPS: listening on \(path) at \(baudRate.rawValue) Bd"
        case .noData:
            let silent = now - (lastByteAt ?? openedAt)
            return "GPS: no data from \(path) for \(Self.spoken(silent)) — check wiring/power\(last)"
        case .noValidSentences:
            return "GPS: bytes but no valid NMEA from \(path) — wrong baud rate? now trying \(baudRate.rawValue) Bd\(last)"
        case .noFix:
            let satellites = latestEpoch?.satellitesUsed.map { ", \($0) satellites used" } ?? ""
            return "GPS: no fix yet on \(path)\(satellites) — give the antenna a clear view of the sky"
        case .fix(let age):
            let fix = lastFix?.fix
            let mode = fix?.mode.description ?? "?"
            let satellites = fix?.satellitesUsed.map { ", \($0) satellites" } ?? ""
            return "GPS: \(mode) fix\(satellites), \(Self.spoken(age)) old"
        case .stale(let age):
            return "GPS: fix lost, last fix \(Self.spoken(age)) ago (stale) — the receiver has no view of the sky"
        }
    }

    /// Why there is no device, from the last error.
    private func problem(path: String) -> String {
        switch lastError?.kind {
        case .permissionDenied?:
            return "permission denied on \(path) — add the user to the dialout group"
        case .busy?:
            return "\(path) is in use by another process — stop gpsd or the serial console"
        case .notATerminal?:
            return "\(path) is not a serial port — check the GPS device path"
        case .unsupportedBaudRate?:
            return "\(path) refuses \(baudRate.rawValue) Bd — use 4800, 9600, 38400 or 115200"
        case .disconnected?:
            return "\(path) disconnected — reconnect the receiver"
        case .noDevice? where byIDCandidates > 1:
            return "no device at \(path) and \(byIDCandidates) in /dev/serial/by-id — set the GPS device to one of them"
        case .other?:
            return "cannot open \(path): \(lastError!) — check the device"
        case .noDevice?, nil:
            return "no device at \(path) — plug the receiver in or check the path"
        }
    }

    /// "0.4 s" or "3 s" below 10 s, "12 s", "3 min", "2 h": how long, for a person.
    static func spoken(_ duration: Duration) -> String {
        let ms = duration.nanoseconds / 1_000_000
        if ms < 10_000 {
            let tenths = ms % 1000 / 100
            return tenths == 0 ? "\(ms / 1000) s" : "\(ms / 1000).\(tenths) s"
        }
        let s = ms / 1000
        if s < 120 { return "\(s) s" }
        if s < 7200 { return "\(s / 60) min" }
        return "\(s / 3600) h"
    }
}
