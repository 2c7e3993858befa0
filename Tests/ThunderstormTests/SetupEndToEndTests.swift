import Foundation
import Glibc
import Testing

@testable import thunderstorm

/// `thunderstorm setup` run as the executable, without root or systemd: `--root DIR` writes under
/// a temporary directory and runs no systemctl, `--boards-dir` points the names at board/
/// (docs/reference/exit-codes.md: 64 unknown name, 65 invalid, 66 unreadable, 69 setup-pi.sh
/// failed, 77 not root).
@Suite("setup end to end")
struct SetupEndToEndTests {
    typealias E2E = BoardCheckEndToEndTests

    static let boards = E2E.packageRoot.appending(path: "board").path

    /// A fresh directory standing in for /, removed by the caller.
    static func fakeRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appending(path: "setup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    static func installed(_ root: URL) -> URL { root.appending(path: "etc/thunderstorm/board.json") }

    @Test("--version prints Version.swift's version")
    func testSetup_Version_PrintsTheConstant() throws {
        let run = try E2E.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == thunderstormVersion + "\n")
    }

    @Test("a board name is written under --root, 0644, whole, and a second run changes nothing")
    func testSetup_Name_WritesTheBoardFile() throws {
        let root = try Self.fakeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let arguments = ["setup", "raspberry-pi-4", "--boards-dir", Self.boards, "--root", root.path]
        let first = try E2E.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("installed: /etc/thunderstorm/board.json (raspberry-pi-4)"))
        #expect(first.stdout.contains("skipped (--root): systemctl enable thunderstorm.service"))
        let written = try Data(contentsOf: Self.installed(root))
        #expect(written == (try Data(contentsOf: URL(filePath: Self.boards + "/raspberry-pi-4.json"))))
        let attributes = try FileManager.default.attributesOfItem(atPath: Self.installed(root).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        let left = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "etc/thunderstorm").path)
        #expect(left == ["board.json"], "a temporary file was left: \(left)")

        let second = try E2E.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("unchanged: /etc/thunderstorm/board.json (raspberry-pi-4)"))
    }

    @Test("--dry-run checks the board and writes nothing")
    func testSetup_DryRun_WritesNothing() throws {
        let root = try Self.fakeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try E2E.run(["setup", Self.boards + "/raspberry-pi-5.json", "--dry-run", "--root", root.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("would write: /etc/thunderstorm/board.json"))
        #expect(run.stdout.contains("dry run, nothing changed"))
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "etc").path))
    }

    @Test("an unknown name is 64, in one line that lists the boards")
    func testSetup_UnknownName_ListsTheBoards() throws {
        let run = try E2E.run(["setup", "raspberry-pi-9", "--boards-dir", Self.boards, "--dry-run"])
        #expect(run.status == 64)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("no board named \"raspberry-pi-9\""))
        #expect(run.stderr.contains("desk-simulated, pi-zero-hd44780, raspberry-pi-4, raspberry-pi-5, raspberry-pi-5-sh1106"))
    }

    @Test("an invalid board file is 65, one line per problem, and nothing is written")
    func testSetup_InvalidBoard_Fails() throws {
        let root = try Self.fakeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try E2E.temporaryFile(#"{"schema": 1, "name": "x"}"#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try E2E.run(["setup", file.path, "--root", root.path])
        #expect(run.status == 65)
        #expect(run.stderr.contains("\(file.path): "))
        #expect(run.stderr.contains("nothing was changed"))
        #expect(!FileManager.default.fileExists(atPath: Self.installed(root).path))
    }

    @Test("an unreadable board file is 66")
    func testSetup_MissingFile_Fails() throws {
        let run = try E2E.run(["setup", "/nonexistent/board.json", "--dry-run"])
        #expect(run.status == 66)
        #expect(run.stderr.contains("/nonexistent/board.json: cannot read"))
    }

    @Test("without root and without --dry-run it is 77", .enabled(if: geteuid() != 0))
    func testSetup_NotRoot_Fails() throws {
        let run = try E2E.run(["setup", "raspberry-pi-4", "--boards-dir", Self.boards])
        #expect(run.status == 77)
        #expect(run.stderr.contains("run as root"))
    }

    /// A stand-in for setup-pi.sh that records its arguments and exits with `status`.
    static func stubSetupPi(in root: URL, status: Int) throws -> (script: URL, record: URL) {
        let record = root.appending(path: "setup-pi.args")
        let script = root.appending(path: "setup-pi.sh")
        try Data("printf '%s\\n' \"$@\" > '\(record.path)'\nexit \(status)\n".utf8).write(to: script)
        return (script, record)
    }

    static func fakePi(_ root: URL) throws {
        let model = root.appending(path: "proc/device-tree")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data("Raspberry Pi 4 Model B Rev 1.5\0".utf8).write(to: model.appending(path: "model"))
    }

    @Test("on a Raspberry Pi setup-pi.sh runs first, with --dry-run and --root passed on")
    func testSetup_RaspberryPi_RunsSetupPi() throws {
        let root = try Self.fakeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.fakePi(root)
        let (script, record) = try Self.stubSetupPi(in: root, status: 0)
        let run = try E2E.run([
            "setup", "raspberry-pi-4", "--boards-dir", Self.boards, "--root", root.path, "--dry-run", "--setup-pi", script.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let arguments = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments.starts(with: ["--dry-run", "--root", root.path]), "\(arguments)")
        // No /dev/i2c-1 under the fake root: on a Pi that means a reboot.
        #expect(run.stdout.contains("reboot (sudo reboot)"))
    }

    @Test("when setup-pi.sh fails, setup is 69 and the board is not written")
    func testSetup_SetupPiFails_WritesNothing() throws {
        let root = try Self.fakeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.fakePi(root)
        let (script, _) = try Self.stubSetupPi(in: root, status: 74)
        let run = try E2E.run(["setup", "raspberry-pi-4", "--boards-dir", Self.boards, "--root", root.path, "--setup-pi", script.path])
        #expect(run.status == 69)
        #expect(run.stderr.contains("failed (exit 74); the board was not installed"))
        #expect(!FileManager.default.fileExists(atPath: Self.installed(root).path))
    }
}
