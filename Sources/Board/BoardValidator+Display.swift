import JSON
/// The I²C side of the build: the display, the sensor, and the rule that two devices on one
/// bus cannot share an address.
extension BoardValidator {
    static let displayKeys = ["kind", "geometry", "bus", "address", "columnOffset", "rotation", "externalVCC", "backpack", "onStop", "simulated"]
    static let sensorKeys = ["kind", "bus", "address", "temperatureOffset", "simulated"]
    /// PCF8574 (0x20–0x27) and PCF8574A (0x38–0x3F) strap ranges.
    static let backpackAddresses = Array(UInt8(0x20)...0x27) + Array(UInt8(0x38)...0x3F)
    static let sensorAddresses: [UInt8] = [0x76, 0x77]

    mutating func display(_ value: JSONValue, at path: String) -> DisplayConfig? {
        guard let members = members(of: value, at: path, allowed: Self.displayKeys) else { return nil }
        let kind = requiredField(members, "kind", at: path, what: "\"ssd1306\", \"sh1106\" or \"hd44780\"") {
            $0.choice($1, at: $2, of: DisplayKind.self)
        }
        let geometry = field(members, "geometry", at: path, default: kind?.geometries.first ?? .oled128x64) {
            $0.geometry($1, at: $2, kind: kind)
        }
        let bus = field(members, "bus", at: path, default: I2CBusPath(number: 1)) { $0.busPath($1, at: $2) }
        let plausible = kind == .hd44780 ? Self.backpackAddresses : [0x3C, 0x3D]
        let address = field(members, "address", at: path, default: I2CAddress(known: kind?.defaultAddress ?? 0x3C)) {
            $0.address($1, at: $2, plausible: plausible)
        }
        let controller = kind.flatMap { self.controller(for: $0, members, at: path) }
        let onStop: DisplayStop?? = field(members, "onStop", at: path, default: DisplayStop?.none) {
            $0.choice($1, at: $2, of: DisplayStop.self).map { .some($0) }
        }
        let simulated = field(members, "simulated", at: path, default: false) { $0.bool($1, at: $2) }
        guard let geometry, let bus, let address, let controller, let onStop, let simulated else { return nil }
        return DisplayConfig(controller: controller, geometry: geometry, bus: bus, address: address, simulated: simulated, onStop: onStop)
    }

    private mutating func controller(for kind: DisplayKind, _ members: [String: JSONValue], at path: String) -> DisplayConfig.Controller? {
        guard kind.isOLED else {
            rejectInapplicable(members, ["columnOffset", "rotation", "externalVCC"], at: path,
                because: "applies to OLED panels (ssd1306, sh1106) only, not to an hd44780")
            let backpack = field(members, "backpack", at: path, default: BackpackMap.ywrobot) {
                $0.choice($1, at: $2, of: BackpackMap.self)
            }
            return backpack.map { .hd44780($0) }
        }
        rejectInapplicable(members, ["backpack"], at: path, because: "applies to hd44780 character LCDs only")
        if kind == .ssd1306 {
            rejectInapplicable(members, ["columnOffset"], at: path,
                because: "applies to sh1106 only; an ssd1306 has no column offset (a picture shifted by 2 pixels means the module is an sh1106)")
        }
        let offset = kind == .sh1106 ? field(members, "columnOffset", at: path, default: 2) { $0.columnOffset($1, at: $2) } : 0
        let rotation = field(members, "rotation", at: path, default: Rotation.normal) { $0.rotation($1, at: $2) }
        let externalVCC = field(members, "externalVCC", at: path, default: false) { $0.bool($1, at: $2) }
        guard let offset, let rotation, let externalVCC else { return nil }
        let options = OLEDOptions(columnOffset: offset, rotation: rotation, externalVCC: externalVCC)
        return kind == .sh1106 ? .sh1106(options) : .ssd1306(options)
    }

    private mutating func geometry(_ value: JSONValue, at path: String, kind: DisplayKind?) -> DisplayGeometry? {
        guard let text = string(value, at: path) else { return nil }
        // "128×64" and "128 X 64" are how shops write it; accept them.
        let folded = String(text.lowercased().compactMap { $0 == " " ? nil : $0 == "×" ? "x" : $0 })
        guard let geometry = DisplayGeometry(rawValue: folded) else {
            let allowed = Suggestion.list((kind?.geometries ?? DisplayGeometry.allCases).map(\.rawValue))
            report(path, "\"\(text)\" is not a supported size; expected \(allowed)")
            return nil
        }
        if let kind, !kind.geometries.contains(geometry) {
            let fits = DisplayKind.allCases.filter { $0.geometries.contains(geometry) }.map(\.rawValue)
            report(path, "an \(kind.rawValue) comes as \(Suggestion.list(kind.geometries.map(\.rawValue))); \(geometry.rawValue) is a size for \(Suggestion.list(fits))")
            return nil
        }
        return geometry
    }

    private mutating func columnOffset(_ value: JSONValue, at path: String) -> Int? {
        guard let offset = value.integer, offset == 0 || offset == 2 else {
            report(path, "must be 2 (most 1.3″ SH1106 boards) or 0 (some others), found \(value.kindDescription); if the picture is shifted by 2 pixels with noise at one edge, try the other")
            return nil
        }
        return offset
    }

    private mutating func rotation(_ value: JSONValue, at path: String) -> Rotation? {
        guard let degrees = value.integer, let rotation = Rotation(rawValue: degrees) else {
            report(path, "must be 0 or 180 (the controller can only flip the picture), found \(value.kindDescription)")
            return nil
        }
        return rotation
    }

