import Foundation
import Testing

/// `thunderstorm gps decode` run as a user runs it: the built executable, a capture in a file or
/// on standard input, JSON Lines out (docs/reference/commands.md#thunderstorm-gps-decode).
@Suite("gps decode end to end")
struct GPSDecodeEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    /// The first epochs of neo-m8n.log with damage added: a `$$` prefix, a bad checksum, a
    /// comment line, CR LF endings.
    static let capture = """
        # Name: BN-880 (u-blox NEO-M8N)\r
        $GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76\r
        $GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,*44\r
        $$GNGSA,A,3,01,11,31,14,22,32,04,25,03,,,,1.56,0.91,1.27*15\r
        $GNRMC,171927.00,A,4404.14058,N,12118.85475,W,0.084,,180315,,,A*79\r
        $GNGGA,171927.00,4404.14058,N,12118.85475,W,1,12,0.91,1147.0,M,-21.3,M,,*FF\r
        $GPTXT,01,01,02,ANTSTATUS=OK*3B\r

        """

    static let expected = [
        #"{"class":"NMEA","sentence":"$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76"}"#,
        #"{"class":"NMEA","sentence":"$GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,*44"}"#,
        #"{"class":"NMEA","sentence":"$GNGSA,A,3,01,11,31,14,22,32,04,25,03,,,,1.56,0.91,1.27*15"}"#,
        #"{"class":"NMEA","sentence":"$GNRMC,171927.00,A,4404.14058,N,12118.85475,W,0.084,,180315,,,A*79"}"#,
        #"{"class":"TPV","time":"2015-03-18T17:19:26.000Z","mode":3,"lat":44.0690105,"lon":-121.314246333,"altMSL":1147.2,"speed":0.06}"#,
        #"{"class":"NMEA","sentence":"$GPTXT,01,01,02,ANTSTATUS=OK*3B"}"#,
        // The GGA of this epoch had a bad checksum, so there is no altitude: a 2D fix.
        #"{"class":"TPV","time":"2015-03-18T17:19:27.000Z","mode":2,"lat":44.069009667,"lon":-121.314245833,"speed":0.043}"#,
        #"{"class":"STATS","accepted":5,"decoded":5,"unknown":0,"malformed":0,"badChecksum":1,"missingChecksum":0,"overlong":0,"garbage":0,"ignoredBytes":0}"#,
    ]

    @Test("a capture file gives the accepted sentences, one TPV per epoch, then STATS")
    func testGPSDecode_File_PrintsSentencesTPVAndStats() throws {
        let file = try E2E.temporaryFile(Self.capture)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try E2E.run(["gps", "decode", file.path, "--sentences"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == Self.expected)
    }

    @Test("standard input (-) decodes the same, without --sentences only TPV and STATS")
    func testGPSDecode_StandardInput_PrintsTPVAndStats() throws {
        let binary = try #require(E2E.executable())
        let process = Process()
        process.executableURL = binary
        process.arguments = ["gps", "decode", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Written in pieces that split sentences, as a serial read would deliver them.
        let bytes = Array(Self.capture.utf8)
        for start in stride(from: 0, to: bytes.count, by: 37) {
            input.fileHandleForWriting.write(Data(bytes[start..<min(start + 37, bytes.count)]))
        }
        try input.fileHandleForWriting.close()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stdout.split(separator: "\n").map(String.init) == Self.expected.filter { !$0.contains(#""NMEA""#) })
    }

    @Test("a missing file exits 66 with one line naming it")
    func testGPSDecode_MissingFile_Exits66() throws {
        let run = try E2E.run(["gps", "decode", "/nonexistent/capture.log"])
        #expect(run.status == 66)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("/nonexistent/capture.log"))
    }

    @Test("a malformed --not-before exits 64")
    func testGPSDecode_BadNotBefore_Exits64() throws {
        let run = try E2E.run(["gps", "decode", "-", "--not-before", "2026-02-30"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--not-before"))
    }
}
