import HAL

/// A record of what went over an I²C bus, in the text format of `corpus/displays/` and
/// docs/reference/i2c-log.md, so that a simulated run can be compared with, or replayed like, the
/// recorded streams of real display libraries:
///
/// ```
/// # a comment
/// 3C: 00 AE D5 80              one write transaction: 7-bit address, then the payload bytes
/// t=0.001500 27: 38            the same with the time it happened, in seconds
/// # 76: read 2 -> 60 00        a read phase: kept in a comment, so the file stays a write log
/// !snapshot NAME               the panel must look like NAME_expected.pbm here
/// !reset                       power-on reset of the controller
/// ```
///
/// Storage is three arrays (entry records, all payload bytes back to back, comment texts), so
/// with `reserveCapacity` recording a transaction appends to reserved arrays and allocates
/// nothing. Entries are read back as `Entry` values whose bytes are slices of that storage.
public struct I2CTransactionLog: Sendable {
    public enum Entry: Equatable, Sendable {
        /// A write transaction, or the write phase of a write-then-read one.
        case write(address: UInt8, bytes: ArraySlice<UInt8>, time: Instant?)
        /// The read phase of a transaction: the bytes the device returned.
        case read(address: UInt8, bytes: ArraySlice<UInt8>, time: Instant?)
        case comment(String)
        case snapshot(String)
        case reset
    }

    private enum Kind: UInt8, Sendable { case write, read, comment, snapshot, reset }

    private struct Record: Sendable {
        var kind: Kind
        var address: UInt8
        var hasTime: Bool
        var time: Int64
        /// Into `payload` for reads and writes, into `texts` (start only) otherwise.
        var start: Int
        var count: Int
    }

    private var records: [Record] = []
    private var payload: [UInt8] = []
    private var texts: [String] = []

    public init() {}

    /// Reserves room so that recording up to `entries` entries carrying `payloadBytes` bytes
    /// in all does not allocate.
    public mutating func reserveCapacity(entries: Int, payloadBytes: Int) {
        records.reserveCapacity(entries)
        payload.reserveCapacity(payloadBytes)
    }

    public mutating func removeAll(keepingCapacity: Bool = true) {
        records.removeAll(keepingCapacity: keepingCapacity)
        payload.removeAll(keepingCapacity: keepingCapacity)
        texts.removeAll(keepingCapacity: keepingCapacity)
    }

    public mutating func appendWrite(address: UInt8, _ bytes: UnsafeRawBufferPointer, time: Instant? = nil) {
        appendTransfer(.write, address: address, bytes, time: time)
    }

    public mutating func appendWrite(address: UInt8, _ bytes: [UInt8], time: Instant? = nil) {
        bytes.withUnsafeBytes { appendTransfer(.write, address: address, $0, time: time) }
    }

    public mutating func appendRead(address: UInt8, _ bytes: UnsafeRawBufferPointer, time: Instant? = nil) {
        appendTransfer(.read, address: address, bytes, time: time)
    }

    public mutating func appendRead(address: UInt8, _ bytes: [UInt8], time: Instant? = nil) {
        bytes.withUnsafeBytes { appendTransfer(.read, address: address, $0, time: time) }
    }

    /// Appends a comment; a text with line breaks becomes one comment per line, and trailing
    /// white space is dropped (the parser drops it too, so text round-trips exactly). A comment
    /// of the form `AA: read N -> BB …` reads back as a `.read` entry.
    public mutating func appendComment(_ text: String) {
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = Substring(line)
            while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
            appendText(.comment, String(line))
        }
    }

    /// Appends `!snapshot name`. The name is one token: white space in it becomes `_`.
    public mutating func appendSnapshot(_ name: String) {
        appendText(.snapshot, String(name.map { $0.isWhitespace ? "_" : $0 }))
    }

    public mutating func appendReset() {
        records.append(Record(kind: .reset, address: 0, hasTime: false, time: 0, start: 0, count: 0))
    }

    public mutating func append(_ entry: Entry) {
        switch entry {
        case .write(let address, let bytes, let time):
            bytes.withUnsafeBytes { appendTransfer(.write, address: address, $0, time: time) }
        case .read(let address, let bytes, let time):
            bytes.withUnsafeBytes { appendTransfer(.read, address: address, $0, time: time) }
        case .comment(let text): appendComment(text)
        case .snapshot(let name): appendSnapshot(name)
        case .reset: appendReset()
        }
    }

    /// The number of write transactions (lines such as `3C: 00 AE`).
    public var writeCount: Int { records.reduce(0) { $0 + ($1.kind == .write ? 1 : 0) } }

    /// The names of the `!snapshot` lines, in order.
    public var snapshotNames: [String] {
        records.compactMap { $0.kind == .snapshot ? texts[$0.start] : nil }
    }

    private mutating func appendTransfer(_ kind: Kind, address: UInt8, _ bytes: UnsafeRawBufferPointer, time: Instant?) {
        records.append(
            Record(
                kind: kind, address: address, hasTime: time != nil, time: time?.nanoseconds ?? 0,
                start: payload.count, count: bytes.count))
        payload.append(contentsOf: bytes)
    }

    private mutating func appendText(_ kind: Kind, _ text: String) {
        records.append(Record(kind: kind, address: 0, hasTime: false, time: 0, start: texts.count, count: 0))
        texts.append(text)
    }
}

