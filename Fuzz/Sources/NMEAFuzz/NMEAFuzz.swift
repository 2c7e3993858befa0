// libFuzzer entry point for the NMEA pipeline: bytes → NMEAFramer → NMEADecoder → EpochAssembler,
// through the public `NMEAReceiver` the device uses.
//
// Input layout: byte 0 chooses how the rest is cut into chunks (as reads from a serial port
// would cut it) and which time rules apply; bytes 1… are the receiver's bytes.
// Every invariant below is checked with `invariant`, a `precondition` that keeps its message in an
// optimised build (it traps through `fatalError`, which -O does not strip), so a broken one is a
// crash libFuzzer reports and saves, with the reason on stderr. The invariants:
// - Chunking does not matter: the same bytes in one chunk and in fuzzer-chosen chunks (with
//   empty chunks in between) give the same events, in the same order, and the same statistics;
//   a bare NMEAFramer over the same bytes agrees with the receiver's framing counters.
// - Counting: every accepted sentence is decoded, unknown or malformed (exactly one `.sentence`
//   event each); rejected and accepted sentences never outnumber the `$` in the input; ignored
//   bytes never outnumber the input.
// - Framing: a reported sentence starts with `$`, is 5…255 bytes of printable ASCII, ends in
//   `*hh` and its checksum is right.
// - Decoding: deterministic; the talker is bytes 1–2; every decoded value is within the range
//   its field allows (time of day, latitude ±90°, longitude ±180°, month 1…12, counts ≤ capacity,
//   PRNs, elevations, DOPs ≥ 0, …).
// - Fixes: mode ≥ 2D has a latitude and longitude in range; below 2D has no position; the time's
//   date is a real date, not before the rules' reference date, and its time of day is the fix's;
//   a trusted time needs a 2D/3D fix; descriptions and conversions do not trap.

import GPS
import HAL

#if canImport(Glibc)
import Glibc
#endif

/// `NMEA_FUZZ_VERBOSE=1 NMEAFuzz crash-…` prints every event of the reference run to stderr.
let verbose = getenv("NMEA_FUZZ_VERBOSE") != nil

/// `precondition` with its message kept under -O (the fuzz target is built in release mode:
/// about 6× the executions per second of a debug build).
@inline(__always)
func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #file, line: UInt = #line
) {
    if !condition() { fatalError("NMEA invariant broken: \(message())", file: file, line: line) }
}

func invariantFailure(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("NMEA invariant broken: \(message)", file: file, line: line)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func nmeaFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let pattern = data[0]
    let bytes = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let rules: GPSTimeRules = pattern & 0x80 == 0 ? .live : .archive
    let maximumChunk = Int(pattern & 0x7F)  // 0: the whole input in one chunk

    // Reference run: one chunk.
    var whole = Run(rules: rules)
    whole.consume(bytes)
    whole.finish()

    // Chunked run: sizes from a generator seeded by the pattern byte, 1…maximumChunk bytes, with
    // an empty chunk now and then.
    var chunked = Run(rules: rules)
    if maximumChunk == 0 {
        chunked.consume(bytes)
    } else {
        var state = UInt32(pattern) &* 2_654_435_761 | 1
        var offset = 0
        while offset < bytes.count {
            state = state &* 1_103_515_245 &+ 12_345
            let random = Int(state >> 16)
            if random & 0x100 != 0 { chunked.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset])) }
            let end = min(offset + 1 + random % maximumChunk, bytes.count)
            chunked.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
    chunked.finish()

    invariant(chunked.events == whole.events, "events depend on how the bytes were chunked")
    invariant(chunked.receiver.statistics == whole.receiver.statistics, "statistics depend on chunking")

    // A bare framer frames the same sentences.
    var framer = NMEAFramer()
    var framed = 0
    framer.feed(bytes) { _ in framed += 1 }
    framer.finish()
    var framerOnly = framer.statistics
    let s = whole.receiver.statistics
    framerOnly.decoded = s.decoded
    framerOnly.unknown = s.unknown
    framerOnly.malformed = s.malformed
    invariant(framerOnly == s, "NMEAFramer and NMEAReceiver disagree on framing")
    invariant(framed == s.accepted)

    // Counting.
    invariant(s.accepted == s.decoded + s.unknown + s.malformed, "accepted ≠ decoded + unknown + malformed")
    invariant(whole.sentenceCount == s.accepted, "one .sentence event per accepted sentence")
    let dollars = bytes.reduce(0) { $0 + ($1 == 0x24 ? 1 : 0) }
    invariant(s.accepted + s.rejected <= dollars, "more sentences than `$`")
    invariant(s.ignoredBytes <= bytes.count)
    invariant(
        [s.accepted, s.decoded, s.unknown, s.malformed, s.badChecksum, s.missingChecksum, s.overlong, s.garbage]
            .allSatisfy { $0 >= 0 })
    return 0
}

