/// The outcome of decoding one framed sentence.
public enum NMEADecoding: Sendable, Equatable {
    case decoded(NMEATalker, NMEAMessage)
    /// Not a sentence this decoder knows: proprietary (`$P…`), or a type such as RMB or GST.
    case unknown
    /// A known sentence with a field that is malformed or out of range.
    case malformed(fieldIndex: Int)
}

/// Decodes RMC, GGA, GNS, GLL, GSA, GSV, VTG, ZDA and TXT from any talker.
///
/// Field layouts follow NMEA 0183 4.11; the 2.3 (FAA mode) and 4.10/4.11 additions (navigational
/// status, system and signal IDs) are read when present. Missing trailing fields are absent and
/// extra ones are ignored, so older and newer receivers both decode.
public enum NMEADecoder {
    /// `sentence` spans `$` to the last checksum digit, as `NMEAFramer` hands it over (the
    /// checksum is not checked again).
    public static func decode(_ sentence: UnsafeRawBufferPointer) -> NMEADecoding {
        // "$GPxxx*hh" at least; at most what the framer hands over (field offsets are bytes).
        guard sentence.count >= 9, sentence.count <= NMEAFramer.maximumLength else { return .unknown }
        let fields = NMEAFields(sentence: sentence)
        let address = fields.range(0)
        guard address.count == 5, sentence[1] != 0x50 else { return .unknown }  // "P": proprietary
        let talker = NMEATalker(sentence[1], sentence[2])
        let type = UInt32(sentence[3]) << 16 | UInt32(sentence[4]) << 8 | UInt32(sentence[5])
        do {
            let message: NMEAMessage
            switch type {
            case 0x52_4D_43: message = .rmc(try rmc(fields))  // RMC
            case 0x47_47_41: message = .gga(try gga(fields))  // GGA
            case 0x47_4E_53: message = .gns(try gns(fields))  // GNS
            case 0x47_4C_4C: message = .gll(try gll(fields))  // GLL
            case 0x47_53_41: message = .gsa(try gsa(fields))  // GSA
            case 0x47_53_56: message = .gsv(try gsv(fields))  // GSV
            case 0x56_54_47: message = .vtg(try vtg(fields))  // VTG
            case 0x5A_44_41: message = .zda(try zda(fields))  // ZDA
            case 0x54_58_54: message = .txt(try txt(fields))  // TXT
            default: return .unknown
            }
            return .decoded(talker, message)
        } catch {
            return .malformed(fieldIndex: error.index)
        }
    }

    static func status(_ fields: NMEAFields, _ index: Int) throws(MalformedField) -> Bool? {
        switch try fields.character(index) {
        case nil: nil
        case 0x41: true  // A
        case 0x56: false  // V
        default: throw MalformedField(index: index)
        }
    }

    static func mode(_ fields: NMEAFields, _ index: Int) throws(MalformedField) -> FAAMode? {
        guard let c = try fields.character(index) else { return nil }
        guard let mode = FAAMode(rawValue: c) else { throw MalformedField(index: index) }
        return mode
    }

    // $--RMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,x.x,x.x,ddmmyy,x.x,a,m,s*hh
    static func rmc(_ f: NMEAFields) throws(MalformedField) -> RMC {
        var m = RMC()
        m.time = try f.timeOfDay(1)
        m.statusValid = try status(f, 2)
        m.latitude = try f.angle(3, isLatitude: true)
        m.longitude = try f.angle(5, isLatitude: false)
        m.speedKnots = try f.decimal(7, nonNegativeUpTo: 99_999)
        m.course = try f.decimal(8, nonNegativeUpTo: 360)
        m.date = try f.twoDigitYearDate(9)
        if var variation = try f.decimal(10, nonNegativeUpTo: 180) {
            switch try f.character(11) {
            case 0x57: variation.mantissa = -variation.mantissa  // W
            case 0x45, nil: break
            default: throw MalformedField(index: 11)
            }
            m.magneticVariation = variation
        }
        m.mode = try mode(f, 12)
        m.navigationalStatus = try f.character(13)
        return m
    }

