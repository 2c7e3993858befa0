import JSON
import HAL

/// The GPS port, the default location and the time zone: where the device is and what time
/// it is there.
extension BoardValidator {
    static let gpsKeys = ["device", "baud", "simulated"]
    static let locationKeys = ["name", "latitude", "longitude"]

    /// A present member read by `read`, or `fallback` when absent (or null); nil after a problem.
    mutating func field<T>(
        _ members: [String: JSONValue], _ key: String, at base: String, default fallback: T,
        _ read: (inout BoardValidator, JSONValue, String) -> T?
    ) -> T? {
        guard let value = optional(members, key) else { return fallback }
        return read(&self, value, FieldPath.member(base, key))
    }

    /// A required member read by `read`; nil after a problem (missing, null or invalid).
    mutating func requiredField<T>(
        _ members: [String: JSONValue], _ key: String, at base: String, what: String,
        _ read: (inout BoardValidator, JSONValue, String) -> T?
    ) -> T? {
        guard let value = required(members, key, at: base, what: what) else { return nil }
        return read(&self, value, FieldPath.member(base, key))
    }

    mutating func gps(_ value: JSONValue, at path: String) -> GPSConfig? {
        guard let members = members(of: value, at: path, allowed: Self.gpsKeys) else { return nil }
        let simulated = field(members, "simulated", at: path, default: false) { $0.bool($1, at: $2) }
        let readDevice = { (validator: inout BoardValidator, value: JSONValue, at: String) in validator.serialDevice(value, at: at) }
        // The twin needs no port; it takes the usual one's name.
        let device = simulated == true
            ? field(members, "device", at: path, default: "/dev/serial0", readDevice)
            : requiredField(members, "device", at: path, what: "the receiver's serial port, e.g. \"/dev/serial0\" or \"/dev/ttyACM0\"", readDevice)
        let baud = field(members, "baud", at: path, default: GPSBaud.auto) { $0.baud($1, at: $2) }
        guard let device, let baud, let simulated else { return nil }
        return GPSConfig(device: device, baud: baud, simulated: simulated)
    }

    /// A tty under /dev. Other device nodes are named, because pasting the display's bus into
    /// the GPS field is an easy slip.
    private mutating func serialDevice(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        let examples = "e.g. \"/dev/serial0\" (the Pi's UART on pins 8 and 10), \"/dev/ttyACM0\" or \"/dev/serial/by-id/…\" (USB)"
        guard text.hasPrefix("/dev/"), text.count > 5, !text.hasSuffix("/") else {
            report(path, "expected a serial device path under /dev, \(examples); found \"\(text)\"")
            return nil
        }
        if text.contains(where: \.isWhitespace) || text.contains("/../") || text.hasSuffix("/..") {
            report(path, "\"\(text)\" is not a plain device path; \(examples)")
            return nil
        }
        let others = [("/dev/i2c-", "an I²C bus"), ("/dev/gpiochip", "a GPIO chip"), ("/dev/spidev", "an SPI device")]
        if let other = others.first(where: { text.hasPrefix($0.0) }) {
            report(path, "\"\(text)\" is \(other.1), not a serial port; \(examples)")
            return nil
        }
        return text
    }

    private mutating func baud(_ value: JSONValue, at path: String) -> GPSBaud? {
        let rates = BaudRate.allCases.map { String($0.rawValue) }.joined(separator: ", ")
        switch value {
        case .string("auto"):
            return .auto
        case .string(let text) where Int(text) != nil:
            report(path, "write the rate as a number without quotes: \(text)")
            return nil
        case .number:
            guard let number = value.integer, let rate = BaudRate(rawValue: number) else {
                report(path, "\(value.kindDescription) is not a supported rate; use one of \(rates) or \"auto\" (NEO-6M modules ship at 9600)")
                return nil
            }
            return .fixed(rate)
        default:
            report(path, "expected a baud rate (\(rates)) or \"auto\", found \(value.kindDescription)")
            return nil
        }
    }

    mutating func defaultLocation(_ value: JSONValue, at path: String) -> DefaultLocation? {
        guard let members = members(of: value, at: path, allowed: Self.locationKeys) else { return nil }
        let name = requiredField(members, "name", at: path, what: "the place name shown until the first fix, e.g. \"Berlin\"") { $0.text($1, at: $2, maximum: 32) }
        var latitude: Double?
        if case .number(let north)? = members["latitude"], case .number(let east)? = members["longitude"],
            abs(north) > 90, abs(east) <= 90
        {
            report(FieldPath.member(path, "latitude"), "\(JSONValue.format(north)) is out of range (latitude must be between -90 and 90); are latitude and longitude swapped?")
        } else {
            latitude = requiredField(members, "latitude", at: path, what: "degrees north (south is negative), e.g. 52.52") {
                $0.number($1, at: $2, in: -90...90, what: "latitude (degrees, south negative)")
            }
        }
        let longitude = requiredField(members, "longitude", at: path, what: "degrees east (west is negative), e.g. 13.405") {
            $0.number($1, at: $2, in: -180...180, what: "longitude (degrees, west negative)")
        }
        // In range by the checks above, so the coordinate cannot fail.
        guard let name, let latitude, let longitude, let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
        else { return nil }
        return DefaultLocation(name: name, coordinate: coordinate)
    }

    /// Checks the *shape* of an IANA zone name (`UTC`, `Europe/Berlin`, `Etc/GMT+5`,
    /// `America/Argentina/Buenos_Aires`). Whether the zone exists is a question for the tz
    /// database on the device, which a board check on a laptop cannot answer.
    mutating func timeZone(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        let example = "an IANA zone name such as \"Europe/Berlin\" or \"UTC\", or leave timeZone out to use the zone of the shown location"
        if let first = text.unicodeScalars.first, "+-0123456789".unicodeScalars.contains(first) || text.contains(":") || text.contains(",") {
            report(path, "\"\(text)\" looks like an offset or a POSIX TZ rule; give \(example) (fixed offsets ignore daylight saving)")
            return nil
        }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        let wellFormed = text.utf8.count <= 64 && (1...3).contains(segments.count) && segments.allSatisfy { segment in
            guard let head = segment.unicodeScalars.first, ("A"..."Z").contains(head) else { return false }
            return segment.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_+-".unicodeScalars.contains(scalar))
            }
        }
        guard wellFormed else {
            report(path, "\"\(text)\" is not shaped like a zone name (Area/Location, each part starting with a capital letter, case-sensitive); give \(example)")
            return nil
        }
        return text
    }
}
