import Drivers
import Graphics
import HAL
import HALSim
import Screens

/// What a sample scene puts on the glass, derived from the scene's data (`SampleScene.frames`,
/// `UnitFormat`) and the layout rules of Screens/OLED and Screens/LCD — never from a reading —
/// so that `glass` is checked against what the screens mean to show.
///
/// `OLEDLayout` follows each screen's draw calls: where each string starts, in which font, and
/// what of it is visible (a string cut with an ellipsis shows its prefix and `…`; a clipped one
/// only the glyphs that fit whole, since a cut glyph cannot be read).
struct OLEDLayout {
    struct Drawn: Equatable, CustomStringConvertible {
        var text: String
        var x: Int
        var y: Int
        var font: GlassFont
        var description: String { "\"\(text)\" at \(x),\(y) (\(font))" }
    }

    let width: Int
    let height: Int
    private(set) var texts: [Drawn] = []
    private(set) var icons: [GlassIcon] = []
    /// Whether a clipped string shows part of a glyph (pixels no reading can explain).
    private(set) var cutsAGlyph = false
    /// Lit pixels of the Moon pictures (drawn by `drawMoon`, not templates a reading knows).
    var moonPixels = 0
    /// Lit pixels of the diagonal tendency arrows (pictures, like the Moon).
    var arrowPixels = 0
    /// Pictures whose pixels the test does not count (the barograph's graph, the storm banner).
    var hasPictures = false

    /// The strings and icons of `model` on `screen`, on a `width × height` OLED.
    init(_ model: ScreenModel, _ screen: Screen, width: Int, height: Int) {
        self.width = width
        self.height = height
        let tall = height >= 62
        switch (screen, tall) {
        case (.now, true): nowTall(model)
        case (.now, false): nowShort(model)
        case (.hours, true): hoursTall(model)
        case (.hours, false): hoursShort(model)
        case (.days, _): days(model, tall: tall)
        case (.indoor, _): indoor(model, tall: tall)
        case (.barograph, _): barograph(model, tall: tall)
        case (.status, _): status(model, rows: tall ? 5 : 2)
        }
        // The storm banner takes the top row: what the screen drew there is not on the glass,
        // and the banner's dark-on-lit text is a picture to the reader.
        if model.barograph.alarm != nil {
            texts.removeAll { $0.y < 12 }
            hasPictures = true
        }
    }

    // MARK: drawText's rules (Graphics/DrawTarget+Text.swift)

    /// Records what `drawText` shows and returns the width it reports.
    @discardableResult
    mutating func draw(
        _ text: String, _ font: GlassFont = .small, x: Int, y: Int, maxWidth: Int? = nil,
        alignment: TextAlignment = .leading, overflow: Overflow = .ellipsis
    ) -> Int {
        let face = font.font
        let total = face.width(of: text)
        var pen = x
        var visible = text
        var drawn = total
        if let room = maxWidth.map({ max(0, $0) }), total > room {
            let mark = face.ellipsisWidth
            if overflow == .clip || mark > room {
                visible = Self.prefix(text, face, fitting: room)
                drawn = room
                if face.width(of: visible) < room { cutsAGlyph = true }
            } else {
                var cut = Self.prefix(text, face, fitting: room - mark)
                while cut.last == " " { cut.removeLast() }
                visible = cut + "…"
                drawn = face.width(of: cut) + mark
            }
        } else {
            switch (alignment, maxWidth) {
            case (.leading, _): break
            case (.center, let room?): pen += (room - total) / 2
            case (.trailing, let room?): pen += room - total
            case (.center, nil): pen -= total / 2
            case (.trailing, nil): pen -= total
            }
        }
        if visible.contains(where: { $0 != " " }) { texts.append(Drawn(text: visible, x: pen, y: y, font: font)) }
        return drawn
    }

    /// The longest prefix of whole glyphs at most `room` wide.
    static func prefix(_ text: String, _ font: Font, fitting room: Int) -> String {
        var out = "", width = 0
        for character in text {
            let advance = font.width(of: String(character))
            if width + advance > room { break }
            out.append(character)
            width += advance
        }
        return out
    }

    /// The lit pixels of the days screen's Moon disc.
    static func litPixels(_ moon: MoonMark) -> Int {
        var counter = PixelCounter()
        counter.drawMoon(moon, x: 0, y: 0, diameter: 9)
        return counter.lit
    }

    struct PixelCounter: DrawTarget {
        var width: Int { 16 }
        var height: Int { 16 }
        var lit = 0
        mutating func setPixel(x: Int, y: Int, on: Bool) { if on { lit += 1 } }
    }

    mutating func icon(_ group: ConditionGroup?, night: Bool, _ size: IconSize, x: Int, y: Int) {
        guard let group else { return }
        icons.append(GlassIcon(icon: group, night: night && group.hasNightVariant, size: size, x: x, y: y))
    }

    // MARK: ScreenParts (Screens/OLED/OLEDScreens.swift)

    mutating func header(_ title: String, suffix: String? = nil, _ model: ScreenModel) {
        var clockWidth = 0
        if let clock = model.clock {
            let text = UnitFormat.clock(clock, model.settings.time)
            clockWidth = Font.small.width(of: text)
            draw(text, x: width - clockWidth, y: -2)
        }
        pair(title, suffix, x: 0, y: 0, width: width - clockWidth - (clockWidth > 0 ? 4 : 0))
    }

    mutating func pair(_ first: String, _ second: String?, _ font: GlassFont = .small, x: Int, y: Int, width: Int) {
        guard let second else {
            draw(first, font, x: x, y: y, maxWidth: width)
            return
        }
        let firstWidth = draw(first, font, x: x, y: y, maxWidth: max(0, width - font.font.width(of: second)))
        draw(second, font, x: x + firstWidth, y: y, maxWidth: width - firstWidth)
    }

    static func problem(_ model: ScreenModel) -> (text: String, detail: String?)? {
        if let problem = model.weather.problem {
            guard case .stale(let minutes) = model.weather.freshness else { return (problem, nil) }
            return (problem, ", \(minutes) min old")
        }
        switch model.gps {
        case .fix: return nil
        case .noFix(let satellites): return satellites.map { ("No GPS fix", ", \($0) sat") } ?? ("No GPS fix yet", nil)
        case .noReceiver: return ("No GPS receiver", nil)
        case .stale: return ("GPS fix is old", nil)
        }
    }

    static func suffix(_ model: ScreenModel) -> String? {
        if case .boardDefault = model.place.source { return " (default)" }
        return nil
    }
}
