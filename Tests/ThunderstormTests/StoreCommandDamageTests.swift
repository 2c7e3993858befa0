import Foundation
import Glibc
import Testing

/// `thunderstorm store check`, and every command on a store that is missing, damaged, held by
/// another process or written by a newer build. The damage is written by hand, as a failing SD
/// card would leave it.
@Suite("store end to end: check, damage, lock")
struct StoreCommandDamageTests {
    typealias CLI = StoreCommandTests

    /// A store with `count` commits in store.a, and the path of store.a.
    static func storeWithCommits(_ count: Int) throws -> (URL, URL) {
        let dir = CLI.storeDirectory()
        for i in 0..<count {
            _ = try CLI.succeed(dir, ["set", "temperature", i % 2 == 0 ? "fahrenheit" : "celsius"])
        }
        return (dir, dir.appending(path: "store.a"))
    }

    /// Flips every bit of the bytes at `offsets` in `file`.
    static func flip(_ file: URL, at offsets: [Int]) throws {
        var bytes = [UInt8](try Data(contentsOf: file))
        for offset in offsets { bytes[offset] ^= 0xFF }
        try Data(bytes).write(to: file)
    }

    /// Where the log of store.a ends: after its last non-zero byte.
    static func logEnd(_ file: URL) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: file))
        return (bytes.lastIndex { $0 != 0 } ?? 0) + 1
    }

    @Test("check on a healthy store: 0, one line per file, ok")
    func testStoreCheck_Healthy_Succeeds() throws {
        let (dir, _) = try Self.storeWithCommits(3)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = try CLI.succeed(dir, ["check"]).split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first?.hasPrefix("store \(dir.path): sequence 3, served from store.a, opened read-only in ") == true)
        #expect(lines.dropFirst().first?.hasPrefix("store.a: generation 1, schema 2, snapshot 0, last 3, 3 records, ") == true)
        #expect(lines.dropFirst().first?.hasSuffix(" of 65536 bytes used") == true)
        #expect(lines.dropFirst(2).first == "store.b: no generation yet (blank spare), 65536 bytes")
        #expect(lines.last == "ok")
    }

    @Test("a flipped byte in the middle of the log: check exits 65 naming the file and the entry's offset")
    func testStoreCheck_FlippedByte_Fails() throws {
        let (dir, file) = try Self.storeWithCommits(20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let flipped = try Self.logEnd(file) / 2
        try Self.flip(file, at: [flipped])
        let run = try CLI.store(dir, ["check"])
        #expect(run.status == 65)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        let prefix = "store \(dir.path): store.a at offset "
        let line = try #require(lines.first.map(String.init))
        #expect(line.hasPrefix(prefix), "\(line)")
        let offset = try #require(Int(line.dropFirst(prefix.count).prefix { $0.isNumber }))
        #expect(offset <= flipped && flipped - offset < 128, "entry at \(offset), flipped byte at \(flipped)")
        #expect(run.stdout.hasSuffix("1 problem (nothing lost yet); run `thunderstorm store --dir \(dir.path) repair` to rewrite the store\n"))
        // The other copy still serves every commit.
        #expect(try CLI.sequence(dir) == 20)
    }

    @Test("a damaged store still takes changes, saying so in one line; repair leaves it clean")
    func testStore_ChangeOnDamagedStore_WarnsAndRepairs() throws {
        let (dir, file) = try Self.storeWithCommits(20)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 128 bytes from the middle cover at least one whole entry (a setting change is a
        // 64-byte entry: two 32-byte copies), so everything after it is lost.
        let middle = try Self.logEnd(file) / 2
        try Self.flip(file, at: Array(middle..<middle + 128))
        let shown = try CLI.succeed(dir, ["show"])
        #expect(shown.contains(#""health":"store damaged: store.a at offset "#), "\(shown)")
        let lost = try #require(try CLI.sequence(dir))
        #expect(lost < 20)
        let run = try CLI.store(dir, ["set", "clock", "12h"])
        #expect(run.status == 0)
        #expect(run.stdout == "\(lost + 1)\n")
        #expect(run.stderr.hasPrefix("store \(dir.path): store damaged: store.a at offset "))
        #expect(run.stderr.split(separator: "\n").count == 1)
        // The change went into store.b as a new generation; repair writes one more.
        #expect(try CLI.succeed(dir, ["repair"]).hasPrefix("store \(dir.path): rewrote sequence \(lost + 1) as a fresh snapshot"))
        #expect(try CLI.succeed(dir, ["check"]).hasSuffix("\nok"))
    }

    @Test("a missing store: show and check exit 66 and create nothing", arguments: ["show", "check", "repair"])
    func testStore_Missing_Fails(command: String) throws {
        let dir = CLI.storeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.store(dir, [command])
        #expect(run.status == 66)
        #expect(run.stderr.hasPrefix("store \(dir.path): no store here; "))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    @Test("a store locked by another process: 75 and one line", arguments: [["show"], ["check"], ["set", "clock", "12h"]])
    func testStore_Locked_Fails(arguments: [String]) throws {
        let (dir, file) = try Self.storeWithCommits(1)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Our own open file description: its flock conflicts with the one the command takes.
        let fd = open(file.path, O_RDWR | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let run = try CLI.store(dir, arguments)
        #expect(run.status == 75)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "store \(dir.path): in use by another process; stop it first (systemctl stop thunderstorm), then try again\n")
    }

    @Test("a store written by a newer build: show and check read it, a change exits 65")
    func testStore_NewerSchema_IsReadOnly() throws {
        let dir = CLI.storeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(Self.newerStoreFile()).write(to: dir.appending(path: "store.a"))
        try Data(count: 65536).write(to: dir.appending(path: "store.b"))
        let shown = try CLI.succeed(dir, ["show"])
        #expect(shown.hasPrefix(#"{"sequence":7,"settings":{"time":"12h","#), "\(shown)")
        #expect(shown.contains(#""health":"store read-only: written by a newer thunderstorm (schema 3; "#))
        #expect(try CLI.succeed(dir, ["check"]).contains("\nnote: written by a newer thunderstorm (schema 3; "))
        let run = try CLI.store(dir, ["set", "clock", "24h"])
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("store \(dir.path): store read-only: written by a newer thunderstorm"))
        #expect(run.stderr.hasSuffix("; nothing was changed\n"))
    }

    /// A 64 KiB store file holding one snapshot entry (generation 1, sequence 7) of schema 3,
    /// laid out as Sources/Store/Format/Record.swift and Payload.swift say: the schema-2 fields
    /// plus a setting key (99) that this build does not know.
    static func newerStoreFile() -> [UInt8] {
        var payload: [UInt8] = le(UInt16(3)) + le(UInt32(1)) + [2]
        payload += le(UInt16(1)) + le(UInt32(1))  // time: 12-hour
        payload += le(UInt16(99)) + le(UInt32(5))  // a key from the future
        payload += [0]  // no locations
        var record: [UInt8] = le(UInt16(0x5354)) + [1, 1] + le(UInt16(payload.count)) + le(UInt16(0))
        record += le(UInt32(1)) + le(UInt64(7)) + payload
        record += le(crc32c(record))
        while record.count % 8 != 0 { record.append(0) }
        let entry = record + record
        return entry + [UInt8](repeating: 0, count: 65536 - entry.count)
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// CRC-32C (Castagnoli), bit by bit: slow, short and independent of the store's tables.
    static func crc32c(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}
