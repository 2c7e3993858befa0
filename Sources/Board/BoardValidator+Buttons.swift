import JSON
import HAL

/// Buttons: each one on its own line of a gpiochip found by label or line name, never by chip
/// number (Pi 5 kernels renumbered the chips twice; see docs/design/parts.md#gpio).
extension BoardValidator {
    static let buttonKeys = ["name", "chip", "line", "activeLow", "bias", "press", "longPress", "debounceMs", "longPressMs", "simulated"]
    static let maximumButtons = 4
    /// Milliseconds. 0 leaves debouncing to the kernel; tact switches settle within about 6 ms
    /// (Ganssle), so beyond 200 ms the debounce only swallows quick presses.
    static let debounceRange = 0...200
    /// Milliseconds. Below 300 a firm short press turns long; above 5 s the button seems dead.
    static let longPressRange = 300...5000
    /// Chip labels on which line `GPIOn` is offset `n`: the Pi 0–3, Pi 4 and Pi 5 header chips.
    static let raspberryPiChips: Set<String> = ["pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"]
    /// The names of the UART on header pins 8 and 10 (GPIO14/15).
    static let headerUARTs: Set<String> = ["/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"]

    mutating func buttons(_ value: JSONValue, at path: String) -> [ButtonConfig]? {
        guard case .array(let elements) = value else {
            let hint = if case .object = value { " (wrap a single button in [ ])" } else { "" }
            report(path, "expected an array of 1 to \(Self.maximumButtons) buttons, found \(value.kindDescription)\(hint)")
            return nil
        }
        var countIsValid = true
        if elements.isEmpty {
            report(path, "at least one button is needed, e.g. [{ \"name\": \"A\", \"line\": \"GPIO17\" }]")
            countIsValid = false
        } else if elements.count > Self.maximumButtons {
            report(path, "has \(elements.count) buttons; at most \(Self.maximumButtons) are supported")
            countIsValid = false
        }
        var buttons: [ButtonConfig] = []
        for (index, element) in elements.enumerated() {
            if let button = button(element, at: FieldPath.element(path, index), index: index) { buttons.append(button) }
        }
        guard buttons.count == elements.count else { return nil }
        checkConflicts(buttons, at: path)
        return countIsValid ? buttons : nil
    }

    private mutating func button(_ value: JSONValue, at path: String, index: Int) -> ButtonConfig? {
        guard let members = members(of: value, at: path, allowed: Self.buttonKeys) else { return nil }
        let name = requiredField(members, "name", at: path, what: "a short label such as \"A\"") { $0.text($1, at: $2, maximum: 16) }
        let chip: String?? = field(members, "chip", at: path, default: String?.none) { $0.chipLabel($1, at: $2) }
        let simulated = field(members, "simulated", at: path, default: false) { $0.bool($1, at: $2) }
        let readLine = { (validator: inout BoardValidator, value: JSONValue, at: String) in
            validator.line(value, at: at, chipGiven: members["chip"] != nil)
        }
        // A simulated button needs no line: its twin is pressed by keys, not wired.
        let line = simulated == true
            ? field(members, "line", at: path, default: LineReference.simulated, readLine)
            : requiredField(members, "line", at: path, what: "the GPIO line, by name (\"GPIO17\") or by offset on the chip (17)", readLine)
        let activeLow = field(members, "activeLow", at: path, default: true) { $0.bool($1, at: $2) }
        let bias = field(members, "bias", at: path, default: Bias.pullUp) { $0.choice($1, at: $2, of: Bias.self) }
        let defaults = ButtonConfig.defaultActions(forIndex: index)
        let press = field(members, "press", at: path, default: defaults.press) { $0.choice($1, at: $2, of: ButtonAction.self) }
        let longPress = field(members, "longPress", at: path, default: defaults.longPress) {
            $0.choice($1, at: $2, of: ButtonAction.self)
        }
        let debounce = field(members, "debounceMs", at: path, default: ButtonConfig.defaultDebounce) {
            $0.milliseconds($1, at: $2, in: Self.debounceRange, what: "the debounce time",
                why: "0 for a switch debounced in hardware; a switch that bounces longer than 200 ms is broken")
        }
        let longPressDuration = field(members, "longPressMs", at: path, default: ButtonConfig.defaultLongPressDuration) {
            $0.milliseconds($1, at: $2, in: Self.longPressRange, what: "the long-press time",
                why: "below 300 a firm short press turns long; above 5000 the button seems dead")
        }
        if let activeLow, let bias, (activeLow && bias == .pullDown) || (!activeLow && bias == .pullUp) {
            let rest = bias == .pullDown ? "low" : "high"
            report(FieldPath.member(path, "bias"), "\"\(bias.rawValue)\" with \"activeLow\": \(activeLow) makes the line rest \(rest), which reads as a button held down; a button to GND needs \"pull-up\" and \"activeLow\": true, a button to 3.3 V needs \"pull-down\" and \"activeLow\": false")
            return nil
        }
        guard let name, let chip, let line, let activeLow, let bias, let press, let longPress, let debounce, let longPressDuration,
            let simulated
        else { return nil }
        return ButtonConfig(
            name: name, chip: chip, line: line, activeLow: activeLow, bias: bias, press: press, longPress: longPress,
            debounce: debounce, longPressDuration: longPressDuration, simulated: simulated)
    }

