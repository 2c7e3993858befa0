/// Edits of a recorded I²C log for the `glass` tests, on its text: lines stay lines, so a
/// malformed one keeps its number. The OLED command stream is walked as the controllers read
/// it (SSD1306 §8.1.5.1: a control byte `Co D/C# 000000`; Co = 1 for one byte, then another
/// control byte; Co = 0 for the rest of the transaction), with each command's argument count
/// (SSD1306 Table 9-1; SH1106 `AD` and its one-byte column and page commands).
struct GlassLog {
    var lines: [String]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
    }

    var text: String { lines.map { $0 + "\n" }.joined() }

    /// Without the `!snapshot` lines a real daemon's log does not have.
    func withoutSnapshots() -> GlassLog {
        var log = self
        log.lines.removeAll { $0.hasPrefix("!snapshot") }
        return log
    }

    /// A line as its prefix (`t=… 3C:`), address and payload bytes, or nil for other lines.
    static func transaction(_ line: String) -> (prefix: String, address: UInt8, bytes: [UInt8])? {
        guard !line.hasPrefix("#"), !line.hasPrefix("!"), let colon = line.firstIndex(of: ":") else { return nil }
        let head = line[..<colon]
        guard let address = UInt8(head.split(separator: " ").last ?? "", radix: 16) else { return nil }
        let bytes = line[line.index(after: colon)...].split(separator: " ").compactMap { UInt8($0, radix: 16) }
        return (String(line[...colon]), address, bytes)
    }

    static func line(_ prefix: String, _ bytes: [UInt8]) -> String {
        prefix + bytes.map { " " + (($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true)) }.joined()
    }

    /// Arguments after an OLED command byte.
    static func argumentCount(_ command: UInt8) -> Int {
        switch command {
        case 0x21, 0x22: 2
        case 0x20, 0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD8, 0xD9, 0xDA, 0xDB: 1
        default: 0
        }
    }

    /// Every byte of the panel's transactions, in order: the line, the index in the line's
    /// payload, and whether it is a command (first byte or argument) or display data.
    enum Role { case command, argument, data }

    func walk(address: UInt8 = 0x3C, _ visit: (_ line: Int, _ index: Int, _ byte: UInt8, _ role: Role) -> Void) {
        var pending = 0
        for (number, line) in lines.enumerated() {
            guard let (_, target, bytes) = Self.transaction(line), target == address else { continue }
            var i = 0
            while i < bytes.count {
                let control = bytes[i]
                let single = control & 0x80 != 0, data = control & 0x40 != 0
                let end = single ? min(i + 2, bytes.count) : bytes.count
                for k in i + 1..<end {
                    if data {
                        visit(number, k, bytes[k], .data)
                    } else if pending > 0 {
                        pending -= 1
                        visit(number, k, bytes[k], .argument)
                    } else {
                        pending = Self.argumentCount(bytes[k])
                        visit(number, k, bytes[k], .command)
                    }
                }
                i = end
            }
        }
    }

    /// Every column address one to the right: SSD1306 `21 start end` → `start+1 end+1` (the
    /// end kept at 0x7F), SH1106 `0L 1H` → the column after. The count of edits is returned.
    mutating func shiftColumns(address: UInt8 = 0x3C) -> Int {
        var edits: [(line: Int, index: Int, byte: UInt8)] = []
        var columnArguments = 0
        var low: (line: Int, index: Int, value: UInt8)?
        walk(address: address) { line, index, byte, role in
            switch role {
            case .command:
                columnArguments = byte == 0x21 ? 2 : 0
                if byte < 0x10 {
                    low = (line, index, byte)
                } else if byte < 0x20, let l = low, l.line == line {
                    let column = (Int(byte & 0x0F) << 4 | Int(l.value)) + 1
                    edits.append((line, l.index, UInt8(column & 0x0F)))
                    edits.append((line, index, 0x10 | UInt8(column >> 4)))
                    low = nil
                }
            case .argument where columnArguments > 0:
                columnArguments -= 1
                edits.append((line, index, min(byte + 1, 0x7F)))
            default:
                break
            }
        }
        apply(edits)
        return edits.count
    }

    /// Flips bit `bit` of the last data byte written to RAM `column` of `page`, following the
    /// SSD1306's addressing (`20 00` horizontal: the pointer runs through the `21`/`22` window
    /// and wraps in it, §10.1.3) and the SH1106's page addressing (`B0+p`, `0L`, `1H`; the
    /// column only counts up). False when no byte went there.
    mutating func garble(page: Int, column: Int, bit: Int, address: UInt8 = 0x3C) -> Bool {
        var window = (columns: 0...127, pages: 0...7)
        var pointer = (column: 0, page: 0)
        var horizontal = false
        var command: UInt8 = 0, arguments: [UInt8] = []
        var target: (line: Int, index: Int, byte: UInt8)?
        walk(address: address) { line, index, byte, role in
            switch role {
            case .command:
                (command, arguments) = (byte, [])
                if (0xB0...0xB7).contains(byte) { pointer.page = Int(byte & 7) }
                if byte < 0x10 { pointer.column = pointer.column & 0xF0 | Int(byte) }
                if (0x10...0x1F).contains(byte) { pointer.column = pointer.column & 0x0F | Int(byte & 0x0F) << 4 }
            case .argument:
                arguments.append(byte)
                if command == 0x20 { horizontal = byte & 0x03 == 0 }
                guard arguments.count == 2 else { return }
                if command == 0x21 {
                    window.columns = Int(arguments[0])...Int(arguments[1])
                    pointer.column = window.columns.lowerBound
                }
                if command == 0x22 {
                    window.pages = Int(arguments[0])...Int(arguments[1])
                    pointer.page = window.pages.lowerBound
                }
            case .data:
                if pointer == (column, page) { target = (line, index, byte) }
                pointer.column += 1
                if horizontal, pointer.column > window.columns.upperBound {
                    pointer.column = window.columns.lowerBound
                    pointer.page = pointer.page == window.pages.upperBound ? window.pages.lowerBound : pointer.page + 1
                }
            }
        }
        guard let target else { return false }
        apply([(target.line, target.index, target.byte ^ UInt8(1 << bit))])
        return true
    }

    /// BME280 traffic at 0x76 (a forced measurement, the register pointer for a burst read and
    /// its read phase as a comment) after every `every`-th line, stamped like the line before.
    func interleavingSensor(every: Int) -> (log: GlassLog, transactions: Int) {
        var out: [String] = []
        var added = 0
        for (number, line) in lines.enumerated() {
            out.append(line)
            guard number % every == every - 1 else { continue }
            let stamp = line.hasPrefix("t=") ? String(line.prefix { $0 != " " }) + " " : ""
            out += ["\(stamp)76: F4 25", "\(stamp)76: F7", "# \(stamp)76: read 8 -> 50 1A 00 7E 2B 00 6B 9C"]
            added += 2
        }
        return (GlassLog(out.map { $0 + "\n" }.joined()), added)
    }

    private mutating func apply(_ edits: [(line: Int, index: Int, byte: UInt8)]) {
        for edit in edits {
            guard let transaction = Self.transaction(lines[edit.line]) else { continue }
            var bytes = transaction.bytes
            bytes[edit.index] = edit.byte
            lines[edit.line] = Self.line(transaction.prefix, bytes)
        }
    }
}
