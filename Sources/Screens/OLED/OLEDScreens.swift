import Graphics

/// Draws the screens on a 128-pixel-wide OLED: the full layout on a 64-row panel, a compact
/// one on a 32-row panel.
///
/// The frame is cleared and drawn whole from the model every time; the driver's diff against
/// what is on the glass decides what goes over the bus, so the screens never track what
/// changed. Generic over `DrawTarget` so the golden tests can draw into a mock display that
/// fails on overdraw and on drawing outside the panel; `render(_:_:into:)` is the entry point
/// the device uses, specialised for `Framebuffer` inside this module.
public enum OLEDScreens {
    public static func render(_ model: ScreenModel, _ screen: Screen, into frame: inout Framebuffer) {
        frame.clear()
        draw(model, screen, into: &frame)
    }

    /// Draws onto a blank `target`; with a storm alarm up, its banner over the top row (lit or
    /// dark by the minute, `StormBanner`).
    public static func draw<Target: DrawTarget>(_ model: ScreenModel, _ screen: Screen, into target: inout Target) {
        guard let change = model.barograph.alarm else { return drawScreen(model, screen, into: &target) }
        let clock = model.clock.map { UnitFormat.clock($0, model.settings.time) }
        StormBanner.draw(
            change: change, units: model.settings.units, clock: clock, lit: StormBanner.lit(minute: model.clock?.minute),
            into: &target)
        withUnsafeMutablePointer(to: &target) { pointer in
            var below = BelowBanner(base: pointer, top: StormBanner.height)
            drawScreen(model, screen, into: &below)
        }
    }

    private static func drawScreen<Target: DrawTarget>(_ model: ScreenModel, _ screen: Screen, into target: inout Target) {
        // The tall layouts need 62 rows: a 64-row panel, or its canvas two rows shorter when the
        // burn-in orbit moves the frame up and down (App's `Orbit`).
        if target.height >= 62 {
            switch screen {
            case .now: NowScreen.drawTall(model, into: &target)
            case .hours: HoursScreen.drawTall(model, into: &target)
            case .days: DaysScreen.drawTall(model, into: &target)
            case .indoor: IndoorScreen.drawTall(model, into: &target)
            case .barograph: BarographScreen.draw(model, tall: true, into: &target)
            case .status: StatusScreen.draw(model, rows: 5, into: &target)
            }
        } else {
            switch screen {
            case .now: NowScreen.drawShort(model, into: &target)
            case .hours: HoursScreen.drawShort(model, into: &target)
            case .days: DaysScreen.drawShort(model, into: &target)
            case .indoor: IndoorScreen.drawShort(model, into: &target)
            case .barograph: BarographScreen.draw(model, tall: false, into: &target)
            case .status: StatusScreen.draw(model, rows: 2, into: &target)
            }
        }
    }
}

/// Pieces several screens share.
enum ScreenParts {
    /// Row height of the small font, the unit of the layouts.
    static var row: Int { Font.small.height }

    /// The clock's top edge. The small font's digits, `:` and capitals have ink in rows 2–9 of
    /// their 12-row cell, so drawn 2 rows up they fill page 0 exactly: every minute tick,
    /// "09:59" → "10:00" and "12:59 PM" → "1:00 PM" included, is then one window one page
    /// high (≤ 64 payload bytes, docs/design/measurements.md#targets) instead of two pages.
    static let clockY = -2

    /// The top row: `title` (and `suffix`, kept whole while the title gets the ellipsis) on the
    /// left, the clock on the right.
    static func header<Target: DrawTarget>(
        _ title: String, suffix: String? = nil, _ model: ScreenModel, into target: inout Target
    ) {
        var clockWidth = 0
        if let clock = model.clock {
            let text = UnitFormat.clock(clock, model.settings.time)
            clockWidth = Font.small.width(of: text)
            target.drawText(text, font: .small, x: target.width - clockWidth, y: clockY)
        }
        let room = target.width - clockWidth - (clockWidth > 0 ? 4 : 0)
        drawPair(title, suffix, font: .small, x: 0, y: 0, width: room, into: &target)
    }

    /// `first` then `second` on one line within `width`: `second` stays whole, `first` ends
    /// with an ellipsis if both do not fit. Two draws instead of a concatenated string, so
    /// nothing is allocated.
    static func drawPair<Target: DrawTarget>(
        _ first: String, _ second: String?, font: Font, x: Int, y: Int, width: Int, into target: inout Target
    ) {
        guard let second else {
            target.drawText(first, font: font, x: x, y: y, maxWidth: width)
            return
        }
        let secondWidth = font.width(of: second)
        let firstWidth = target.drawText(first, font: font, x: x, y: y, maxWidth: max(0, width - secondWidth))
        target.drawText(second, font: font, x: x + firstWidth, y: y, maxWidth: width - firstWidth)
    }

    /// The one line that says what is wrong, if anything is: the weather service first (its
    /// values are what the screen is about), then the GPS. `detail` is the age of stale values.
    static func problem(_ model: ScreenModel) -> (text: String, detail: String?)? {
        if let problem = model.weather.problem {
            if model.weather.freshness == .ageUnknown { return (problem, ", age unknown") }
            guard case .stale(let minutes) = model.weather.freshness else { return (problem, nil) }
            var age = ShortText(", ")
            age.append(minutes)
            age.append(" min old")
            return (problem, age.string)
        }
        switch model.gps {
        case .fix: return nil
        case .noFix(let satellites):
            guard let satellites else { return ("No GPS fix yet", nil) }
            var count = ShortText(", ")
            count.append(satellites)
            count.append(" sat")
            return ("No GPS fix", count.string)
        case .noReceiver: return ("No GPS receiver", nil)
        case .stale: return ("GPS fix is old", nil)
        }
    }

    /// What follows the place name: "(default)" while the board's location stands in.
    static func placeSuffix(_ model: ScreenModel) -> String? {
        if case .boardDefault = model.place.source { return " (default)" }
        return nil
    }
}
