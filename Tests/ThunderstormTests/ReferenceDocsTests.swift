import ArgumentParser
import Foundation
import Testing

@testable import thunderstorm

/// docs/reference/commands.md cannot drift from the command line: for every command of the tree
/// (walked from `Thunderstorm.configuration.subcommands`), the help that swift-argument-parser
/// renders at 100 columns must stand in the document, verbatim, as the first ```text block under
/// the heading "## `thunderstorm …`"; and the document has no such heading for a command that no
/// longer exists. After changing an option, rewrite the blocks with
/// `THUNDERSTORM_RECORD_DOCS=1 swift test --filter ReferenceDocs` and review the diff (the prose
/// around each block is kept).
@Suite("reference docs")
struct ReferenceDocsTests {
    static let commandsDoc = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "docs/reference/commands.md")

    /// The help's width in the document: wide enough that few option lines wrap.
    static let columns = 100

    /// Every command of the tree with its path, the root first, depth first in declaration order.
    static func commands() -> [(path: String, type: ParsableCommand.Type)] {
        var found: [(String, ParsableCommand.Type)] = []
        func walk(_ type: ParsableCommand.Type, _ path: String) {
            found.append((path, type))
            for sub in type.configuration.subcommands {
                walk(sub, path + " " + sub._commandName)
            }
        }
        walk(Thunderstorm.self, "thunderstorm")
        return found
    }

    /// The help swift-argument-parser prints for `type` (what `thunderstorm … --help` prints in a
    /// terminal 100 columns wide), without trailing blanks on its lines.
    static func help(for type: ParsableCommand.Type) -> String {
        let text =
            type == Thunderstorm.self
            ? Thunderstorm.helpMessage(columns: columns)
            : Thunderstorm.helpMessage(for: type, columns: columns)
        return
            text
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    static func heading(_ path: String) -> String { "## `\(path)`" }

    /// The range of the body of the first ```text block after `heading`, if both are there.
    static func blockBody(after heading: String, in document: String) -> Range<String.Index>? {
        guard let headingRange = document.range(of: "\n" + heading + "\n") else { return nil }
        guard let open = document.range(of: "\n```text\n", range: headingRange.upperBound..<document.endIndex)
        else { return nil }
        // The block must belong to this heading, not to the next one.
        if let next = document.range(of: "\n## ", range: headingRange.upperBound..<document.endIndex),
            next.lowerBound < open.lowerBound
        {
            return nil
        }
        guard let close = document.range(of: "\n```\n", range: open.upperBound..<document.endIndex) else { return nil }
        return open.upperBound..<close.lowerBound
    }

    @Test("every command's help stands verbatim in docs/reference/commands.md")
    func everyCommandsHelpIsInTheReference() throws {
        var document = try String(contentsOf: Self.commandsDoc, encoding: .utf8)
        let record = ProcessInfo.processInfo.environment["THUNDERSTORM_RECORD_DOCS"] == "1"
        var stale: [String] = []
        for (path, type) in Self.commands() {
            let expected = Self.help(for: type)
            guard let body = Self.blockBody(after: Self.heading(path), in: document) else {
                Issue.record(
                    "docs/reference/commands.md has no section \(Self.heading(path)) with a ```text block; add it with this help:\n\(expected)"
                )
                continue
            }
            if String(document[body]) != expected {
                if record {
                    document.replaceSubrange(body, with: expected)
                } else {
                    stale.append(path)
                }
            }
        }
        if record {
            try document.write(to: Self.commandsDoc, atomically: true, encoding: .utf8)
        }
        #expect(
            stale.isEmpty,
            "the help of \(stale.joined(separator: ", ")) changed; run THUNDERSTORM_RECORD_DOCS=1 swift test --filter ReferenceDocs and review docs/reference/commands.md"
        )
    }

    @Test("docs/reference/commands.md documents no command that does not exist")
    func noStaleSections() throws {
        let document = try String(contentsOf: Self.commandsDoc, encoding: .utf8)
        let known = Set(Self.commands().map { Self.heading($0.path) })
        let sections = document.split(separator: "\n").filter { $0.hasPrefix("## `thunderstorm") }.map(String.init)
        #expect(sections.count == Set(sections).count, "a command has two sections")
        for section in sections {
            #expect(known.contains(section), "\(section) names no command of the tree")
        }
    }

    @Test("the rendered help is what the executable prints for --help")
    func renderedHelpMatchesTheExecutable() throws {
        // The test above compares against the library's renderer; this one ties that renderer to
        // the binary a user runs, for one nested command, at the same width (COLUMNS, environ(7)).
        let binary = try #require(BoardCheckEndToEndTests.executable(), "no thunderstorm executable")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["store", "set", "--help"]
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = String(Self.columns)
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let printed = String(decoding: stdout, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
        #expect(process.terminationStatus == 0)
        #expect(printed == Self.help(for: StoreSetCommand.self))
    }
}
