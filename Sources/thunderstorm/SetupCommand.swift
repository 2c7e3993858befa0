import App
import ArgumentParser
import Board
import Glibc
import HAL
import HALLinux
import SystemPackage

/// `thunderstorm setup BOARD`: the one command a maker runs after `apt install`. It chooses the
/// board (a name under /usr/share/thunderstorm/boards, or a board file's path), checks it as
/// `board check` does, writes it to /etc/thunderstorm/board.json durably, and enables and
/// restarts the service; on a Raspberry Pi it first runs the package's setup-pi.sh (I²C, the
/// UART, the serial console) and says when a reboot is needed.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Choose this machine's board: install its board file, enable and start the service.",
        discussion: """
            BOARD is a board that came with the package (raspberry-pi-4: the files in
            /usr/share/thunderstorm/boards) or the path of your own board file.
            It is checked as `board check` checks it, written to
            /etc/thunderstorm/board.json (a temporary file beside it, fsync'd and
            renamed over it, the directory fsync'd), and thunderstorm.service is
            enabled and restarted. On a Raspberry Pi the package's setup-pi.sh runs
            first (I²C and the UART on, the serial console off, the groups, the udev
            rules); the last line says when to reboot.
            Exit status: 0 done, 64 unknown board name, 65 invalid board file,
            66 unreadable, 69 systemctl or setup-pi.sh failed, 74 not written,
            77 not root.
            """
    )

    static let defaultBoardsDirectory = "/usr/share/thunderstorm/boards"
    static let unit = "thunderstorm.service"

    @Argument(help: ArgumentHelp("A board name (raspberry-pi-4) or the path of a board file.", valueName: "board"))
    var board: String

    @Flag(help: "Say what would be done and change nothing (needs no root).")
    var dryRun = false

    @Option(help: ArgumentHelp("Look board names up in this directory.", visibility: .hidden))
    var boardsDir = defaultBoardsDirectory

    @Option(help: ArgumentHelp("Write under this directory instead of / and run no systemctl.", visibility: .hidden))
    var root: String?

    @Option(help: ArgumentHelp("The Raspberry Pi setup script (default: ../lib/thunderstorm/setup-pi.sh beside the binary).", visibility: .hidden))
    var setupPi: String?

    func run() throws {
        let (path, name) = try resolve()
        let (bytes, config) = try check(path)
        if !dryRun && root == nil && geteuid() != 0 {
            printError("thunderstorm setup: run as root (sudo thunderstorm setup \(board)), or with --dry-run to see what it would do")
            throw ExitCode(77)
        }
        let prefix = root.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        let onPi = Self.isRaspberryPi(root: prefix)
        if onPi { try runPiSetup(prefix: prefix) }
        try install(bytes, prefix: prefix, name: name)
        try startService(prefix: prefix)
        let missing = Self.missingDevices(config, prefix: prefix)
        let done = dryRun ? "thunderstorm setup: dry run, nothing changed" : "thunderstorm setup: done"
        if missing.isEmpty {
            print("\(done) — \(config.name) (\(name)); the service: systemctl status thunderstorm, journalctl -u thunderstorm")
        } else if onPi {
            print("\(done) — \(config.name) (\(name)); \(missing.joined(separator: ", ")) not there yet: reboot (sudo reboot) for I²C and the UART to appear")
        } else {
            print("\(done) — \(config.name) (\(name)); \(missing.joined(separator: ", ")) not there: `thunderstorm hal probe` lists what this machine has")
        }
    }

    // MARK: - The board

    /// The board file's path and how to call it: a name is looked up in --boards-dir; anything
    /// with a slash or ending in .json is a path.
    func resolve() throws -> (path: String, name: String) {
        if board.contains("/") || board.hasSuffix(".json") { return (board, board) }
        let path = boardsDir + "/" + board + ".json"
        if access(path, F_OK) == 0 { return (path, board) }
        let names = Self.boardNames(in: boardsDir)
        let unknown = "thunderstorm setup: no board named \"\(board)\""
        if names.isEmpty {
            printError("\(unknown) and no board files in \(boardsDir) (is the package installed?); give the path of a board file")
        } else {
            let list = names.joined(separator: ", ")
            printError("\(unknown); the boards: \(list) (in \(boardsDir)), or give the path of a board file")
        }
        throw ExitCode(64)
    }

    /// The names of the board files in `directory` (NAME.json), sorted.
    static func boardNames(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".json") && !name.hasPrefix(".") { names.append(String(name.dropLast(5))) }
        }
        return names.sorted()
    }

    /// The file's bytes and configuration, checked as `board check` checks them (the same lines).
    func check(_ path: String) throws -> ([UInt8], BoardConfig) {
        let bytes: [UInt8]
        switch BoardFileReader.read(path) {
        case .success(let contents):
            bytes = contents
        case .failure(.unreadable(let reason)):
            printError("\(path): cannot read: \(reason); check the path")
            throw ExitCode(66)
        case .failure(.tooLarge(let limit)):
            printError("\(path): larger than \(limit / 1024) KiB, far more than a board file; is this the right file?")
            throw ExitCode(65)
        }
        switch BoardFile.check(bytes) {
        case .success(let config):
            print(BoardCommand.Check.summary(file: path, config: config))
            return (bytes, config)
        case .failure(let failure):
            for problem in failure.problems { printError("\(path): \(problem)") }
            printError("thunderstorm setup: \(path) is not a valid board file; nothing was changed")
            throw ExitCode(65)
        }
    }

    // MARK: - The Raspberry Pi

    static func isRaspberryPi(root: String) -> Bool {
        var files = LinuxFileSystem()
        guard case .bytes(let model)? = try? files.contents(of: FilePath(root + "/proc/device-tree/model"), limit: 4096)
        else { return false }
        return String(decoding: model, as: UTF8.self).contains("Raspberry Pi")
    }

    /// setup-pi.sh from the package (/usr/lib/thunderstorm/setup-pi.sh beside /usr/bin), with
    /// --dry-run, --root and the sudo user passed on; its lines go straight to our output.
    func runPiSetup(prefix: String) throws {
        let script = setupPi ?? Self.packagedSetupPi()
        guard let script, access(script, R_OK) == 0 else {
            print("note: this is a Raspberry Pi, and no setup-pi.sh came with this binary: run scripts/setup-pi.sh from the source tree for I²C and the UART")
            return
        }
        var arguments = ["bash", script]
        if dryRun { arguments.append("--dry-run") }
        if !prefix.isEmpty { arguments += ["--root", prefix] }
        if let user = getenv("SUDO_USER").map({ String(cString: $0) }), !user.isEmpty, user != "root" {
            arguments += ["--user", user]
        }
        print("Raspberry Pi: \(arguments.joined(separator: " "))")
        let status = Self.spawn(arguments)
        guard status == 0 else {
            printError("thunderstorm setup: \(script) failed (\(status.map { "exit \($0)" } ?? "could not start")); the board was not installed")
            throw ExitCode(69)
        }
    }

    /// ../lib/thunderstorm/setup-pi.sh from the running binary's directory, if it is there.
    static func packagedSetupPi() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let exe = FilePath(String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let script = exe.removingLastComponent().removingLastComponent().appending("lib/thunderstorm/setup-pi.sh")
        return access(script.string, R_OK) == 0 ? script.string : nil
    }

    /// The device nodes the board names (not its simulated parts) that do not exist.
    static func missingDevices(_ config: BoardConfig, prefix: String) -> [String] {
        var paths: [String] = []
        if !config.display.simulated { paths.append(config.display.bus.path) }
        if let sensor = config.sensor, !sensor.simulated { paths.append(sensor.bus.path) }
        if !config.gps.simulated { paths.append(config.gps.device) }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted && access(prefix + $0, F_OK) != 0 }
    }

    // MARK: - /etc/thunderstorm/board.json

    /// Writes the board file durably: /etc/thunderstorm made (and its parent synced) when
    /// missing, then FileSystem.replace (temporary file, fdatasync, rename, directory fsync).
    func install(_ bytes: [UInt8], prefix: String, name: String) throws {
        let directory = FilePath(prefix + "/etc/thunderstorm")
        let target = "/etc/thunderstorm/board.json"
        var files = LinuxFileSystem()
        if case .bytes(let old)? = try? files.contents(of: directory.appending("board.json"), limit: 1 << 20), old == bytes {
            if !dryRun { try durable { () throws(FileSystemError) in try files.synchronizeDirectory(directory) } }
            print("unchanged: \(target) (\(name))")
            return
        }
        if dryRun {
            print("would write: \(target) (\(name))")
            return
        }
        // The daemon runs as a dynamic user: the file must be world-readable whatever root's umask.
        umask(0o022)
        try durable { () throws(FileSystemError) in
            try Self.makeDirectory(directory, files: &files)
            try files.replace("board.json", in: directory, with: bytes)
        }
        print("installed: \(target) (\(name))")
    }

    /// `directory` and its missing parents, each new one synced into its parent.
    static func makeDirectory<Files: FileSystem>(_ directory: FilePath, files: inout Files) throws(FileSystemError) {
        var missing: [FilePath] = []
        var next = directory
        while access(next.string, F_OK) != 0, !next.isEmpty, next != "/" {
            missing.insert(next, at: 0)
            next = next.removingLastComponent()
        }
        for dir in missing {
            do throws(FileSystemError) {
                try files.createDirectory(dir)
            } catch where error.kind == .exists {}
            try files.synchronizeDirectory(dir.removingLastComponent())
        }
    }

    func durable(_ body: () throws(FileSystemError) -> Void) throws {
        do { try body() } catch {
            printError("thunderstorm setup: cannot write /etc/thunderstorm/board.json: \(error); the old file, if any, is unchanged")
            throw ExitCode(74)
        }
    }

    // MARK: - systemd

    /// `systemctl enable` (works without systemd running, as in a chroot), the enable symlink's
    /// directories fsync'd (systemctl does not), then `systemctl restart` when systemd runs.
    func startService(prefix: String) throws {
        if root != nil {
            print("skipped (--root): systemctl enable \(Self.unit); systemctl restart \(Self.unit)")
            return
        }
        if dryRun {
            print("would run: systemctl enable \(Self.unit); systemctl restart \(Self.unit)")
            return
        }
        guard access("/usr/bin/systemctl", X_OK) == 0 || access("/bin/systemctl", X_OK) == 0 else {
            print("skipped (systemctl is not installed here): systemctl enable \(Self.unit); the service needs systemd")
            return
        }
        try systemctl("enable", "--quiet", Self.unit)
        let files = LinuxFileSystem()
        for dir in ["/etc/systemd/system/multi-user.target.wants", "/etc/systemd/system"] where access(dir, F_OK) == 0 {
            try durable { () throws(FileSystemError) in try files.synchronizeDirectory(FilePath(dir)) }
        }
        print("enabled: \(Self.unit)")
        guard access("/run/systemd/system", F_OK) == 0 else {
            print("skipped (systemd is not running here): systemctl restart \(Self.unit); it starts at the next boot")
            return
        }
        try systemctl("restart", Self.unit)
        print("restarted: \(Self.unit)")
    }

    func systemctl(_ arguments: String...) throws {
        guard let status = Self.spawn(["systemctl"] + arguments), status == 0 else {
            let command = (["systemctl"] + arguments).joined(separator: " ")
            printError("thunderstorm setup: \(command) failed; the board file is in place (systemctl status \(Self.unit) says more)")
            throw ExitCode(69)
        }
    }

    /// Runs `arguments` (the program looked up on PATH) with our standard streams and waits: its
    /// exit status (128 + N for signal N), or nil when it could not be started.
    static func spawn(_ arguments: [String]) -> Int32? {
        fflush(nil)  // our buffered lines first, then the child's
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], nil, nil, &argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return nil }
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
