import Foundation
import Testing

/// `thunderstorm store` run as a user runs it: the built executable on a real store directory,
/// exit status and both streams (docs/reference/exit-codes.md: 0 ok, 64 usage, 65 refused or damaged,
/// 66 no store, 74 not saved, 75 in use).
@Suite("store end to end")
struct StoreCommandTests {
    typealias E2E = BoardCheckEndToEndTests

    /// A fresh path for a store directory (not created: the store creates it), and its cleanup.
    static func storeDirectory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "store-cli-\(UUID().uuidString)")
    }

    static func store(_ directory: URL, _ arguments: [String]) throws -> E2E.Run {
        try E2E.run(["store", "--dir", directory.path] + arguments)
    }

    /// Runs a command that must succeed and returns its stdout without the newline.
    static func succeed(_ directory: URL, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        let run = try store(directory, arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
        return String(run.stdout.dropLast(run.stdout.hasSuffix("\n") ? 1 : 0))
    }

    /// The `"sequence":N` that `show` prints.
    static func sequence(_ directory: URL) throws -> Int? {
        let shown = try succeed(directory, ["show"])
        return shown.split(separator: ",").first.flatMap { Int($0.dropFirst(#"{"sequence":"#.count)) }
    }

    @Test("a whole session: every setting, three locations renamed, moved and removed, then show")
    func testStore_Session_ShowsEveryChange() throws {
        let dir = Self.storeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Self.succeed(dir, ["set", "temperature", "fahrenheit"]) == "1")
        #expect(try Self.succeed(dir, ["set", "units", "imperial"]) == "2")
        #expect(try Self.succeed(dir, ["set", "clock", "12h"]) == "3")
        #expect(try Self.succeed(dir, ["set", "brightness", "dim"]) == "4")
        #expect(try Self.succeed(dir, ["add-location", "--name", "Hamilton", "--lat", "-37.7847", "--lon", "175.3149"]) == "1")
        #expect(try Self.succeed(dir, ["add-location", "--name", "Zurich", "--lat", "47.3779", "--lon", "8.5403"]) == "2")
        #expect(try Self.succeed(dir, ["add-location", "--name", "Null Island", "--lat", "0", "--lon", "-0.0000001"]) == "3")
        #expect(try Self.succeed(dir, ["rename-location", "2", #"Zürich "HB" \ Bahnhof"#]) == "8")
        #expect(try Self.succeed(dir, ["move-location", "3", "--to", "0"]) == "9")
        #expect(try Self.succeed(dir, ["remove-location", "1"]) == "10")
        let shown = try Self.succeed(dir, ["show"])
        #expect(shown == #"{"sequence":10,"settings":{"time":"12h","units":"imperial","temperature":"fahrenheit","brightness":"dim"},"#
            + #""locations":[{"id":3,"name":"Null Island","lat":0,"lon":-0.0000001},"#
            + #"{"id":2,"name":"Zürich \"HB\" \\ Bahnhof","lat":47.3779,"lon":8.5403}],"health":"store ok"}"#)
        // The line is JSON that a JSON parser reads back to the same name.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        let locations = try #require(object["locations"] as? [[String: Any]])
        #expect(locations.last?["name"] as? String == #"Zürich "HB" \ Bahnhof"#)
    }

    @Test("a set that changes nothing prints unchanged and keeps the sequence")
    func testStore_UnchangedSet_KeepsSequence() throws {
        let dir = Self.storeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Self.succeed(dir, ["set", "clock", "12h"]) == "1")
        #expect(try Self.succeed(dir, ["set", "clock", "12h"]) == "unchanged")
        #expect(try Self.succeed(dir, ["set", "temperature", "celsius"]) == "unchanged")  // the default
        #expect(try Self.sequence(dir) == 1)
    }

    @Test("bad arguments exit 64 with one line and change nothing", arguments: [
        ["set", "temperature", "kelvin"],
        ["set", "colour", "red"],
        ["set", "clock"],
        ["add-location", "--name", "Pole", "--lat", "90.5", "--lon", "0"],
        ["add-location", "--name", "Pole", "--lat", "north", "--lon", "0"],
        ["add-location", "--name", "Pole", "--lat", "0", "--lon", "-180.1"],
        ["add-location", "--name", " ", "--lat", "0", "--lon", "0"],
        ["add-location", "--name", String(repeating: "é", count: 21), "--lat", "0", "--lon", "0"],
        ["add-location", "--lat", "0", "--lon", "0"],
        ["rename-location", "1", ""],
        ["move-location", "1", "--to", "-1"],
        ["remove-location", "first"],
        ["bench", "--commits", "0"],
        ["--file-size", "1000", "show"],
    ])
    func testStore_BadArguments_Fails(arguments: [String]) throws {
        let dir = Self.storeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Self.succeed(dir, ["add-location", "--name", "Home", "--lat", "1", "--lon", "2"]) == "1")
        let run = try Self.store(dir, arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasSuffix("\n") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try Self.sequence(dir) == 1)
    }

    @Test("without --dir: 64 and one line that names the option")
    func testStore_MissingDirectory_Fails() throws {
        let run = try E2E.run(["store", "show"])
        #expect(run.status == 64)
        #expect(run.stderr == "store show: --dir is missing; name the store directory, e.g. --dir /var/lib/thunderstorm\n")
    }

    @Test("an unknown id or an index past the end is refused with 65", arguments: [
        ["remove-location", "7"], ["rename-location", "7", "Seven"], ["move-location", "1", "--to", "1"],
    ])
    func testStore_UnknownLocation_Fails(arguments: [String]) throws {
        let dir = Self.storeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.succeed(dir, ["add-location", "--name", "Home", "--lat", "1", "--lon", "2"])
        let run = try Self.store(dir, arguments)
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("store \(dir.path): refused: "), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("; nothing was changed\n"))
        #expect(try Self.sequence(dir) == 1)
    }

    @Test("bench --commits 50: 50 acks in order, then a summary")
    func testStore_Bench_AcksEveryCommit() throws {
        let dir = Self.storeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.succeed(dir, ["set", "units", "imperial"])
        let lines = try Self.succeed(dir, ["bench", "--commits", "50"]).split(separator: "\n").map(String.init)
        #expect(lines.count == 51)
        #expect(Array(lines.prefix(50)) == (2...51).map { "ack \($0)" })
        let summary = try #require(lines.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        #expect(object["commits"] as? Int == 50)
        #expect(object["fdatasyncs"] as? Int == 50)  // one per commit, no compaction in 50
        #expect(object["writes"] as? Int == 50)
        #expect((object["commitsPerSecond"] as? Double ?? 0) > 0)
        #expect((object["bytesWritten"] as? Int ?? 0) >= 50 * 48)
        #expect(try Self.sequence(dir) == 51)
    }
}
