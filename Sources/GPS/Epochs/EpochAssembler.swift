import HAL

/// Merges decoded sentences into one `Fix` per receiver epoch (one UTC time of day).
///
/// An epoch closes when a sentence brings a different time of day, when a sentence type that
/// appears once per epoch repeats, or, once learned, right after the sentence that ends every
/// cycle (gpsd's "cycle ender"), so a fix is not held back until the next epoch starts.
///
/// Validity (docs/design/parts.md#the-gps-receiver): the fix is valid when at least one indicator of the epoch
/// says valid (RMC/GLL `A`, GGA quality 1–5, GSA 2D/3D, a GNS system in fix), **none** says
/// invalid (RMC/GLL `V`, FAA mode N/E/M/S, GGA quality 0 or 6–8, every GSA "no fix", every GNS
/// system `N`), and the position is present. A receiver that shows a position while its GSA
/// says "no fix" (myguide-3100) therefore has no fix. The NMEA 4.10 navigational status of RMC
/// is not an indicator: u-blox always sends `V` there ("equipment does not provide navigational
/// status"), which is how pynmea2 1.19 came to call every u-blox fix invalid (#162).
public struct EpochAssembler {
    public var rules: GPSTimeRules

    /// Everything that belongs to the epoch in progress; the next one starts from `Epoch()`.
    private struct Epoch {
        var fix = Fix()
        var hasData = false
        var saysValid = false
        var saysInvalid = false
        /// The highest GSA fix type of the epoch: 1 only when every GSA says "no fix" (a
        /// multi-GNSS receiver sends one GSA per constellation, and one without satellites may
        /// say 1 while the fix is 3D).
        var gsaFixType: Int?
        var gsaSatellites = 0
        var date: CalendarDate?
        var dateTrusted = false
        /// Keys of the once-per-epoch sentences seen (RMC, GGA, GNS, GLL, VTG, ZDA, per talker):
        /// a receiver sends each at most once per epoch per talker.
        var seenOnce = InlineArray<16, UInt32>(repeating: 0)
        var seenOnceCount = 0

        func hasSeen(_ key: UInt32) -> Bool {
            for i in 0..<seenOnceCount where seenOnce[i] == key { return true }
            return false
        }
    }

    private var epoch = Epoch()
    /// The last believed date and the time of day it belonged to, carried into later epochs
    /// (GGA and GLL have no date) and rolled over at midnight.
    private var dateAnchor: UTCTime?
    private var lastKey: UInt32 = 0
    private var previousEnder: UInt32 = 0
    private var ender: UInt32 = 0

    public init(rules: GPSTimeRules = .live) { self.rules = rules }

    /// Adds one decoded sentence, calling `emit` with every epoch it closes (at most two: the
    /// one a new time closes, and the new one if its sentence is the learned cycle ender).
    public mutating func add(_ talker: NMEATalker, _ message: NMEAMessage, _ emit: (Fix) -> Void) {
        let key = EpochAssembler.key(talker, message)
        let time = EpochAssembler.time(of: message)
        let once = EpochAssembler.isOncePerEpoch(message)
        if epoch.hasData {
            if let time, let current = epoch.fix.timeOfDay, time != current {
                if lastKey == previousEnder, lastKey != 0 { ender = lastKey }
                previousEnder = lastKey
                close(emit)
            } else if once, epoch.hasSeen(key) {
                close(emit)
            }
        }
        if once, !epoch.hasSeen(key), epoch.seenOnceCount < 16 {
            epoch.seenOnce[epoch.seenOnceCount] = key
            epoch.seenOnceCount += 1
        }
        merge(message, time: time)
        lastKey = key
        if key == ender, ender != 0 { close(emit) }
    }

    /// Closes the epoch in progress, if any (the end of a capture, or a receiver gone quiet).
    public mutating func finish(_ emit: (Fix) -> Void) {
        if epoch.hasData { close(emit) }
    }

