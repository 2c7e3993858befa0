import Drivers

/// What the board file says about the display, as the drivers take it.
extension DisplayConfig {
    /// The OLED driver's panel profile (controller defaults, then the board's column offset,
    /// rotation, supply and address), or `nil` for a character LCD.
    public var oledProfile: OLEDProfile? {
        var profile: OLEDProfile
        let options: OLEDOptions
        switch controller {
        case .ssd1306(let oled):
            profile = geometry == .oled128x32 ? .ssd1306_128x32 : .ssd1306_128x64
            options = oled
        case .sh1106(let oled):
            profile = .sh1106_128x64
            profile.columnOffset = oled.columnOffset
            options = oled
        case .hd44780:
            return nil
        }
        if options.externalVCC { profile = profile.withExternalVCC() }
        profile.rotation = options.rotation
        profile.address = address.value
        return profile
    }

    /// The character LCD's size and pin map, or `nil` for an OLED.
    public var characterLCD: (geometry: CharacterLCDGeometry, pins: HD44780PinMap)? {
        guard case .hd44780(let backpack) = controller else { return nil }
        let geometry: CharacterLCDGeometry = self.geometry == .lcd20x4 ? .lcd20x4 : .lcd16x2
        return (geometry, backpack.pins)
    }
}
