/// What the device does with its screens over time, with nobody pressing a button.
///
/// Both settings are about the panel as much as the reader: an OLED pixel that stays lit for
/// months wears out (Hackaday's 378-day SSD1306 test found burnt pixels "correlating with how
/// often these pixels were on"), so a static weather screen needs either rotation or a moving
/// frame (docs/design/parts.md#burn-in).
public struct ScreenConfig: Sendable, Equatable {
    /// The range `"rotate"` accepts, in seconds.
    public static let rotateRange: ClosedRange<Int> = 10...3600

    /// Show the next screen this often (`"rotate"`, 10 s to 1 h); nil when only the buttons
    /// change screens.
    public let rotateEvery: Duration?
    /// Move the whole frame by a few pixels every few minutes against OLED burn-in, as
    /// Android's `BurnInProtectionHelper` does (`"orbit"`). OLEDs only: a character LCD does
    /// not burn in and cannot move by pixels.
    public let orbit: Bool

    public init(rotateEvery: Duration? = ScreenConfig.oledRotation, orbit: Bool = true) {
        self.rotateEvery = rotateEvery
        self.orbit = orbit
    }

    /// The rotation an OLED gets unless the file says otherwise. Measured with
    /// `simulate --headless --duration 86400`: with the orbit alone the most-lit pixel is lit
    /// 72 % of a day; rotating now, hours, days and indoor every 60 s brings it to 45–48 %
    /// (docs/design/measurements.md#targets: at most 50 %).
    public static let oledRotation: Duration = .seconds(60)

    /// What a board file without `"screens"` gets on an OLED: rotation every 60 s, orbit on.
    public static let standard = ScreenConfig()

    /// The defaults for a display: a character LCD does not burn in, so it keeps the screen a
    /// person chose.
    public static func standard(for kind: DisplayKind?) -> ScreenConfig {
        kind?.isOLED == false ? ScreenConfig(rotateEvery: nil) : .standard
    }
}
