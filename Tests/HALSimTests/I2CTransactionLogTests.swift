import CorpusTesting
import HAL
import HALSim
import Testing

@Suite struct I2CTransactionLogTests {
    func sample() -> I2CTransactionLog {
        var log = I2CTransactionLog()
        log.appendComment("init sequence")
        log.appendWrite(address: 0x3C, [0x00, 0xAE, 0xD5, 0x80])
        log.appendWrite(address: 0x27, [0x38], time: Instant(nanoseconds: 1_500_000))
        log.appendWrite(address: 0x27, [0x3C], time: Instant(nanoseconds: 2_000_000_123))
        log.appendRead(address: 0x76, [0x60, 0x00], time: .ms(3))
        log.appendRead(address: 0x76, [0x0A])
        log.appendSnapshot("frame1")
        log.appendReset()
        log.appendComment("")
        return log
    }

    @Test func testLog_Render_MatchesTheCorpusFormat() {
        #expect(sample().render() == """
            # init sequence
            3C: 00 AE D5 80
            t=0.001500 27: 38
            t=2.000000123 27: 3C
            # t=0.003000 76: read 2 -> 60 00
            # 76: read 1 -> 0A
            !snapshot frame1
            !reset
            #

            """)
    }

    @Test func testLog_RoundTrip_TextToLogToText() throws {
        let log = sample()
        let parsed = try I2CTransactionLog(parsing: log.render())
        #expect(parsed == log)
        #expect(parsed.render() == log.render())
        #expect(Array(parsed) == Array(log))
    }

    @Test func testLog_Parse_IsTolerant() throws {
        let text = "# x\r\n\r\n  3c:00 ae  d5\t80 \r\nt=1.5 27: 8\n!snapshot  a\n"
        let log = try I2CTransactionLog(parsing: text)
        #expect(Array(log) == [
            .comment("x"),
            .write(address: 0x3C, bytes: [0x00, 0xAE, 0xD5, 0x80], time: nil),
            .write(address: 0x27, bytes: [0x08], time: .ms(1500)),
            .snapshot("a"),
        ])
    }

    @Test(arguments: [
        ("3C: 00\n80: 00\n", 2, "address 0x80 is not a 7-bit I²C address"),
        ("3C: 00 AE\n3C: 0G\n", 2, "`0G` is not a hex byte"),
        ("3C: 123\n", 1, "`123` is not a hex byte"),
        ("# ok\n3C:\n", 2, "transaction to 0x3C has no payload bytes"),
        ("!snap x\n", 1, "unknown directive `!snap x` (expected `!snapshot NAME` or `!reset`)"),
        ("!snapshot\n", 1, "`!snapshot` needs a name"),
        ("t=abc 3C: 00\n", 1, "`t=` needs a number of seconds, such as t=0.001500"),
        // Whole seconds that fit, but not with the fraction added.
        ("t=9223372036.9 3C: 00\n", 1, "time out of range"),
        ("t=-9223372036.9 3C: 00\n", 1, "time out of range"),
        ("\n\nhello\n", 3, "expected `AA: BB …` (address in hex, a colon, payload bytes), a `#` comment or a `!` directive; found `hello`"),
    ])
    func testLog_ParseError_NamesLineAndProblem(text: String, line: Int, message: String) {
        let error = caught(I2CLogParseError.self) { _ = try I2CTransactionLog(parsing: text) }
        #expect(error == I2CLogParseError(line: line, message))
        #expect(error?.description == "line \(line): \(message)")
    }

    @Test func testLog_ReservedCapacity_RecordsLargeFramesWhole() {
        var log = I2CTransactionLog()
        log.reserveCapacity(entries: 1000, payloadBytes: 100_000)
        let frame = [UInt8](repeating: 0x55, count: 1025)
        for _ in 0..<90 { log.appendWrite(address: 0x3C, frame) }
        #expect(log.writeCount == 90)
        #expect(log.count == 90)
        if case .write(_, let bytes, _) = log[89] { #expect(bytes.count == 1025) } else { Issue.record("not a write") }
    }

    @Test(.enabled(if: DisplayCorpus.isPresent, "needs ../shared/corpus/displays beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here the I²C streams luma.oled, CircuitPython, u8g2 and luma.lcd send, with the images they must give"))
    func testLog_Corpus_EveryFileParsesAndRoundTrips() throws {
        for file in try DisplayCorpus.logs() {
            let text = String(decoding: try Corpus.bytes("displays/" + file), as: UTF8.self)
            let log = try I2CTransactionLog(parsing: text)
            let lines = text.split(separator: "\n").filter { !$0.isEmpty }
            #expect(log.count == lines.count, "\(file): one entry per line")
            #expect(log.writeCount == lines.filter { !$0.hasPrefix("#") && !$0.hasPrefix("!") }.count, "\(file)")
            #expect(try I2CTransactionLog(parsing: log.render()) == log, "\(file) round-trips")
            for name in log.snapshotNames {
                #expect(Corpus.exists("displays/" + name + "_expected.pbm"), "\(file): \(name)_expected.pbm")
            }
        }
    }

    @Test(.enabled(if: DisplayCorpus.isPresent, "needs ../shared/corpus/displays beside the checkout (or $THUNDERSTORM_CORPUS): the project's shared test data, here the I²C streams luma.oled, CircuitPython, u8g2 and luma.lcd send, with the images they must give"))
    func testLog_Corpus_KnownFacts() throws {
        func load(_ name: String) throws -> I2CTransactionLog { try DisplayCorpus.log(name) }
        let luma = try load("luma_ssd1306_128x64.log")
        let firstWrite = luma.first { if case .write = $0 { true } else { false } }
        guard case .write(let address, let bytes, let time) = firstWrite else {
            Issue.record("no write transaction")
            return
        }
        #expect(address == 0x3C && time == nil)
        #expect(Array(bytes.prefix(4)) == [0x00, 0xAE, 0xD5, 0x80], "3C: 00 AE D5 80 …")
        #expect(luma.snapshotNames == ["luma_ssd1306_128x64_frame1", "luma_ssd1306_128x64_frame2"])

        let lcd = try load("luma_lcd_hd44780_16x2.log")
        let writes = lcd.compactMap { entry -> (UInt8, Int, Instant?)? in
            if case .write(let a, let b, let t) = entry { (a, b.count, t) } else { nil }
        }
        #expect(writes.count == 480)
        #expect(writes.allSatisfy { $0.0 == 0x27 && $0.1 == 1 && $0.2 != nil }, "one timed port state per line")
        #expect(writes.first?.2 == Instant(nanoseconds: 107_805_000), "t=0.107805")
        #expect(zip(writes, writes.dropFirst()).allSatisfy { ($0.2 ?? .zero) <= ($1.2 ?? .zero) })

        let page = try load("circuitpython_ssd1306_128x64_page_addressing.log")
        #expect(page.snapshotNames == ["circuitpython_ssd1306_128x64_page_addressing_frame1"])
    }
}