enum Recorded: Equatable {
    case sentence([UInt8], NMEADecoding)
    case fix(Fix)
}

struct Run {
    var receiver: NMEAReceiver
    let rules: GPSTimeRules
    var events: [Recorded] = []
    var sentenceCount = 0

    init(rules: GPSTimeRules) {
        receiver = NMEAReceiver(rules: rules)
        self.rules = rules
    }

    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        var events = self.events
        var sentences = sentenceCount
        let rules = rules
        receiver.consume(bytes) { event in
            if verbose { describe(event) }
            switch event {
            case .sentence(let sentence, let decoding):
                checkSentence(sentence, decoding)
                sentences += 1
                events.append(.sentence(Array(sentence), decoding))
            case .fix(let fix):
                checkFix(fix, rules)
                events.append(.fix(fix))
            }
        }
        self.events = events
        sentenceCount = sentences
    }

    mutating func finish() {
        var events = self.events
        let rules = rules
        receiver.finish { event in
            if verbose { describe(event) }
            switch event {
            case .sentence: invariantFailure("finish reported a sentence")
            case .fix(let fix):
                checkFix(fix, rules)
                events.append(.fix(fix))
            }
        }
        self.events = events
    }
}

// MARK: - Sentences

func checkSentence(_ sentence: UnsafeRawBufferPointer, _ decoding: NMEADecoding) {
    let n = sentence.count
    invariant(n >= 5 && n <= NMEAFramer.maximumLength, "sentence length \(n)")
    invariant(sentence[0] == 0x24, "sentence does not start with $")
    for i in 1..<n { invariant((0x20...0x7E).contains(sentence[i]), "non-printable byte in a sentence") }
    invariant(sentence[n - 3] == 0x2A, "no * before the checksum")
    var sum: UInt8 = 0
    for i in 1..<(n - 3) { sum ^= sentence[i] }
    invariant(hex(sentence[n - 2]) << 4 | hex(sentence[n - 1]) == sum, "checksum accepted but wrong")

    invariant(NMEADecoder.decode(sentence) == decoding, "decoding is not deterministic")
    switch decoding {
    case .unknown: break
    case .malformed(let fieldIndex):
        invariant(fieldIndex >= 1 && fieldIndex < 64, "malformed field index \(fieldIndex)")
    case .decoded(let talker, let message):
        invariant(talker.first == sentence[1] && talker.second == sentence[2], "talker is not bytes 1-2")
        _ = talker.description
        _ = talker.system
        checkMessage(message, sentenceLength: n)
    }
}

func hex(_ c: UInt8) -> UInt8 {
    switch c {
    case 0x30...0x39: c - 0x30
    case 0x41...0x46: c - 0x37
    case 0x61...0x66: c - 0x57
    default: invariantFailure("checksum digit is not hex")
    }
}

let nanominutesPerDegree: Int64 = 60_000_000_000

func checkLatitude(_ angle: GeoAngle?) {
    guard let angle else { return }
    invariant(angle.nanominutes.magnitude <= UInt64(90 * nanominutesPerDegree), "latitude beyond ±90°")
    invariant(abs(angle.degrees) <= 90)
    _ = angle.description
}

func checkLongitude(_ angle: GeoAngle?) {
    guard let angle else { return }
    invariant(angle.nanominutes.magnitude <= UInt64(180 * nanominutesPerDegree), "longitude beyond ±180°")
    invariant(abs(angle.degrees) <= 180)
    _ = angle.description
}

func checkTime(_ time: TimeOfDay?) {
    guard let time else { return }
    invariant((0...86_400_999).contains(time.milliseconds), "time of day out of range")
    invariant((0...23).contains(time.hour) && (0...59).contains(time.minute))
    invariant((0...60).contains(time.second) && (0...999).contains(time.millisecond))
    invariant(time.second < 60 || (time.hour == 23 && time.minute == 59), "leap second \(time) not at 23:59")
    invariant(
        TimeOfDay(hour: time.hour, minute: time.minute, second: time.second, millisecond: time.millisecond) == time,
        "time of day \(time.milliseconds) ms does not round-trip through its components")
    _ = time.description
}