extension I2CTransactionLog: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(position: Int) -> Entry {
        let r = records[position]
        let time = r.hasTime ? Instant(nanoseconds: r.time) : nil
        switch r.kind {
        case .write: return .write(address: r.address, bytes: payload[r.start..<r.start + r.count], time: time)
        case .read: return .read(address: r.address, bytes: payload[r.start..<r.start + r.count], time: time)
        case .comment: return .comment(texts[r.start])
        case .snapshot: return .snapshot(texts[r.start])
        case .reset: return .reset
        }
    }
}

extension I2CTransactionLog: Equatable {
    public static func == (a: I2CTransactionLog, b: I2CTransactionLog) -> Bool { a.elementsEqual(b) }
}

// MARK: - Rendering

extension I2CTransactionLog {
    /// The log as text, one entry per line, each line ending in `\n`.
    public func render() -> String {
        var text = ""
        text.reserveCapacity(payload.count * 3 + records.count * 8)
        write(to: &text)
        return text
    }

    /// Writes the log as text to `stream`.
    public func write(to stream: inout some TextOutputStream) {
        var line = ""
        for index in indices {
            line.removeAll(keepingCapacity: true)
            Self.render(self[index], into: &line)
            line.append("\n")
            stream.write(line)
        }
    }

    /// One entry as its line, without the line break.
    public static func render(_ entry: Entry, into line: inout String) {
        switch entry {
        case .write(let address, let bytes, let time):
            if let time { appendTime(time, to: &line) }
            appendHex(address, to: &line)
            line.append(":")
            appendBytes(bytes, to: &line)
        case .read(let address, let bytes, let time):
            line.append("# ")
            if let time { appendTime(time, to: &line) }
            appendHex(address, to: &line)
            line.append(": read \(bytes.count) ->")
            appendBytes(bytes, to: &line)
        case .comment(let text):
            line.append(text.isEmpty ? "#" : "# ")
            line.append(text)
        case .snapshot(let name):
            line.append("!snapshot ")
            line.append(name)
        case .reset:
            line.append("!reset")
        }
    }

    private static let hexDigits: [Character] = Array("0123456789ABCDEF")

    /// ` 3C 00 AE`: each byte after a space.
    static func appendBytes(_ bytes: some Sequence<UInt8>, to line: inout String) {
        for byte in bytes {
            line.append(" ")
            appendHex(byte, to: &line)
        }
    }

    static func appendHex(_ byte: UInt8, to line: inout String) {
        line.append(hexDigits[Int(byte >> 4)])
        line.append(hexDigits[Int(byte & 0xF)])
    }

    /// `t=<seconds> ` with six decimals (microseconds, as the corpus writes them), or nine when
    /// the time is not a whole number of microseconds, so the text keeps every nanosecond.
    static func appendTime(_ time: Instant, to line: inout String) {
        let ns = time.nanoseconds
        let magnitude = ns.magnitude
        line.append(ns < 0 ? "t=-" : "t=")
        line.append(String(magnitude / 1_000_000_000))
        line.append(".")
        let fraction = magnitude % 1_000_000_000
        let digits = fraction % 1000 == 0 ? 6 : 9
        let value = digits == 6 ? fraction / 1000 : fraction
        let text = String(value)
        line.append(String(repeating: "0", count: digits - text.count))
        line.append(text)
        line.append(" ")
    }
}