    /// Bounds on values no receiver can mean beyond: 100 km of altitude (receivers stop at
    /// 18 km under the CoCom limit, 50 km in u-blox's airborne mode), and 1 km of geoid
    /// separation (the geoid departs from WGS 84 by −106 to +85 m). Without them an 18-digit
    /// altitude reaches arithmetic that expects metres.
    enum Limits {
        static let altitude: Int64 = 100_000
        static let geoidSeparation: Int64 = 1000
    }

    // $--GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,x.x,x.x,M,x.x,M,x.x,xxxx*hh
    static func gga(_ f: NMEAFields) throws(MalformedField) -> GGA {
        var m = GGA()
        m.time = try f.timeOfDay(1)
        m.latitude = try f.angle(2, isLatitude: true)
        m.longitude = try f.angle(4, isLatitude: false)
        if let q = try f.unsigned(6, in: 0...8) { m.quality = FixQuality(rawValue: UInt8(q)) }
        m.satellitesUsed = try f.unsigned(7, in: 0...99)
        m.hdop = try f.decimal(8, nonNegativeUpTo: 99_999)
        m.altitudeMSL = try f.decimal(9, magnitudeUpTo: Limits.altitude)
        m.geoidSeparation = try f.decimal(11, magnitudeUpTo: Limits.geoidSeparation)
        return m
    }

    // $--GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,c--c,xx,x.x,x.x,x.x,x.x,x.x,s*hh
    static func gns(_ f: NMEAFields) throws(MalformedField) -> GNS {
        var m = GNS()
        m.time = try f.timeOfDay(1)
        m.latitude = try f.angle(2, isLatitude: true)
        m.longitude = try f.angle(4, isLatitude: false)
        let modes = f.range(6)
        guard modes.count <= 6 else { throw MalformedField(index: 6) }
        for i in modes {
            guard FAAMode(rawValue: f.bytes[i]) != nil else { throw MalformedField(index: 6) }
            m.modes[m.modeCount] = f.bytes[i]
            m.modeCount += 1
        }
        m.satellitesUsed = try f.unsigned(7, in: 0...99)
        m.hdop = try f.decimal(8, nonNegativeUpTo: 99_999)
        m.altitudeMSL = try f.decimal(9, magnitudeUpTo: Limits.altitude)
        m.geoidSeparation = try f.decimal(10, magnitudeUpTo: Limits.geoidSeparation)
        return m
    }

    // $--GLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A,a*hh
    static func gll(_ f: NMEAFields) throws(MalformedField) -> GLL {
        var m = GLL()
        m.latitude = try f.angle(1, isLatitude: true)
        m.longitude = try f.angle(3, isLatitude: false)
        m.time = try f.timeOfDay(5)
        m.statusValid = try status(f, 6)
        m.mode = try mode(f, 7)
        return m
    }

    // $--GSA,a,x,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,x.x,x.x,x.x,h*hh  (h: 4.11 system ID)
    static func gsa(_ f: NMEAFields) throws(MalformedField) -> GSA {
        var m = GSA()
        switch try f.character(1) {
        case nil, 0x41, 0x4D: break  // A, M
        default: throw MalformedField(index: 1)
        }
        m.fixType = try f.unsigned(2, in: 1...3)
        for i in 3...14 {
            if let prn = try f.unsigned(i, in: 1...999) {
                m.satellites[m.satelliteCount] = UInt16(prn)
                m.satelliteCount += 1
            }
        }
        m.pdop = try f.decimal(15, nonNegativeUpTo: 99_999)
        m.hdop = try f.decimal(16, nonNegativeUpTo: 99_999)
        m.vdop = try f.decimal(17, nonNegativeUpTo: 99_999)
        if let id = try f.unsigned(18, maximumDigits: 2) {
            m.system = GNSSSystem(rawValue: UInt8(id))  // unknown IDs (0, 7+) read as absent
        }
        return m
    }