func checkDate(_ date: CalendarDate?) {
    guard let date else { return }
    invariant((1...12).contains(date.month), "month \(date.month)")
    invariant(date.day >= 1 && date.day <= CalendarDate.daysInMonth(date.month, year: date.year), "day \(date.day)")
    invariant(CalendarDate(daysSinceEpoch: date.daysSinceEpoch) == date, "date does not round-trip")
    _ = date.description
}

/// A decimal within 0…maximum (when `nonNegative`), with a scale the type supports.
func checkDecimal(_ value: NMEADecimal?, nonNegativeUpTo maximum: Int64? = nil) {
    guard let value else { return }
    invariant(value.scale <= 18, "decimal scale \(value.scale)")
    if let maximum {
        invariant(value.mantissa >= 0, "negative value in a non-negative field")
        invariant(value.mantissa.magnitude <= scaledLimit(maximum, value.scale), "decimal above its field's maximum")
    }
    _ = value.description
    _ = value.doubleValue
}

func checkCount(_ value: Int?, _ range: ClosedRange<Int>) {
    guard let value else { return }
    invariant(range.contains(value), "count \(value) outside \(range)")
}

func checkMessage(_ message: NMEAMessage, sentenceLength n: Int) {
    switch message {
    case .rmc(let m):
        checkTime(m.time)
        checkLatitude(m.latitude)
        checkLongitude(m.longitude)
        checkDecimal(m.speedKnots, nonNegativeUpTo: 99_999)
        checkDecimal(m.course, nonNegativeUpTo: 360)
        if let d = m.date {
            invariant((1...31).contains(d.day) && (1...12).contains(d.month) && d.yearOfCentury <= 99, "RMC date")
        }
        if let v = m.magneticVariation {
            checkDecimal(v)
            invariant(v.mantissa.magnitude <= scaledLimit(180, v.scale), "variation beyond 180°")
        }
        if let status = m.navigationalStatus { invariant((0x20...0x7E).contains(status)) }
    case .gga(let m):
        checkTime(m.time)
        checkLatitude(m.latitude)
        checkLongitude(m.longitude)
        checkCount(m.satellitesUsed, 0...99)
        checkDecimal(m.hdop, nonNegativeUpTo: 99_999)
        checkDecimal(m.altitudeMSL)
        checkDecimal(m.geoidSeparation)
        _ = m.quality?.description
    case .gns(let m):
        checkTime(m.time)
        checkLatitude(m.latitude)
        checkLongitude(m.longitude)
        invariant((0...6).contains(m.modeCount), "GNS mode count")
        for i in 0..<m.modeCount { invariant(FAAMode(rawValue: m.modes[i]) != nil, "GNS mode") }
        checkCount(m.satellitesUsed, 0...99)
        checkDecimal(m.hdop, nonNegativeUpTo: 99_999)
        checkDecimal(m.altitudeMSL)
        checkDecimal(m.geoidSeparation)
        _ = m.saysNoFix
    case .gll(let m):
        checkTime(m.time)
        checkLatitude(m.latitude)
        checkLongitude(m.longitude)
    case .gsa(let m):
        checkCount(m.fixType, 1...3)
        invariant((0...12).contains(m.satelliteCount), "GSA satellite count")
        for i in 0..<m.satelliteCount { invariant((1...999).contains(m.satellites[i]), "GSA PRN") }
        checkDecimal(m.pdop, nonNegativeUpTo: 99_999)
        checkDecimal(m.hdop, nonNegativeUpTo: 99_999)
        checkDecimal(m.vdop, nonNegativeUpTo: 99_999)
        _ = m.system?.description
    case .gsv(let m):
        invariant(1 <= m.messageNumber && m.messageNumber <= m.totalMessages && m.totalMessages <= 99, "GSV numbering")
        checkCount(m.satellitesInView, 0...999)
        invariant((0...4).contains(m.satelliteCount), "GSV satellite count")
        for i in 0..<m.satelliteCount {
            let sat = m.satellites[i]
            invariant((1...999).contains(sat.prn), "GSV PRN")
            checkCount(sat.elevation.map(Int.init), 0...90)
            checkCount(sat.azimuth.map(Int.init), 0...360)
            checkCount(sat.snr.map(Int.init), 0...99)
        }
        checkCount(m.signalID, 0...99)
    case .vtg(let m):
        checkDecimal(m.trackTrue, nonNegativeUpTo: 360)
        checkDecimal(m.trackMagnetic, nonNegativeUpTo: 360)
        checkDecimal(m.speedKnots, nonNegativeUpTo: 99_999)
        checkDecimal(m.speedKilometresPerHour, nonNegativeUpTo: 999_999)
    case .zda(let m):
        checkTime(m.time)
        checkDate(m.date)
        checkCount(m.zoneHours, -13...13)
        checkCount(m.zoneMinutes, 0...59)
    case .txt(let m):
        checkCount(m.totalMessages, 1...99)
        checkCount(m.messageNumber, 1...99)
        checkCount(m.textType, 0...99)
        invariant(
            m.textRange.lowerBound >= 0 && m.textRange.upperBound <= n - 3, "TXT text outside the sentence")
    }
}

