import Graphics

extension DrawTarget {
    /// The Moon of `mark` as a disc `diameter` pixels across with its top-left corner at `x`,
    /// `y`: the lit part filled, the dark part as its outline only (so a new moon is a ring and
    /// a full moon a filled disc), the lit limb on the side `mark.litOnRight` says.
    ///
    /// The terminator is the ellipse of a sphere lit from the side: on each row, with half-chord
    /// w, it lies w·(1 − 2k) from the centre towards the lit limb for a lit fraction k, which
    /// makes the lit area k of the disc. The fraction drawn is held to the named phase: a
    /// quarter is half lit, a crescent 22–30 %, a gibbous Moon 70–78 %. On a 9-pixel disc that
    /// keeps a lit sliver inside the rim of a crescent and a dark one inside a gibbous Moon
    /// (at 85 % the disc would be full), and a crescent the day before a quarter does not look
    /// like one. Each pixel is set at most once; nothing is allocated.
    public mutating func drawMoon(_ mark: MoonMark, x: Int, y: Int, diameter: Int) {
        guard diameter > 2 else { return }
        let k: Double
        switch mark.name {
        case .new: k = 0
        case .full: k = 1
        case .firstQuarter, .lastQuarter: k = 0.5
        case .waxingCrescent, .waningCrescent: k = min(max(mark.illuminated, 0.22), 0.3)
        case .waxingGibbous, .waningGibbous: k = min(max(mark.illuminated, 0.7), 0.78)
        }
        let centre = Double(diameter - 1) / 2
        // A radius a little over half the diameter rounds the rim's corners the way a hand-drawn
        // circle of that size does (9 pixels: rows 3, 7, 7, 9, 9, 9, 7, 7, 3 wide).
        let radius = Double(diameter) / 2 - 0.2
        let side = mark.litOnRight ? 1.0 : -1.0
        func inside(_ column: Int, _ row: Int) -> Bool {
            let dx = Double(column) - centre, dy = Double(row) - centre
            return dx * dx + dy * dy <= radius * radius
        }
        for row in 0..<diameter {
            let dy = Double(row) - centre
            let halfChord = max(radius * radius - dy * dy, 0).squareRoot()
            let terminator = halfChord * (1 - 2 * k)
            for column in 0..<diameter where inside(column, row) {
                let rim = !inside(column - 1, row) || !inside(column + 1, row) || !inside(column, row - 1)
                    || !inside(column, row + 1)
                let lit = side * (Double(column) - centre) > terminator - 0.5
                if rim || lit { setPixel(x: x + column, y: y + row, on: true) }
            }
        }
    }
}
