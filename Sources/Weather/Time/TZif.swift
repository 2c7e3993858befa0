extension ZoneRules {
    /// Reads a TZif file, versions 1–4 (RFC 8536, updated by RFC 9636).
    ///
    /// Version 2+ files carry the data twice: a 32-bit block for old readers, then a 64-bit
    /// block and a footer; the first is skipped and the second used. Every count is checked
    /// against the bytes that are actually there before anything is allocated, so a truncated
    /// or hostile file costs at most its own size and yields `.malformed`, never a trap.
    public static func parse(tzif bytes: [UInt8], identifier: String) -> Result<ZoneRules, ZoneError> {
        var reader = TZifReader(bytes: bytes, identifier: identifier)
        return reader.read()
    }
}

/// RFC 8536 §3.1 header: magic, version, 15 unused bytes, six big-endian 32-bit counts.
private struct TZifHeader {
    static let size = 44
    var version: UInt8
    var isutcnt: Int, isstdcnt: Int, leapcnt: Int, timecnt: Int, typecnt: Int, charcnt: Int

    /// RFC 8536 §3.2: the size of the data block that follows, for `timeSize` 4 (v1) or 8 (v2+).
    /// In 64 bits whatever `Int` is: on a 32-bit board (armhf Pi OS) counts near the file's size
    /// times 21 bytes overflow `Int`.
    func dataSize(timeSize: Int) -> Int64 {
        let time = Int64(timeSize)
        return Int64(timecnt) * (time + 1) + Int64(typecnt) * 6 + Int64(charcnt) + Int64(leapcnt) * (time + 4)
            + Int64(isstdcnt) + Int64(isutcnt)
    }
}

private struct TZifReader {
    let bytes: [UInt8]
    let identifier: String
    var position = 0

    init(bytes: [UInt8], identifier: String) {
        self.bytes = bytes
        self.identifier = identifier
    }

    mutating func read() -> Result<ZoneRules, ZoneError> {
        let first: TZifHeader
        switch header() {
        case .success(let h): first = h
        case .failure(let e): return .failure(e)
        }
        guard first.version >= 2 else { return block(first, timeSize: 4, footer: false) }
        // Skip the 32-bit block (its counts are checked only for fitting: RFC 8536 §4 lets
        // writers leave it minimal) and read the second header, which must match the first.
        let v1Size = first.dataSize(timeSize: 4)
        guard v1Size <= Int64(bytes.count - position) else { return malformed("version 1 data block runs past the end of the file") }
        position += Int(v1Size)
        let second: TZifHeader
        switch header() {
        case .success(let h): second = h
        case .failure(let e): return .failure(e)
        }
        guard second.version == first.version else { return malformed("the two headers disagree on the version") }
        return block(second, timeSize: 8, footer: true)
    }

