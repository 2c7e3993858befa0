import HAL

/// A line of an I²C log that is not in the format: which line (from 1) and what is wrong.
public struct I2CLogParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

extension I2CTransactionLog {
    /// Parses the text `render()` writes, and the logs of `corpus/displays/`.
    ///
    /// Tolerant of what people and other tools write: blank lines, `\r\n` line ends, leading
    /// and repeated white space, lower-case hex, one-digit bytes. Strict about what would change
    /// the meaning: an address above 0x7F, a byte that is not hex, a transaction without bytes,
    /// an unknown `!` directive, a malformed time. A comment of the exact form
    /// `# [t=…] AA: read N -> BB …` is the read phase `render()` writes and parses back as
    /// `.read`; every other comment is kept as text.
    public init(parsing text: String) throws(I2CLogParseError) {
        self.init()
        let bytes = Array(text.utf8)
        reserveCapacity(entries: bytes.count / 16, payloadBytes: bytes.count / 3)
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var scanner = LineScanner(bytes: bytes[start..<end], line: lineNumber)
            try scanner.parse(into: &self)
            start = end + 1
        }
    }
}

/// Scans one line (without its `\n`).
private struct LineScanner {
    var bytes: ArraySlice<UInt8>
    var position: Int
    let line: Int

    init(bytes: ArraySlice<UInt8>, line: Int) {
        var end = bytes.endIndex
        while end > bytes.startIndex, Self.isSpace(bytes[end - 1]) { end -= 1 }  // and a \r
        self.bytes = bytes[bytes.startIndex..<end]
        position = bytes.startIndex
        self.line = line
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }

    var atEnd: Bool { position >= bytes.endIndex }
    var peek: UInt8? { atEnd ? nil : bytes[position] }
    var rest: String { String(decoding: bytes[position...], as: UTF8.self) }

    func fail(_ message: String) -> I2CLogParseError { I2CLogParseError(line: line, message) }

    mutating func skipSpaces() { while let b = peek, Self.isSpace(b) { position += 1 } }

    mutating func consume(_ literal: String) -> Bool {
        let utf8 = literal.utf8
        guard bytes[position...].starts(with: utf8) else { return false }
        position += utf8.count
        return true
    }

    mutating func parse(into log: inout I2CTransactionLog) throws(I2CLogParseError) {
        skipSpaces()
        guard let first = peek else { return }  // a blank line
        switch first {
        case UInt8(ascii: "#"):
            position += 1
            if peek == UInt8(ascii: " ") { position += 1 }
            let commentStart = position
            if let (address, count, values, time) = scanReadComment(), values.count == count {
                log.appendRead(address: address, values, time: time)
            } else {
                position = commentStart
                log.appendComment(rest)
            }
        case UInt8(ascii: "!"):
            position += 1
            if consume("snapshot") && (atEnd || Self.isSpace(bytes[position])) {
                skipSpaces()
                guard !atEnd else { throw fail("`!snapshot` needs a name") }
                log.appendSnapshot(rest)
            } else if consume("reset") && atEnd {
                log.appendReset()
            } else {
                position = bytes.startIndex
                skipSpaces()
                throw fail("unknown directive `\(rest)` (expected `!snapshot NAME` or `!reset`)")
            }
        default:
            let time = try scanTime()
            let address = try scanAddress()
            var values: [UInt8] = []
            while true {
                skipSpaces()
                if atEnd { break }
                values.append(try scanByte())
            }
            guard !values.isEmpty else { throw fail("transaction to \(hex(address)) has no payload bytes") }
            log.appendWrite(address: address, values, time: time)
        }
    }

    /// `t=<seconds> ` if present.
    mutating func scanTime() throws(I2CLogParseError) -> Instant? {
        guard consume("t=") else { return nil }
        let negative = consume("-")
        var seconds: Int64 = 0
        var digits = 0
        while let b = peek, (0x30...0x39).contains(b) {
            let (m, o1) = seconds.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(b - 0x30))
            guard !o1 && !o2 && s <= Int64.max / 1_000_000_000 else { throw fail("time out of range") }
            seconds = s
            position += 1
            digits += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if consume(".") {
            while let b = peek, (0x30...0x39).contains(b) {
                if fractionDigits < 9 {
                    fraction = fraction * 10 + Int64(b - 0x30)
                    fractionDigits += 1
                }
                position += 1
                digits += 1
            }
        }
        guard digits > 0 else { throw fail("`t=` needs a number of seconds, such as t=0.001500") }
        guard let b = peek, Self.isSpace(b) else {
            throw fail("`t=<seconds>` must be followed by a space and a transaction")
        }
        skipSpaces()
        for _ in fractionDigits..<9 { fraction *= 10 }
        // The whole seconds fit on their own; with the fraction added they may not
        // (`t=9223372036.9`), so the sum is checked too.
        let (ns, overflow) = (seconds * 1_000_000_000).addingReportingOverflow(fraction)
        guard !overflow else { throw fail("time out of range") }
        return Instant(nanoseconds: negative ? -ns : ns)
    }

    /// `AA:` — a 7-bit address in hex and a colon.
    mutating func scanAddress() throws(I2CLogParseError) -> UInt8 {
        let start = position
        var value = 0
        while let b = peek, let digit = Self.hexValue(b) {
            value = value * 16 + Int(digit)
            position += 1
            if position - start > 2 { break }
        }
        let count = position - start
        guard count > 0, count <= 2, peek == UInt8(ascii: ":") else {
            position = bytes.startIndex
            throw fail("expected `AA: BB …` (address in hex, a colon, payload bytes), a `#` comment or a `!` directive; found `\(rest)`")
        }
        position += 1
        guard value <= 0x7F else { throw fail("address \(hex(UInt8(value))) is not a 7-bit I²C address") }
        return UInt8(value)
    }

    /// One payload byte: one or two hex digits, then white space or the end.
    mutating func scanByte() throws(I2CLogParseError) -> UInt8 {
        let start = position
        while let b = peek, !Self.isSpace(b) { position += 1 }
        let token = bytes[start..<position]
        guard token.count <= 2, let value = token.reduce(Optional(0 as UInt8), { acc, b in
            guard let acc, let d = Self.hexValue(b) else { return nil }
            return acc << 4 | d
        }) else {
            throw fail("`\(String(decoding: token, as: UTF8.self))` is not a hex byte")
        }
        return value
    }

    /// `[t=…] AA: read N -> BB …` after the `# `, or nil.
    mutating func scanReadComment() -> (UInt8, Int, [UInt8], Instant?)? {
        let time: Instant?
        let address: UInt8
        do throws(I2CLogParseError) {
            time = try scanTime()
            address = try scanAddress()
        } catch {
            return nil
        }
        guard consume(" read ") else { return nil }
        var count = 0
        var digits = 0
        while let b = peek, (0x30...0x39).contains(b), digits < 9 {
            count = count * 10 + Int(b - 0x30)
            position += 1
            digits += 1
        }
        guard digits > 0, consume(" ->") else { return nil }
        var values: [UInt8] = []
        while true {
            skipSpaces()
            if atEnd { break }
            guard let value = try? scanByte() else { return nil }
            values.append(value)
        }
        return (address, count, values, time)
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    func hex(_ value: UInt8) -> String {
        var s = "0x"
        I2CTransactionLog.appendHex(value, to: &s)
        return s
    }
}