    /// A whole number of milliseconds within `range`, as a `Duration`.
    private mutating func milliseconds(_ value: JSONValue, at path: String, in range: ClosedRange<Int>, what: String, why: String) -> Duration? {
        wholeNumber(value, at: path, in: range, unit: "milliseconds", what: what, why: why).map { .milliseconds($0) }
    }

    /// A chip label as `gpiodetect` prints it in brackets. Chip numbers and paths are refused
    /// with the reason, because they work on one kernel and break on the next.
    private mutating func chipLabel(_ value: JSONValue, at path: String) -> String?? {
        guard let text = string(value, at: path) else { return nil }
        let labels = "use the chip's label as gpiodetect shows it in brackets, e.g. \"pinctrl-bcm2711\" (Pi 4), \"pinctrl-rp1\" (Pi 5), \"pinctrl-bcm2835\" (Pi 0–3), or leave chip out and name the line (\"GPIO17\")"
        let bare = text.hasPrefix("/dev/") ? String(text.dropFirst(5)) : text
        if bare.hasPrefix("gpiochip") || text.allSatisfy(\.isNumber) {
            report(path, "\"\(text)\" is a chip number, and chip numbers change between kernels (a Pi 5 moved from gpiochip4 to gpiochip0); \(labels)")
            return nil
        }
        if text.hasPrefix("/") || text.isEmpty || text.contains(where: \.isWhitespace) || text.utf8.count > 31 {
            report(path, "\"\(text)\" is not a chip label; \(labels)")
            return nil
        }
        return .some(text)
    }

    /// A line name (`GPIO17`) or an offset (17). Offsets need a chip label, since the same
    /// offset exists on every chip; offsets of 512 and up are sysfs numbers from Pi kernels
    /// 6.6 and later (base 512), a leftover from sysfs-era tutorials.
    private mutating func line(_ value: JSONValue, at path: String, chipGiven: Bool) -> LineReference? {
        switch value {
        case .number:
            guard let offset = value.integer, offset >= 0 else {
                report(path, "expected a line offset (a whole number from 0) or a line name like \"GPIO17\", found \(value.kindDescription)")
                return nil
            }
            if offset >= 512 {
                report(path, "\(offset) looks like a sysfs GPIO number (Pi kernels from 6.6 start at 512, making it GPIO\(offset - 512)); use the line name \"GPIO\(offset - 512)\"")
                return nil
            }
            if !chipGiven {
                report(path, "offset \(offset) needs a chip label (add \"chip\": \"pinctrl-bcm2711\" on a Pi 4, \"pinctrl-rp1\" on a Pi 5), or give the line by name: \"GPIO\(offset)\"")
                return nil
            }
            return .offset(offset)
        case .string(let text):
            if !text.isEmpty, text.allSatisfy(\.isNumber) {
                report(path, "\"\(text)\" would be looked up as a line name; write the offset as a number (\(text)) or the name \"GPIO\(text)\"")
                return nil
            }
            guard !text.isEmpty, !text.contains(where: \.isWhitespace), text.utf8.count <= 31 else {
                report(path, "\"\(text)\" is not a line name; use the name gpioinfo shows, e.g. \"GPIO17\"")
                return nil
            }
            return .name(text)
        default:
            report(path, "expected a line name like \"GPIO17\" or an offset like 17, found \(value.kindDescription)")
            return nil
        }
    }

