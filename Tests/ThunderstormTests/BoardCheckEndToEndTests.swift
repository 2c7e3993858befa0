import Foundation
import Testing

/// `thunderstorm board check` run as a maker runs it: the built executable, real files, exit
/// status and the two output streams (docs/reference/exit-codes.md: 0 ok, 65 bad data, 66 no input).
@Suite("board check end to end")
struct BoardCheckEndToEndTests {
    static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable sits next to the test bundle (`CommandLine.arguments[0]`) in whichever
    /// scratch path built it; the usual build directories are the fallback.
    static func executable() -> URL? {
        var candidates: [URL] = []
        if let bundle = CommandLine.arguments.first {
            candidates.append(URL(filePath: bundle).deletingLastPathComponent().appending(path: "thunderstorm"))
        }
        for scratch in [".build-board", ".build"] {
            candidates.append(packageRoot.appending(path: "\(scratch)/debug/thunderstorm"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the executable with `arguments`, in `directory` when given.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Run {
        let binary = try #require(executable(), "no thunderstorm executable next to \(CommandLine.arguments.first ?? "?") or in .build*/debug")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // Never the test's own terminal: `simulate` would take it over.
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A board file in a fresh temporary directory, removed by the caller.
    static func temporaryFile(_ contents: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "board-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appending(path: "broken.json")
        try Data(contents.utf8).write(to: file)
        return file
    }

    @Test("the reference build passes with one summary line")
    func testBoardCheck_ReferenceBuild_Succeeds() throws {
        let path = Self.packageRoot.appending(path: "board/raspberry-pi-4.json").path
        let result = try Self.run(["board", "check", path])
        #expect(result.status == 0)
        #expect(result.stdout == "\(path): ok — Reference build (Pi 4): SSD1306 128x64 at 0x3C on /dev/i2c-1, 3 buttons, GPS /dev/serial0 @ 9600\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("every shipped board file passes", arguments: ["raspberry-pi-4.json", "raspberry-pi-5.json", "raspberry-pi-5-sh1106.json", "pi-zero-hd44780.json", "desk-simulated.json"])
    func testBoardCheck_ShippedFiles_Succeed(name: String) throws {
        let path = Self.packageRoot.appending(path: "board/\(name)").path
        let result = try Self.run(["board", "check", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(path): ok — "))
    }

    @Test("a broken file exits 65 and names every bad field on stderr")
    func testBoardCheck_BrokenFile_Fails() throws {
        let file = try Self.temporaryFile("""
            {
              "schema": 1,
              "name": "Broken",
              "gps": { "device": "/dev/serial0", "baud": 9601 },
              "display": { "kind": "ssd1306", "adress": "0x3C" },
              "buttons": [{ "name": "A", "line": "GPIO17" }],
              "defaultLocation": { "name": "Nowhere", "latitude": 91, "longitude": 0 }
            }
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try Self.run(["board", "check", file.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "\(file.path): gps.baud: the number 9601 is not a supported rate; use one of 4800, 9600, 19200, 38400, 57600, 115200 or \"auto\" (NEO-6M modules ship at 9600)")
        #expect(lines.dropFirst().first?.hasPrefix("\(file.path): display.adress: unknown key \"adress\"; did you mean \"address\"?") == true)
        #expect(lines.last?.hasPrefix("\(file.path): defaultLocation.latitude: 91 is out of range") == true)
    }

    @Test("a syntax error exits 65 with one line giving line and column")
    func testBoardCheck_SyntaxError_Fails() throws {
        let file = try Self.temporaryFile("{\n  \"schema\": 1\n  \"name\": \"x\"\n}\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try Self.run(["board", "check", file.path])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("\(file.path): not valid JSON: line 3, column 3: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("a missing file exits 66 with one line")
    func testBoardCheck_MissingFile_Fails() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "no-such-board-\(UUID().uuidString).json").path
        let result = try Self.run(["board", "check", path])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(path): cannot read: No such file or directory; check the path (board files ship in board/)\n")
    }
}
