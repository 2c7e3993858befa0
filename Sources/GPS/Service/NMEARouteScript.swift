import HAL

/// A scripted drive for the simulated location service: a receiver moving along waypoints at a
/// constant speed, sending RMC, GGA and GSA (valid checksums) once per epoch, with optional
/// epochs without a fix (a tunnel). Feed `script(epochs:start:)` to a `SimulatedSerialPort`.
///
/// Positions interpolate linearly between waypoints on an equirectangular projection (metres
/// per degree of longitude scaled by the cosine of the latitude): exact enough over the few
/// kilometres of a test route. The course field is left empty ("not known"), which NMEA allows.
public struct NMEARouteScript: Sendable {
    public struct Waypoint: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public var waypoints: [Waypoint]
    /// Metres per second along the route; the receiver stops at the last waypoint.
    public var speed: Double
    public var epochPeriod: Duration
    /// The UTC time of epoch 0.
    public var startTime: WallTime
    public var altitude = 50.0
    public var satellites = 8
    /// Epochs (by index) in which the receiver has no fix: RMC `V`, GGA quality 0, GSA 1.
    public var noFixEpochs: Set<Int> = []

    public init(waypoints: [Waypoint], speed: Double, epochPeriod: Duration = .seconds(1), startTime: WallTime) {
        precondition(!waypoints.isEmpty, "a route needs a waypoint")
        self.waypoints = waypoints
        self.speed = speed
        self.epochPeriod = epochPeriod
        self.startTime = startTime
    }

    /// Epochs `0..<epochs`, epoch k at `start + k × epochPeriod`.
    public func script(epochs: Int, start: Instant) -> [(Instant, [UInt8])] {
        (0..<epochs).map { (start + epochPeriod * $0, sentences(epoch: $0)) }
    }

    /// Where the receiver is after `elapsed` seconds.
    public func position(after elapsed: Double) -> Waypoint {
        var remaining = max(0, elapsed * speed)
        for (a, b) in zip(waypoints, waypoints.dropFirst()) {
            let (dx, dy) = Self.metres(from: a, to: b)
            let length = (dx * dx + dy * dy).squareRoot()
            if remaining < length, length > 0 {
                let f = remaining / length
                return Waypoint(
                    latitude: a.latitude + (b.latitude - a.latitude) * f,
                    longitude: a.longitude + (b.longitude - a.longitude) * f)
            }
            remaining -= length
        }
        return waypoints[waypoints.count - 1]
    }

    /// The text of epoch `k`'s fields, as its sentences carry them.
    struct EpochFields {
        /// `hhmmss.ss`, `ddmmyy`, and the date itself.
        var time: String, day: String, date: CalendarDate
        /// `ddmm.mmmmm,N` and `dddmm.mmmmm,E`.
        var lat: String, lon: String
        /// Speed over ground in tenths of a knot.
        var knots: Int
    }

    func fields(epoch k: Int) -> EpochFields {
        let ms = startTime.seconds * 1000 + Int64(startTime.nanoseconds / 1_000_000) + epochPeriod.nanoseconds / 1_000_000 * Int64(k)
        let (days, dayMs) = (ms.quotientAndRemainder(dividingBy: 86_400_000))
        let date = CalendarDate(daysSinceEpoch: Int(days))
        let t = TimeOfDay(milliseconds: Int32(dayMs))
        let time = "\(Self.digits(t.hour, 2))\(Self.digits(t.minute, 2))\(Self.digits(t.second, 2)).\(Self.digits(t.millisecond / 10, 2))"
        let day = "\(Self.digits(date.day, 2))\(Self.digits(date.month, 2))\(Self.digits(date.year % 100, 2))"
        let elapsed = Double(epochPeriod.nanoseconds) / 1e9 * Double(k)
        let p = position(after: elapsed)
        let moving = p != waypoints[waypoints.count - 1]
        let knots = Int(((moving ? speed : 0) * 3600 / 1852 * 10).rounded())
        let lat = Self.angle(p.latitude, degreeDigits: 2, positive: "N", negative: "S")
        let lon = Self.angle(p.longitude, degreeDigits: 3, positive: "E", negative: "W")
        return EpochFields(time: time, day: day, date: date, lat: lat, lon: lon, knots: knots)
    }

    /// The RMC, GGA and GSA of epoch `k`.
    public func sentences(epoch k: Int) -> [UInt8] {
        let f = fields(epoch: k)
        let (time, day, lat, lon, knots) = (f.time, f.day, f.lat, f.lon, f.knots)
        let tenths = Int((abs(altitude) * 10).rounded())
        let alt = "\(altitude < 0 ? "-" : "")\(tenths / 10).\(tenths % 10)"
        let sats = (1...12).map { $0 <= satellites ? Self.digits($0, 2) : "" }.joined(separator: ",")
        let empty = { (n: Int) in String(repeating: ",", count: n) }
        if noFixEpochs.contains(k) {
            // Fields after the status: lat, N/S, lon, E/W, speed, course empty; date; variation
            // and its E/W empty; FAA mode N.
            return NMEASentence.make("GPRMC,\(time),V\(empty(7))\(day)\(empty(3))N")
                + NMEASentence.make("GPGGA,\(time)\(empty(5))0,00,99.9,,M,,M,,")
                + NMEASentence.make("GPGSA,A,1\(empty(13))99.9,99.9,99.9")
        }
        return NMEASentence.make("GPRMC,\(time),A,\(lat),\(lon),\(knots / 10).\(knots % 10),,\(day),,,A")
            + NMEASentence.make("GPGGA,\(time),\(lat),\(lon),1,\(Self.digits(satellites, 2)),0.9,\(alt),M,0.0,M,,")
            + NMEASentence.make("GPGSA,A,3,\(sats),1.8,0.9,1.5")
    }

    /// `ddmm.mmmmm,N` (or `dddmm.mmmmm,E`): degrees and decimal minutes, 5 decimals (≈2 cm).
    static func angle(_ degrees: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let scaled = Int64((abs(degrees) * 60 * 100_000).rounded())
        let whole = scaled / 6_000_000
        let minutes = scaled % 6_000_000
        let hemisphere = degrees < 0 ? negative : positive
        return "\(digits(Int(whole), degreeDigits))\(digits(Int(minutes / 100_000), 2)).\(digits(Int(minutes % 100_000), 5)),\(hemisphere)"
    }

    static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    /// East and north metres from `a` to `b` (equirectangular, mean Earth radius 6 371 km).
    static func metres(from a: Waypoint, to b: Waypoint) -> (Double, Double) {
        let radians = Double.pi / 180
        let r = 6_371_000.0
        let midLatitude = (a.latitude + b.latitude) / 2 * radians
        return ((b.longitude - a.longitude) * radians * r * cosine(midLatitude), (b.latitude - a.latitude) * radians * r)
    }

    /// cos(x) for |x| ≤ π/2 by its Taylor series to x¹⁶ (error < 1e-12): GPS stays free of libm
    /// and Foundation.
    static func cosine(_ x: Double) -> Double {
        let x2 = x * x
        var term = 1.0
        var sum = 1.0
        for n in stride(from: 2, through: 16, by: 2) {
            term *= -x2 / Double((n - 1) * n)
            sum += term
        }
        return sum
    }
}