    private mutating func merge(_ message: NMEAMessage, time: TimeOfDay?) {
        epoch.hasData = true
        if epoch.fix.timeOfDay == nil, let time { epoch.fix.timeOfDay = time }
        switch message {
        case .rmc(let m):
            indicate(m.statusValid)
            if let mode = m.mode { indicate(mode) }
            // gpsd ignores RMC with status V entirely: MTK and SiRF send bogus dates then.
            if m.statusValid == true, let d = m.date,
                let date = CalendarDate(
                    year: rules.year(forTwoDigitYear: Int(d.yearOfCentury)), month: Int(d.month), day: Int(d.day)),
                let corrected = rules.corrected(date)
            {
                epoch.date = corrected
                epoch.dateTrusted = true
            }
            if m.statusValid != false { position(m.latitude, m.longitude) }
            if let v = m.speedKnots { epoch.fix.speedKnots = v }
            if let v = m.course { epoch.fix.track = v }
        case .gga(let m):
            if let q = m.quality {
                epoch.fix.quality = q
                switch q {
                case .gps, .differential, .pps, .rtkFixed, .rtkFloat: epoch.saysValid = true
                default: epoch.saysInvalid = true
                }
            }
            if m.quality != .invalid {
                position(m.latitude, m.longitude)
                if let v = m.altitudeMSL { epoch.fix.altitudeMSL = v }
                if let v = m.geoidSeparation { epoch.fix.geoidSeparation = v }
            }
            if let v = m.satellitesUsed { epoch.fix.satellitesUsed = v }
            if let v = m.hdop { epoch.fix.hdop = v }
        case .gns(let m):
            if let noFix = m.saysNoFix {
                if noFix { epoch.saysInvalid = true } else { epoch.saysValid = true }
            }
            if m.saysNoFix != true {
                position(m.latitude, m.longitude)
                if let v = m.altitudeMSL { epoch.fix.altitudeMSL = v }
                if let v = m.geoidSeparation { epoch.fix.geoidSeparation = v }
            }
            if let v = m.satellitesUsed, epoch.fix.satellitesUsed == nil { epoch.fix.satellitesUsed = v }
            if let v = m.hdop { epoch.fix.hdop = v }
        case .gll(let m):
            indicate(m.statusValid)
            if let mode = m.mode { indicate(mode) }
            if m.statusValid != false { position(m.latitude, m.longitude) }
        case .gsa(let m):
            if let type = m.fixType { epoch.gsaFixType = max(epoch.gsaFixType ?? 0, type) }
            epoch.gsaSatellites += m.satelliteCount
            if let v = m.pdop { epoch.fix.pdop = v }
            if let v = m.hdop { epoch.fix.hdop = v }
            if let v = m.vdop { epoch.fix.vdop = v }
        case .vtg(let m):
            if m.mode == .notValid { epoch.saysInvalid = true }
            if epoch.fix.speedKnots == nil, let v = m.speedKnots { epoch.fix.speedKnots = v }
            if epoch.fix.track == nil, let v = m.trackTrue { epoch.fix.track = v }
        case .zda(let m):
            if let date = m.date, let corrected = rules.corrected(date) {
                epoch.date = corrected
                epoch.dateTrusted = true
            }
        case .gsv, .txt:
            break
        }
    }

    private mutating func indicate(_ valid: Bool?) {
        switch valid {
        case true?: epoch.saysValid = true
        case false?: epoch.saysInvalid = true
        case nil: break
        }
    }

    private mutating func indicate(_ mode: FAAMode) {
        if mode.saysInvalid { epoch.saysInvalid = true } else { epoch.saysValid = true }
    }

    private mutating func position(_ latitude: GeoAngle?, _ longitude: GeoAngle?) {
        guard let latitude, let longitude else { return }
        epoch.fix.latitude = latitude
        epoch.fix.longitude = longitude
    }

    private mutating func close(_ emit: (Fix) -> Void) {
        var out = epoch.fix
        if let type = epoch.gsaFixType {
            if type == 1 { epoch.saysInvalid = true } else { epoch.saysValid = true }
        }
        let valid = epoch.saysValid && !epoch.saysInvalid && out.latitude != nil
        if valid {
            if let type = epoch.gsaFixType, type >= 2 {
                out.mode = type == 3 ? .threeD : .twoD
            } else {
                out.mode = out.altitudeMSL != nil ? .threeD : .twoD
            }
            if out.satellitesUsed == nil, epoch.gsaSatellites > 0 { out.satellitesUsed = epoch.gsaSatellites }
        } else {
            out.mode = epoch.saysValid || epoch.saysInvalid ? .noFix : .unknown
            out.latitude = nil
            out.longitude = nil
            out.altitudeMSL = nil
            out.speedKnots = nil
            out.track = nil
        }
        if let tod = out.timeOfDay {
            if let date = epoch.date {
                out.time = UTCTime(date: date, timeOfDay: tod)
                // Only a date this epoch brought (valid RMC or ZDA) in an epoch with a fix.
                out.timeIsTrusted = valid && epoch.dateTrusted
                dateAnchor = out.time
            } else if let anchor = dateAnchor {
                var date = anchor.date
                // Past midnight since the date was last seen: the time of day went back by more
                // than half a day.
                if anchor.timeOfDay.milliseconds - tod.milliseconds > 43_200_000 { date = date.adding(days: 1) }
                out.time = UTCTime(date: date, timeOfDay: tod)
                dateAnchor = out.time
            }
        }
        emit(out)
        epoch = Epoch()
    }

    static func time(of message: NMEAMessage) -> TimeOfDay? {
        switch message {
        case .rmc(let m): m.time
        case .gga(let m): m.time
        case .gns(let m): m.time
        case .gll(let m): m.time
        case .zda(let m): m.time
        case .gsa, .gsv, .vtg, .txt: nil
        }
    }

    /// Talker and type in one word; a GSV counts only as the last of its group.
    static func key(_ talker: NMEATalker, _ message: NMEAMessage) -> UInt32 {
        let type: UInt32
        switch message {
        case .rmc: type = 1
        case .gga: type = 2
        case .gns: type = 3
        case .gll: type = 4
        case .gsa: type = 5
        case .gsv(let m): type = m.messageNumber == m.totalMessages ? 6 : 7
        case .vtg: type = 8
        case .zda: type = 9
        case .txt: type = 10
        }
        return UInt32(talker.first) << 24 | UInt32(talker.second) << 16 | type
    }

    /// The sentence types a receiver sends once per epoch per talker, so a repeat means a new
    /// epoch even when the time field is empty (a receiver before its first fix).
    static func isOncePerEpoch(_ message: NMEAMessage) -> Bool {
        switch message {
        case .rmc, .gga, .gns, .gll, .vtg, .zda: true
        case .gsa, .gsv, .txt: false
        }
    }
}