    private mutating func header() -> Result<TZifHeader, ZoneError> {
        guard bytes.count - position >= TZifHeader.size else { return malformed("header truncated at byte \(bytes.count)") }
        guard bytes[position..<position + 4].elementsEqual("TZif".utf8) else { return malformed("no TZif magic") }
        let version = bytes[position + 4]
        // 0 is version 1; '2', '3', '4' are the versions RFC 9636 defines. A later version may
        // change the meaning of fields, so it is refused rather than misread.
        guard version == 0 || (UInt8(ascii: "2")...UInt8(ascii: "4")).contains(version) else {
            return malformed("unknown version byte \(version)")
        }
        // Every counted item takes at least a byte, so a count above the file's size is
        // malformed; refusing it here also keeps each count inside a 32-bit `Int`.
        let c = position + 20
        var counts: [Int] = []
        for field in 0..<6 {
            let count = u32(c + field * 4)
            guard count <= UInt32(clamping: bytes.count) else { return malformed("a count of \(count) is larger than the file") }
            counts.append(Int(count))
        }
        let h = TZifHeader(
            version: version == 0 ? 1 : version - UInt8(ascii: "0"),
            isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
            timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
        position += TZifHeader.size
        return .success(h)
    }

    /// Reads one data block (RFC 8536 §3.2) and, after a 64-bit block, the footer (§3.3).
    private mutating func block(_ h: TZifHeader, timeSize: Int, footer hasFooter: Bool) -> Result<ZoneRules, ZoneError> {
        // RFC 8536 §3.1: typecnt and charcnt MUST NOT be zero; isutcnt and isstdcnt are zero or
        // typecnt; `header()` bounds every count by the file's size and `dataSize` sums in 64 bits.
        // Transition type indices are one byte, so a type past the 256th could never be used.
        guard h.typecnt >= 1, h.typecnt <= 256 else { return malformed("type count \(h.typecnt) is not 1–256") }
        guard h.charcnt >= 1 else { return malformed("no abbreviation characters") }
        guard h.isutcnt == 0 || h.isutcnt == h.typecnt, h.isstdcnt == 0 || h.isstdcnt == h.typecnt else {
            return malformed("UT/standard indicator counts do not match the type count")
        }
        let size = h.dataSize(timeSize: timeSize)
        guard size <= Int64(bytes.count - position) else {
            return malformed("data block of \(size) bytes runs past the end of the \(bytes.count)-byte file")
        }
        guard h.leapcnt == 0 else {
            return .failure(.unsupported(identifier: identifier, reason: "leap-second (right/) zone: its times count leap seconds, the clock does not"))
        }

        // Transition times: strictly ascending, or the binary search would lie.
        var transitions: [Int64] = []
        transitions.reserveCapacity(h.timecnt)
        for i in 0..<h.timecnt {
            let at = position + i * timeSize
            let time = timeSize == 4 ? Int64(Int32(bitPattern: u32(at))) : Int64(bitPattern: u64(at))
            if let previous = transitions.last, time <= previous {
                return malformed("transition \(i) is not after the one before it")
            }
            transitions.append(time)
        }
        position += h.timecnt * timeSize
        let transitionTypes = Array(bytes[position..<position + h.timecnt])
        if let bad = transitionTypes.first(where: { Int($0) >= h.typecnt }) {
            return malformed("transition type index \(bad) is not below the type count \(h.typecnt)")
        }
        position += h.timecnt

        // ttinfo entries, then the abbreviation characters they point into.
        let charsAt = position + h.typecnt * 6
        let chars = bytes[charsAt..<charsAt + h.charcnt]
        var types: [LocalTimeType] = []
        types.reserveCapacity(h.typecnt)
        for i in 0..<h.typecnt {
            let at = position + i * 6
            let offset = Int(Int32(bitPattern: u32(at)))
            let isDaylight = bytes[at + 4], index = Int(bytes[at + 5])
            // RFC 8536 §3.2: utoff MUST NOT be −2^31 and SHOULD be in −89999…93599; isdst is 0/1.
            guard (-89_999...93_599).contains(offset) else { return malformed("type \(i) has UT offset \(offset)") }
            guard isDaylight <= 1 else { return malformed("type \(i) has isdst \(isDaylight)") }
            guard index < h.charcnt, let end = chars[(charsAt + index)...].firstIndex(of: 0) else {
                return malformed("type \(i) abbreviation index \(index) is not a NUL-terminated string")
            }
            let abbreviation = String(decoding: chars[(charsAt + index)..<end], as: UTF8.self)
            types.append(LocalTimeType(offset: offset, isDaylight: isDaylight == 1, abbreviation: abbreviation))
        }
        position = charsAt + h.charcnt + h.isstdcnt + h.isutcnt  // leapcnt is 0; indicators unused

        var footer: PosixTZ?
        if hasFooter {
            switch readFooter() {
            case .success(let f): footer = f
            case .failure(let e): return .failure(e)
            }
        }
        return .success(ZoneRules(
            identifier: identifier, transitions: transitions, transitionTypes: transitionTypes, types: types, footer: footer))
    }

    /// RFC 8536 §3.3: a newline, a POSIX TZ string (possibly empty: no rule), a newline.
    private mutating func readFooter() -> Result<PosixTZ?, ZoneError> {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else { return malformed("no footer after the data") }
        let start = position + 1
        guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return malformed("footer has no closing newline") }
        guard end > start else { return .success(nil) }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        guard let rule = PosixTZParser.parse(text) else { return malformed("footer \"\(text)\" is not a POSIX TZ string") }
        return .success(rule)
    }

    private func u32(_ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) << 32 | UInt64(u32(at + 4)) }

    private func malformed<T>(_ reason: String) -> Result<T, ZoneError> {
        .failure(.malformed(identifier: identifier, reason: reason))
    }
}