    /// The Raspberry Pi GPIO number of a button's line, when it can be told from the file.
    static func raspberryPiGPIO(_ button: ButtonConfig) -> Int? {
        guard !button.simulated else { return nil }
        let onPiChip = button.chip.map { raspberryPiChips.contains($0) } ?? true
        guard onPiChip else { return nil }
        switch button.line {
        case .offset(let offset): return button.chip == nil ? nil : offset
        case .name(let name):
            guard name.hasPrefix("GPIO"), let number = Int(name.dropFirst(4)), number >= 0 else { return nil }
            return number
        case .simulated: return nil
        }
    }

    /// Two buttons may not share a name or a line. `GPIO17` and offset 17 on a Pi chip are the
    /// same line, and a line named without a chip is the same as that name on any chip.
    private mutating func checkConflicts(_ buttons: [ButtonConfig], at path: String) {
        for (later, button) in buttons.enumerated() {
            for earlier in 0..<later {
                let other = buttons[earlier]
                let what = "\(FieldPath.element(path, earlier)) (\"\(other.name)\")"
                if other.name.lowercased() == button.name.lowercased() {
                    report(FieldPath.member(FieldPath.element(path, later), "name"), "\(what) already has this name; give each button its own")
                }
                let sameChip = other.chip == nil || button.chip == nil || other.chip == button.chip
                let piNumbers = (Self.raspberryPiGPIO(other), Self.raspberryPiGPIO(button))
                let sameLine = if let a = piNumbers.0, let b = piNumbers.1 { a == b } else { other.line == button.line }
                // A twin has no wire: it cannot clash with a line.
                if sameChip, sameLine, !other.simulated, !button.simulated {
                    report(FieldPath.member(FieldPath.element(path, later), "line"), "\(what) is already on \(button.line); each button needs its own line")
                }
            }
        }
    }
}

extension BoardValidator {
    /// Refuses buttons on the header pins the build already uses for something else: GPIO2/3
    /// are SDA/SCL of `/dev/i2c-1`, GPIO14/15 are TXD/RXD of the header UART (`/dev/serial0`,
    /// or by its kernel names `/dev/ttyAMA0` and `/dev/ttyS0`; a Pi 5's UART0). A button there
    /// would fight the bus, and the failure would look like a broken display or a silent GPS.
    mutating func checkReservedPins(_ buttons: [ButtonConfig], display: DisplayConfig?, sensor: SensorConfig?, gps: GPSConfig?) {
        var busUsers: [String] = []
        if let display, display.bus.number == 1, !display.simulated { busUsers.append("the display") }
        if let sensor, sensor.bus.number == 1, !sensor.simulated { busUsers.append("the sensor") }
        let free = "pick a free line such as GPIO5, GPIO6, GPIO13, GPIO26 or GPIO23"
        for (index, button) in buttons.enumerated() {
            guard let gpio = Self.raspberryPiGPIO(button) else { continue }
            let path = FieldPath.member(FieldPath.element("buttons", index), "line")
            if gpio == 2 || gpio == 3, !busUsers.isEmpty {
                report(path, "GPIO\(gpio) is \(gpio == 2 ? "SDA" : "SCL") of /dev/i2c-1, which \(busUsers.joined(separator: " and ")) \(busUsers.count > 1 ? "use" : "uses"); \(free)")
            }
            if gpio == 14 || gpio == 15, let gps, !gps.simulated, Self.headerUARTs.contains(gps.device) {
                report(path, "GPIO\(gpio) is \(gpio == 14 ? "TXD" : "RXD") of \(gps.device), which the GPS uses; \(free)")
            }
        }
    }
}