    // $--GSV,t,n,ss,pp,ee,aaa,cc,…,s*hh  (1–4 satellites of 4 fields; s: 4.10 signal ID)
    static func gsv(_ f: NMEAFields) throws(MalformedField) -> GSV {
        guard let total = try f.unsigned(1, in: 1...99) else { throw MalformedField(index: 1) }
        guard let number = try f.unsigned(2, in: 1...99), number <= total else { throw MalformedField(index: 2) }
        var m = GSV(totalMessages: total, messageNumber: number)
        m.satellitesInView = try f.unsigned(3, in: 0...999)
        let dataFields = f.count - 4
        let groups = min(max(dataFields, 0) / 4, 4)
        if dataFields > 0, dataFields % 4 == 1 {
            m.signalID = try f.hexDigit(f.count - 1)  // 1…F (u-blox sends BeiDou B2I as "B")
        }
        for g in 0..<groups {
            let base = 4 + g * 4
            let elevation = try f.unsigned(base + 1, in: 0...90)
            let azimuth = try f.unsigned(base + 2, in: 0...360)
            let snr = try f.unsigned(base + 3, in: 0...99)
            guard let prn = try f.unsigned(base, in: 1...999) else {
                if elevation == nil, azimuth == nil, snr == nil { continue }  // an empty slot
                throw MalformedField(index: base)
            }
            m.satellites[m.satelliteCount] = SatelliteInView(
                prn: UInt16(prn), elevation: elevation.map { UInt8($0) }, azimuth: azimuth.map { UInt16($0) },
                snr: snr.map { UInt8($0) })
            m.satelliteCount += 1
        }
        return m
    }

    // $--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m*hh   (NMEA 2.0+; 1.5 sent the four numbers alone)
    static func vtg(_ f: NMEAFields) throws(MalformedField) -> VTG {
        var m = VTG()
        let unitLetters = f.count > 5 || f.equals(2, 0x54)
        if unitLetters {
            m.trackTrue = try f.decimal(1, nonNegativeUpTo: 360)
            m.trackMagnetic = try f.decimal(3, nonNegativeUpTo: 360)
            m.speedKnots = try f.decimal(5, nonNegativeUpTo: 99_999)
            m.speedKilometresPerHour = try f.decimal(7, nonNegativeUpTo: 999_999)
            m.mode = try mode(f, 9)
        } else {
            m.trackTrue = try f.decimal(1, nonNegativeUpTo: 360)
            m.trackMagnetic = try f.decimal(2, nonNegativeUpTo: 360)
            m.speedKnots = try f.decimal(3, nonNegativeUpTo: 99_999)
            m.speedKilometresPerHour = try f.decimal(4, nonNegativeUpTo: 999_999)
        }
        return m
    }

    // $--ZDA,hhmmss.ss,xx,xx,xxxx,xx,xx*hh
    static func zda(_ f: NMEAFields) throws(MalformedField) -> ZDA {
        var m = ZDA()
        m.time = try f.timeOfDay(1)
        let day = try f.unsigned(2, maximumDigits: 2)
        let month = try f.unsigned(3, maximumDigits: 2)
        let year = try f.unsigned(4, maximumDigits: 4)
        if let day, let month, let year {
            guard let date = CalendarDate(year: year, month: month, day: day) else {
                throw MalformedField(index: 2)
            }
            m.date = date
        } else if day != nil || month != nil || year != nil {
            throw MalformedField(index: 2)
        }
        if let hours = try f.decimal(5) {
            guard hours.scale == 0, (-13...13).contains(hours.mantissa) else { throw MalformedField(index: 5) }
            m.zoneHours = Int(hours.mantissa)
        }
        m.zoneMinutes = try f.unsigned(6, in: 0...59)
        return m
    }

    // $--TXT,xx,xx,xx,c--c*hh
    static func txt(_ f: NMEAFields) throws(MalformedField) -> TXT {
        TXT(
            totalMessages: try f.unsigned(1, in: 1...99),
            messageNumber: try f.unsigned(2, in: 1...99),
            textType: try f.unsigned(3, in: 0...99),
            // The text runs to the checksum: a comma inside it is text, not a field separator.
            textRange: f.count > 4 ? f.range(4).lowerBound..<f.end : f.end..<f.end)
    }
}
