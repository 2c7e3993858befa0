import Foundation
import Testing

/// `thunderstorm glass` refusing what it cannot read, one line each, with sysexits codes
/// (docs/reference/exit-codes.md): 64 usage, 65 a malformed log line (with its number) or PBM, 66 no input,
/// 73 an output that cannot be created.
@Suite("glass errors end to end")
struct GlassCommandErrorTests {
    typealias E2E = BoardCheckEndToEndTests

    static func expectFailure(
        _ arguments: [String], status: Int32, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = try E2E.run(["glass"] + arguments)
        #expect(run.status == status, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("glass: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        for word in words { #expect(run.stderr.contains(word), "\(run.stderr) lacks \(word)", sourceLocation: sourceLocation) }
    }

    @Test func testGlass_MalformedLine_Exit65WithItsNumber() throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var log = try GlassCommandTests.recorded("ssd1306-128x64", .now, in: directory)
        let number = try #require(log.lines.indices.dropFirst(8).first { GlassLog.transaction(log.lines[$0]) != nil })
        for broken in ["t=0.000000 3C: 40 ZZ 00", "3C 40 00", "t=x 3C: 40", "!snapshots"] {
            log.lines[number] = broken
            let file = directory.appending(path: "broken.log")
            try Data(log.text.utf8).write(to: file)
            try Self.expectFailure([file.path, "--display", "ssd1306-128x64"], status: 65, mentioning: ["line \(number + 1):", file.path])
        }
    }

    @Test func testGlass_Usage_Exit64() throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "a.log")
        try Data("3C: 00 AF\n".utf8).write(to: file)
        let log = file.path
        try Self.expectFailure([log], status: 64, mentioning: ["--display is missing"])
        try Self.expectFailure([log, "--display", "ssd1309"], status: 64, mentioning: ["ssd1309"])
        try Self.expectFailure(["--display", "ssd1306-128x64"], status: 64, mentioning: ["--pbm-in"])
        try Self.expectFailure([log, "--pbm-in", log, "--display", "ssd1306-128x64"], status: 64, mentioning: ["not both"])
        try Self.expectFailure([log, "--display", "ssd1306-128x64", "--address", "0x80"], status: 64, mentioning: ["0x80"])
        try Self.expectFailure([log, "--display", "ssd1306-128x64", "--until", "1e3"], status: 64, mentioning: ["1e3"])
        try Self.expectFailure([log, "--display", "ssd1306-128x64", "--scale", "2"], status: 64, mentioning: ["--png"])
    }

    @Test func testGlass_FilesAndImages_Exit66_65_73() throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appending(path: "missing.log").path
        try Self.expectFailure([missing, "--display", "sh1106-128x64"], status: 66, mentioning: [missing])
        let image = directory.appending(path: "glass.pbm")
        let snapshot = try E2E.run(["snapshot", "--display", "ssd1306-128x32", "--scene", "now", "--pbm", image.path])
        try #require(snapshot.status == 0)
        try Self.expectFailure(["--pbm-in", image.path, "--display", "ssd1306-128x64"], status: 65, mentioning: ["128×32", "128×64"])
        try Self.expectFailure(["--pbm-in", image.path, "--display", "ssd1306-128x32", "--until", "1"], status: 64, mentioning: ["--until"])
        let cut = directory.appending(path: "cut.pbm")
        try Data(try Data(contentsOf: image).prefix(40)).write(to: cut)
        try Self.expectFailure(["--pbm-in", cut.path, "--display", "ssd1306-128x32"], status: 65, mentioning: ["cut short"])
        let nowhere = directory.appending(path: "no/such/dir/out.png").path
        try Self.expectFailure(["--pbm-in", image.path, "--display", "ssd1306-128x32", "--png", nowhere], status: 73, mentioning: [nowhere])
    }

    @Test func testGlass_AddressAndHexForms() throws {
        let directory = try SnapshotCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try GlassCommandTests.recorded("ssd1306-128x64", .status, in: directory)
        let moved = GlassLog(log.text.replacingOccurrences(of: " 3C: ", with: " 3D: "))
        for address in ["0x3D", "3d"] {
            let (run, json) = try GlassCommandTests.glass(moved, ["--display", "ssd1306-128x64", "--address", address], in: directory)
            let object = try #require(json, "\(run.stderr)")
            #expect(object["otherTransactions"] as? Int == 0 && (object["transactions"] as? Int ?? 0) > 0)
            #expect((object["text"] as? [Any])?.isEmpty == false)
        }
        let json = try #require(try GlassCommandTests.glass(moved, ["--display", "ssd1306-128x64"], in: directory).json)
        #expect(json["transactions"] as? Int == 0 && (json["text"] as? [Any])?.isEmpty == true, "0x3C sees nothing")
    }
}