    mutating func sensor(_ value: JSONValue, at path: String, displayBus: I2CBusPath?) -> SensorConfig? {
        guard let members = members(of: value, at: path, allowed: Self.sensorKeys) else { return nil }
        let kind = requiredField(members, "kind", at: path, what: "\"bme280\" or \"bmp280\"") {
            $0.choice($1, at: $2, of: SensorConfig.Kind.self)
        }
        let bus = field(members, "bus", at: path, default: displayBus ?? I2CBusPath(number: 1)) { $0.busPath($1, at: $2) }
        let address = field(members, "address", at: path, default: I2CAddress(known: 0x76)) {
            guard let address = $0.address($1, at: $2, plausible: Self.sensorAddresses) else { return nil }
            guard Self.sensorAddresses.contains(address.value) else {
                $0.report($2, "a BME280 or BMP280 answers only at 0x76 (SDO to GND) or 0x77 (SDO to 3.3 V), found \(address)")
                return nil
            }
            return address
        }
        let offset = field(members, "temperatureOffset", at: path, default: 0.0) {
            $0.number($1, at: $2, in: -10...10, what: "the temperature offset (°C, added to every reading)")
        }
        let simulated = field(members, "simulated", at: path, default: false) { $0.bool($1, at: $2) }
        guard let kind, let bus, let address, let offset, let simulated else { return nil }
        return SensorConfig(kind: kind, bus: bus, address: address, temperatureOffset: offset, simulated: simulated)
    }

    mutating func checkAddressClash(display: DisplayConfig, sensor: SensorConfig) {
        // A twin sits on the simulated bus, not on the wires of a real one.
        guard display.bus == sensor.bus, display.address == sensor.address, display.simulated == sensor.simulated else { return }
        report("sensor.address", "the display already uses \(display.address) on \(display.bus); two devices on one bus need different addresses (a BME280 moves to 0x77 with SDO tied to 3.3 V)")
    }

    /// `/dev/i2c-N`. The number alone is refused, because `"bus": 1` next to `"address": 60`
    /// is exactly the kind of file where a reader cannot tell which number means what.
    private mutating func busPath(_ value: JSONValue, at path: String) -> I2CBusPath? {
        let example = "expected an I²C bus path like \"/dev/i2c-1\" (pins 3 and 5 on a Raspberry Pi)"
        switch value {
        case .number:
            report(path, "write the bus as a path, e.g. \"/dev/i2c-\(value.integer.map(String.init) ?? "1")\"")
        case .string(let text):
            let digits = text.hasPrefix("/dev/i2c-") ? String(text.dropFirst(9)) : ""
            if !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCII), let number = Int(digits), digits.allSatisfy(\.isNumber) {
                return I2CBusPath(number: number)
            }
            let hint = text.hasPrefix("i2c-") ? "; did you mean \"/dev/\(text)\"?" : ""
            report(path, "\(example), found \"\(text)\"\(hint)")
        default:
            report(path, "\(example), found \(value.kindDescription)")
        }
        return nil
    }

    /// A 7-bit address, written `"0x3C"` (as data sheets and i2cdetect do) or as a number.
    /// `plausible` lists the addresses the part can be strapped to; it is used only to spot a
    /// decimal number that was meant as hex (`27` for `0x27`), which would otherwise pass as
    /// the perfectly valid but wrong 0x1B.
    mutating func address(_ value: JSONValue, at path: String, plausible: [UInt8]) -> I2CAddress? {
        let raw: Int
        switch value {
        case .number:
            guard let number = value.integer, number >= 0 else {
                report(path, "expected a 7-bit address such as \"0x3C\", found \(value.kindDescription)")
                return nil
            }
            if let meant = UInt8(String(number), radix: 16), plausible.contains(meant),
                number > 0xFF || !plausible.contains(UInt8(number))
            {
                report(path, "\(number) is decimal (\(I2CAddress.hex(number))); did you mean \"\(I2CAddress.hex(Int(meant)))\"? Write hex addresses as strings")
                return nil
            }
            raw = number
        case .string(let text):
            let lower = text.lowercased()
            let digits = lower.hasPrefix("0x") ? String(lower.dropFirst(2)) : ""
            guard (1...2).contains(digits.count), let number = Int(digits, radix: 16), digits.allSatisfy(\.isHexDigit) else {
                let bare = text.count <= 2 && text.allSatisfy(\.isHexDigit) ? "; did you mean \"0x\(text.uppercased())\"?" : ""
                report(path, "expected a hex address such as \"0x3C\", found \"\(text)\"\(bare)")
                return nil
            }
            raw = number
        default:
            report(path, "expected an address such as \"0x3C\", found \(value.kindDescription)")
            return nil
        }
        guard raw <= 0xFF, let address = I2CAddress(UInt8(raw)) else {
            // Data sheets often give the 8-bit write address (even: the 7-bit address shifted left).
            let shifted = raw <= 0xFF && raw % 2 == 0 ? I2CAddress(UInt8(raw >> 1)) : nil
            let eightBit = shifted.map { "; \(I2CAddress.hex(raw)) looks like an 8-bit write address, whose 7-bit address is \($0)" } ?? ""
            report(path, "\(I2CAddress.hex(raw)) is outside 0x08–0x77, the 7-bit addresses a device may use\(eightBit)")
            return nil
        }
        return address
    }
}
