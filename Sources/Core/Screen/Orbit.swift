import Screens

/// Where the frame is drawn against OLED burn-in (docs/design/parts.md#burn-in): the whole picture
/// moves one pixel every few minutes along `path`, so a stroke that never changes (a label,
/// the degree sign) lights a pixel only part of the day. Android's `BurnInProtectionHelper`
/// moves 2 px every 2 minutes; here the path is measured (`simulate --headless` reports the
/// highest per-pixel lit fraction of a day), not assumed.
///
/// The path snakes over 12 columns and 3 rows (36 positions, 108 minutes at 3 minutes each).
/// It moves the screens that are up longest and whose layouts have room to spare, now and
/// indoor: they draw into a canvas `reach` pixels smaller than the panel, so no position cuts
/// anything off. The hours, days and status screens use the full width (their columns and the
/// sunrise row need it) and move 4 pixels sideways; the rotation moves them off and on. Without
/// a forecast the hours and days screens have no columns and take the whole reach. A clock moved off
/// its page boundary costs its minute tick two pages instead of one (still under the 64 bytes
/// of docs/design/measurements.md#targets, measured in `AppTests`).
public enum Orbit {
    /// How far the path reaches from the top-left corner.
    public static let reach = (x: 11, y: 2)

    /// How far `screen` moves sideways: the whole reach for the screens whose layouts have room
    /// to spare (now, indoor); 4 pixels for the hours, days and status screens, whose four hour
    /// columns ("13:00" in 30 of 31 pixels) and sunrise row (120 pixels) need nearly the full
    /// width.
    public static func reachX(_ screen: Screen) -> Int { screen == .now || screen == .indoor ? reach.x : 4 }

    /// How far `screen` moves sideways showing `model`. Without a forecast the hours and days
    /// screens draw neither columns nor the sunrise row, only "No forecast yet" and the problem
    /// line, centred or cut to the canvas: they take the whole reach then. With 4 pixels, the two
    /// screens drawing the same lines at the same place had 15 positions for two fifths of the
    /// rotation, and a stroke of that text was lit 52–54 % of two days with the service
    /// rate-limited or the network down (`simulate --headless --duration 172800`).
    public static func reachX(_ screen: Screen, _ model: ScreenModel) -> Int {
        switch screen {
        case .hours where model.weather.forecast?.hours.isEmpty ?? true: reach.x
        case .days where model.weather.forecast?.days.isEmpty ?? true: reach.x
        default: reachX(screen)
        }
    }

    /// The canvas `screen` is drawn into on a `width`×`height` panel when the orbit is on.
    public static func canvas(for screen: Screen, width: Int, height: Int) -> (width: Int, height: Int) {
        canvas(reachX: reachX(screen), width: width, height: height)
    }

    /// The canvas for a sideways reach of `reachX` on a `width`×`height` panel.
    public static func canvas(reachX: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        (width - reachX, height - reach.y)
    }

    /// Where `screen` is drawn at `step` (with its layout's reach).
    public static func offset(step: Int, screen: Screen) -> (x: Int, y: Int) {
        offset(step: step, reachX: reachX(screen))
    }

    /// Where a frame that moves `reachX` pixels sideways is drawn at `step`: a snake over its
    /// `reachX + 1` columns and the `reach.y + 1` rows, one position per step, every position as
    /// often as every other.
    public static func offset(step: Int, reachX: Int) -> (x: Int, y: Int) {
        let columns = reachX + 1
        let positions = columns * (reach.y + 1)
        let k = ((step % positions) + positions) % positions
        let row = k / columns
        let column = k % columns
        return (row % 2 == 0 ? column : columns - 1 - column, row)
    }
}

extension AppState {
    /// How far the frame moves sideways now (`Orbit.reachX(_:_:)`).
    public var orbitReachX: Int { Orbit.reachX(screen, model) }

    /// Where the frame is drawn now.
    public var orbitOffset: (x: Int, y: Int) {
        options.orbit ? Orbit.offset(step: orbitStep, reachX: orbitReachX) : (0, 0)
    }
}