/// `maximum × 10^scale`, saturating.
func scaledLimit(_ maximum: Int64, _ scale: UInt8) -> UInt64 {
    var limit = maximum.magnitude
    for _ in 0..<scale {
        let (next, overflow) = limit.multipliedReportingOverflow(by: 10)
        if overflow { return .max }
        limit = next
    }
    return limit
}

// MARK: - Fixes

/// 20 years after this build's release: `GPSTimeRules` drops any later date.
let latestBelievableDays: Int = {
    let r = GPSTimeRules.releaseDate
    let year = r.year + 20
    return CalendarDate(year: year, month: r.month, day: min(r.day, CalendarDate.daysInMonth(r.month, year: year)))!
        .daysSinceEpoch
}()

func checkFix(_ fix: Fix, _ rules: GPSTimeRules) {
    checkTime(fix.timeOfDay)
    checkLatitude(fix.latitude)
    checkLongitude(fix.longitude)
    if fix.mode >= .twoD {
        invariant(fix.latitude != nil && fix.longitude != nil, "a 2D/3D fix without a position")
        invariant(fix.isValid && fix.coordinate != nil)
    } else {
        invariant(fix.latitude == nil && fix.longitude == nil, "a position in a fix below 2D")
        invariant(fix.altitudeMSL == nil && fix.speedKnots == nil && fix.track == nil, "motion without a fix")
    }
    if let time = fix.time {
        checkDate(time.date)
        invariant(time.timeOfDay == fix.timeOfDay, "time's time of day differs from the fix's")
        invariant(time.date >= rules.referenceDate, "date \(time) before the reference date \(rules.referenceDate)")
        // Dates more than 20 years after the release are dropped (whatever the reference); a
        // carried date then rolls forward at most one day per epoch, and an input has fewer than
        // 4096 epochs.
        invariant(
            time.date.daysSinceEpoch <= latestBelievableDays + 4096,
            "date \(time) more than 20 years after the release \(GPSTimeRules.releaseDate)")
        _ = time.millisecondsSinceEpoch
        _ = time.description
    }
    if fix.timeIsTrusted {
        invariant(fix.time != nil && fix.mode >= .twoD, "trusted time without a fix")
    }
    // GGA/GNS report 0…99; without them the epoch's GSA satellites are summed, so only ≥ 0 holds.
    checkCount(fix.satellitesUsed, 0...Int.max)
    checkDecimal(fix.hdop, nonNegativeUpTo: 99_999)
    checkDecimal(fix.pdop, nonNegativeUpTo: 99_999)
    checkDecimal(fix.vdop, nonNegativeUpTo: 99_999)
    checkDecimal(fix.speedKnots, nonNegativeUpTo: 99_999)
    checkDecimal(fix.track, nonNegativeUpTo: 360)
    checkDecimal(fix.altitudeMSL)
    checkDecimal(fix.geoidSeparation)
    _ = fix.speedMetresPerSecond
    _ = fix.mode.description
    _ = fix.quality?.description
}

func describe(_ event: NMEAReceiver.Event) {
    let line: String
    switch event {
    case .sentence(let bytes, let decoding):
        line = "sentence \(String(decoding: bytes, as: UTF8.self)) -> \(decoding)"
    case .fix(let fix):
        line = "fix \(fix)"
    }
    let text = line + "\n"
    _ = text.utf8.withContiguousStorageIfAvailable { write(2, $0.baseAddress, $0.count) }
}
