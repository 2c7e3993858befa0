import ArgumentParser
import Drivers
import HALSim
import Screens
import SystemPackage

/// The files `snapshot` writes: created or truncated, mode 0644, written whole. A file that
/// cannot be created is exit 73 (EX_CANTCREAT), a failed write or close exit 74 (EX_IOERR).
enum SnapshotFiles {
    /// The file for each frame when `pattern` has a `%d` (the frame number, from 1), otherwise
    /// `pattern` for the last frame only.
    static func perFrame(_ pattern: String, _ images: [PanelImage]) -> [(path: String, image: PanelImage)] {
        guard pattern.contains("%d") else { return images.last.map { [(pattern, $0)] } ?? [] }
        return images.enumerated().map { (pattern.replacing("%d", with: String($0.offset + 1)), $0.element) }
    }

    /// Writes `bytes` to `path`; `command` names the command in the one-line failure (73 the
    /// file cannot be created, 74 writing failed).
    static func write(_ bytes: [UInt8], to path: String, command: String = "snapshot") throws(ExitCode) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw ExitCode(73, printing: "\(command): cannot create \(path): \(error); check that the directory exists and is writable")
        }
        do {
            try descriptor.closeAfter { _ = try descriptor.writeAll(bytes) }
        } catch {
            throw ExitCode(74, printing: "\(command): writing \(path) failed: \(error); check the free space")
        }
    }
}

/// The JSON object `snapshot` prints, written by hand with a fixed field order, as `store show`
/// does, so scripts and tests can rely on it.
enum SnapshotJSON {
    static let busClocks = [100_000, 400_000]

    static func object(display: SnapshotDisplay, scene: SampleScene, result: SnapshotRun) -> String {
        var out = #"{"display":"\#(display.rawValue)","scene":"\#(scene.rawValue)","frames":["#
        out += result.reports.enumerated().map { index, report in
            frame(index, report)
        }.joined(separator: ",")
        out += #"],"modelErrors":["#
        out += result.modelErrors.map(StoreJSON.string).joined(separator: ",")
        return out + "]}"
    }

    /// `{"frame":N,"what":"start"|"frame","transactions":…,"wireMicroseconds":{…}}`.
    static func frame(_ index: Int, _ report: FlushReport) -> String {
        var out = #"{"frame":\#(index),"what":"\#(index == 0 ? "start" : "frame")","#
        out += #""transactions":\#(report.transactions),"payloadBytes":\#(report.payloadBytes),"#
        out += #""dataBytes":\#(report.dataBytes),"windows":\#(report.windows),"fullFrame":\#(report.fullFrame),"#
        out += #""wireMicroseconds":{"#
        out += busClocks.map { hz in
            #""\#(hz / 1000)kHz":\#(microseconds(report.wireTime(busClockHz: hz)))"#
        }.joined(separator: ",")
        return out + "}}"
    }

    /// A duration in microseconds as an exact decimal, trailing zeros trimmed (`6600`, `23247.5`).
    static func microseconds(_ duration: Duration) -> String {
        let ns = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        let magnitude = ns.magnitude
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = "\(ns < 0 ? "-" : "")\(magnitude / 1000)"
        return fraction.isEmpty ? whole : "\(whole).\(fraction)"
    }
}
