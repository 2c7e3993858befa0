import ArgumentParser
import GPS
import SystemPackage

/// `thunderstorm gps decode [FILE|-] [--sentences]`: raw receiver bytes in, gpsd-style JSON Lines
/// out (gpsd's JSON field names; docs/reference/commands.md#thunderstorm-gps-decode): one TPV object per closed epoch, then one STATS object.
struct GPSDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode raw NMEA 0183 bytes into one gpsd-style TPV line per epoch.",
        discussion: """
            Reads a capture (FILE, or standard input with -), skipping lines that start with #, as gpsd's capture files do. Prints JSON Lines: one TPV object per closed epoch, with gpsd's names (time only when the date is known, speed in m/s, absent fields left out), then one STATS object with the framer and decoder counters. With --sentences, every accepted sentence is printed too, in order, as {"class":"NMEA","sentence":"$GPGGA,…"}.

            Dates before --not-before are taken as GPS week-rollover errors and moved forward in 1,024-week steps. The default keeps every date since 1999-08-22, so old captures decode as recorded.

            Exit status: 0 done; 64 bad arguments; 66 FILE cannot be opened; 74 read error.
            """
    )

    @Argument(help: ArgumentHelp("The capture to decode, or - for standard input.", valueName: "file"))
    var file: String = "-"

    @Flag(help: "Also print each accepted sentence, in order, as a {\"class\":\"NMEA\"} line.")
    var sentences = false

    @Option(
        name: .customLong("not-before"),
        help: ArgumentHelp("The earliest believable date, YYYY-MM-DD.", valueName: "date"))
    var notBefore: String?

    func validate() throws {
        if let notBefore, Self.parseDate(notBefore) == nil {
            throw ValidationError("--not-before must be a real date as YYYY-MM-DD, not '\(notBefore)'")
        }
    }

    func run() throws {
        let rules = notBefore.flatMap(Self.parseDate).map(GPSTimeRules.init(referenceDate:)) ?? .archive
        // swift-system's descriptor reads retry EINTR and report Errno; a capture may be a pipe,
        // so this is a plain read loop rather than the positional reads of the FileSystem seam.
        let descriptor: FileDescriptor
        if file == "-" {
            descriptor = .standardInput
        } else {
            do {
                descriptor = try FileDescriptor.open(FilePath(file), .readOnly, options: .closeOnExec)
            } catch {
                printError("\(file): cannot read: \(error); check the path")
                throw ExitCode(66)
            }
        }
        defer { if file != "-" { try? descriptor.close() } }

        var receiver = NMEAReceiver(rules: rules)
        var comments = CaptureCommentFilter()
        var output = JSONLines()
        let printSentences = sentences
        let handle: (NMEAReceiver.Event) -> Void = { event in
            switch event {
            case .sentence(let bytes, _):
                if printSentences { output.sentence(bytes) }
            case .fix(let fix):
                output.tpv(fix)
            }
        }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count: Int
            do {
                count = try descriptor.read(into: chunk)
            } catch {
                printError("\(file): read failed: \(error)")
                throw ExitCode(74)
            }
            if count == 0 { break }
            let kept = comments.strip(UnsafeMutableRawBufferPointer(rebasing: chunk[0..<count]))
            receiver.consume(UnsafeRawBufferPointer(rebasing: chunk[0..<kept]), handle)
        }
        receiver.finish(handle)
        output.stats(receiver.statistics)
    }

    static func parseDate(_ text: String) -> CalendarDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        return CalendarDate(year: y, month: m, day: d)
    }
}
