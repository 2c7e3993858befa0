import HAL
import HALSim
import Testing
import Weather

/// Damaged and hostile TZif (RFC 8536 §3): every one is a `ZoneError` with a one-line
/// description, never a trap and never an allocation sized by a count the file cannot back.
@Suite("Malformed TZif")
struct ZoneMalformedTests {
    private func expectMalformed(_ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        switch ZoneRules.parse(tzif: bytes, identifier: "Test/Zone") {
        case .success:
            Issue.record("parsed \(bytes.count) bytes of damaged TZif. \(comment?.description ?? "")", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix("time zone Test/Zone: "), sourceLocation: sourceLocation)
        }
    }

    @Test("the builder's well-formed file parses (the baseline the damage starts from)")
    func baseline() throws {
        var builder = TZifBuilder()
        builder.transitions = [0, 100]
        builder.transitionTypes = [1, 0]
        builder.types = [(0, 0, 0), (3600, 1, 4)]
        builder.abbreviations = Array("UTC\0ABC\0".utf8)
        let rules = try ZoneRules.parse(tzif: builder.build(), identifier: "Test/Zone").get()
        #expect(rules.offset(at: WallTime(seconds: -1)) == 0)
        #expect(rules.offset(at: WallTime(seconds: 50)) == 3600)
        #expect(rules.abbreviation(at: WallTime(seconds: 50)) == "ABC")
        #expect(rules.offset(at: WallTime(seconds: 100)) == 0)
        #expect(rules.offset(at: WallTime(seconds: 200)) == 0)  // footer UTC0
        builder.version = 0
        builder.footer = nil
        #expect(throws: Never.self) { try ZoneRules.parse(tzif: builder.build(), identifier: "v1").get() }
    }

    @Test("Europe/Berlin cut at every length is refused", .enabled(if: ZoneData.available, "tzdata is not installed"))
    func truncated() throws {
        let bytes = try #require(ZoneData.bytes("Europe/Berlin"))
        #expect(throws: Never.self) { try ZoneRules.parse(tzif: bytes, identifier: "Europe/Berlin").get() }
        for length in 0..<bytes.count {
            expectMalformed(Array(bytes[0..<length]), "cut at \(length)")
        }
    }

    @Test("random bytes behind a valid-looking header never trap, and are refused with a one-line reason")
    func randomBytes() {
        var random = SplitMix64(seed: 0x545A_6966)
        // Refusals by reason, numbers left out: the checks the random files reached.
        var reasons: [String: Int] = [:]
        for round in 0..<2000 {
            let count = Int(random.next(below: 600))
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if round % 2 == 0 && count >= 5 { bytes.replaceSubrange(0..<5, with: Array("TZif2".utf8)) }
            // Small counts, so that some files get past the size checks into the field checks: a
            // version 1 file's block follows its header; these version 2 files have an empty
            // version 1 block, so their second header (a copy of the first) follows at byte 44.
            if round % 4 == 0 && count >= 88 {
                // isutcnt, isstdcnt (0 or typecnt), leapcnt (0), timecnt, typecnt (1–4), charcnt.
                let types = UInt8(1 + random.next(below: 4))
                let indicators = { random.chance(0.5) ? types : 0 }
                let counts = [indicators(), indicators(), 0, UInt8(random.next(below: 8)), types, UInt8(random.next(below: 12))]
                func write(_ counts: [UInt8], header: Int) {
                    for (field, value) in counts.enumerated() {
                        bytes.replaceSubrange(header + 20 + field * 4..<header + 24 + field * 4, with: [0, 0, 0, value])
                    }
                }
                if round % 8 == 0 {
                    bytes[4] = 0
                    write(counts, header: 0)
                } else {
                    write([0, 0, 0, 0, 0, 0], header: 0)
                    bytes.replaceSubrange(44..<64, with: bytes[0..<20])
                    write(counts, header: 44)
                }
            }
            guard case .failure(let error) = ZoneRules.parse(tzif: bytes, identifier: "Random/\(round)") else { continue }
            let text = error.description
            #expect(text.hasPrefix("time zone Random/\(round): ") && !text.contains("\n"), "round \(round): \(text)")
            reasons[String(text.drop { $0 != ":" }.filter { !$0.isNumber }), default: 0] += 1
        }
        // Some files must get past the header and size checks into the field checks, or the
        // rounds test only the first few guards.
        for check in ["is not after the one before it", "transition type index", "has UT offset"] {
            #expect(reasons.keys.contains { $0.contains(check) }, "no file reached \"\(check)\": \(reasons.sorted { $0.key < $1.key })")
        }
    }

    @Test("counts larger than the file are refused before anything is allocated", arguments: 0..<6)
    func hugeCounts(field: Int) {
        var builder = TZifBuilder()
        var counts: [UInt32] = [0, 0, 0, 0, 1, 4]
        counts[field] = 0xFFFF_FFFF
        builder.headerCounts = counts
        expectMalformed(builder.build())
    }

    @Test("each invalid field is refused with its reason", arguments: [
        "bad magic", "bad version", "no types", "no characters", "indicator count", "descending", "type index",
        "abbreviation index", "unterminated abbreviation", "isdst", "offset", "no footer", "footer newline", "footer text",
        "headers disagree",
    ])
    func invalidField(name: String) {
        var builder = TZifBuilder()
        builder.transitions = [0, 100]
        builder.transitionTypes = [0, 0]
        switch name {
        case "no types": builder.types = []; builder.transitions = []; builder.transitionTypes = []
        case "no characters": builder.abbreviations = []
        case "indicator count": builder.headerCounts = [2, 0, 0, 2, 1, 4]
        case "descending": builder.transitions = [100, 0]
        case "type index": builder.transitionTypes = [0, 1]
        case "abbreviation index": builder.types = [(0, 0, 4)]
        case "unterminated abbreviation": builder.abbreviations = Array("UTC".utf8)
        case "isdst": builder.types = [(0, 2, 0)]
        case "offset": builder.types = [(Int32.min, 0, 0)]
        case "footer text": builder.footer = "not a rule"
        default: break
        }
        var bytes = builder.build()
        switch name {
        case "bad magic": bytes[0] = UInt8(ascii: "X")
        case "bad version": bytes[4] = UInt8(ascii: "5"); bytes[44 + 7 + 4] = UInt8(ascii: "5")
        case "headers disagree": bytes[44 + 7 + 4] = UInt8(ascii: "3")
        case "no footer": bytes.removeLast("\nUTC0\n".utf8.count)
        case "footer newline": bytes.removeLast()
        default: break
        }
        expectMalformed(bytes, "\(name)")
    }

    @Test("leap-second zones are refused as unsupported, not misread")
    func leapSeconds() {
        var builder = TZifBuilder()
        builder.leapCount = 1
        guard case .failure(.unsupported) = ZoneRules.parse(tzif: builder.build(), identifier: "right/UTC") else {
            Issue.record("a leap-second table was accepted")
            return
        }
    }

    @Test("an empty footer means no rule: the last type stays in force")
    func emptyFooter() throws {
        var builder = TZifBuilder()
        builder.transitions = [0]
        builder.transitionTypes = [1]
        builder.types = [(0, 0, 0), (7200, 0, 4)]
        builder.abbreviations = Array("UTC\0EET\0".utf8)
        builder.footer = ""
        let rules = try ZoneRules.parse(tzif: builder.build(), identifier: "Test/Zone").get()
        #expect(rules.offset(at: WallTime(seconds: 4_000_000_000)) == 7200)
        #expect(rules.nextTransition(after: WallTime(seconds: 0)) == nil)
    }
}
