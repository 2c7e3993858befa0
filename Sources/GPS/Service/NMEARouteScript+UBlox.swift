import HAL

/// A u-blox receiver's whole epoch (u-blox 8 / M8 Receiver Description, "NMEA messages") with
/// every standard sentence on, in NMEA 4.0's form. An M8 tracking GPS and GLONASS (talker GN):
/// RMC, VTG, GGA, a GSA per constellation, GSV for 16 GPS (4 sentences) and 12 GLONASS
/// satellites (3 sentences), GLL, ZDA, and with `text` the antenna report TXT: about 880 bytes
/// (915 with TXT), so at 10 Hz on 115,200 Bd 8.8–9.2 kB/s, 77–80 % of the line's 11.5 kB/s.
/// With `glonass` false, a NEO-6M (GPS only, talker GP, 12 satellites in view): about 540
/// bytes, 0.56 s of a 9600 Bd line. The load a receiver puts on the tty, for the read pacing's
/// tests.
extension NMEARouteScript {
    public func ubloxSentences(epoch k: Int, glonass: Bool = true, text: Bool = false) -> [UInt8] {
        let f = fields(epoch: k)
        let talker = glonass ? "GN" : "GP"
        let course = "77.52"
        let knots = "\(f.knots / 10).\(f.knots % 10)"
        let kmh = Int((Double(f.knots) * 0.1852).rounded())
        let tenths = Int((abs(altitude) * 10).rounded())
        let alt = "\(altitude < 0 ? "-" : "")\(tenths / 10).\(tenths % 10)"
        let gps = (0..<12).map { $0 < min(satellites, 12) ? Self.digits(2 + $0 * 2, 2) : "" }.joined(separator: ",")
        let russian = (0..<12).map { $0 < 7 ? Self.digits(65 + $0 * 3, 2) : "" }.joined(separator: ",")
        var out = NMEASentence.make("\(talker)RMC,\(f.time),A,\(f.lat),\(f.lon),\(knots),\(course),\(f.day),,,A")
        out += NMEASentence.make("\(talker)VTG,\(course),T,,M,\(knots),N,\(kmh / 10).\(kmh % 10),K,A")
        out += NMEASentence.make("\(talker)GGA,\(f.time),\(f.lat),\(f.lon),1,\(Self.digits(satellites + (glonass ? 7 : 0), 2)),0.94,\(alt),M,47.9,M,,")
        out += NMEASentence.make("\(talker)GSA,A,3,\(gps),1.62,0.94,1.32")
        if glonass {
            out += NMEASentence.make("GNGSA,A,3,\(russian),1.62,0.94,1.32")
            out += Self.satellitesInView("GP", prns: Array(stride(from: 2, through: 32, by: 2)), epoch: k)
            out += Self.satellitesInView("GL", prns: Array(65..<77), epoch: k)
        } else {
            out += Self.satellitesInView("GP", prns: Array(stride(from: 2, through: 24, by: 2)), epoch: k)
        }
        out += NMEASentence.make("\(talker)GLL,\(f.lat),\(f.lon),\(f.time),A,A")
        out += NMEASentence.make("\(talker)ZDA,\(f.time),\(Self.digits(f.date.day, 2)),\(Self.digits(f.date.month, 2)),\(f.date.year),00,00")
        if text { out += NMEASentence.make("\(talker)TXT,01,01,02,ANTSTATUS=OK") }
        return out
    }

    /// GSV sentences, four satellites each: PRN, elevation, azimuth and a signal-to-noise
    /// ratio that drifts with the epoch (so consecutive epochs differ, as a receiver's do).
    static func satellitesInView(_ talker: String, prns: [Int], epoch k: Int) -> [UInt8] {
        let count = (prns.count + 3) / 4
        var out: [UInt8] = []
        for n in 0..<count {
            var body = "\(talker)GSV,\(count),\(n + 1),\(digits(prns.count, 2))"
            for prn in prns[(n * 4)..<min(prns.count, n * 4 + 4)] {
                let elevation = 10 + prn * 7 % 80
                let azimuth = prn * 37 % 360
                let snr = 25 + (prn + k) % 20
                body += ",\(digits(prn, 2)),\(digits(elevation, 2)),\(digits(azimuth, 3)),\(digits(snr, 2))"
            }
            out += NMEASentence.make(body)
        }
        return out
    }
}
