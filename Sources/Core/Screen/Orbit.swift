import Screens

/// Where the frame is drawn against OLED burn-in (device-runtime.md §3): the whole picture
/// moves one pixel every few minutes along `path`, so a stroke that never changes (a label,
/// the degree sign) lights a pixel only part of the day. Android's `BurnInProtectionHelper`
/// moves 2 px every 2 minutes; here the path is measured (`simulate --headless` reports the
/// highest per-pixel lit fraction of a day), not assumed.
///
/// The path snakes over 12 columns and 3 rows (36 positions, 108 minutes at 3 minutes each).
/// It moves the screens that are up longest and whose layouts have room to spare, now and
/// indoor: they draw into a canvas `reach` pixels smaller than the panel, so no position cuts
/// anything off. The hours, days and status screens use the full width (their columns and the
/// sunrise row need it) and stay put; the rotation moves them off and on. A clock moved off
/// its page boundary costs its minute tick two pages instead of one (still under the 64 bytes
/// of ARCHITECTURE §8, measured in `AppTests`).
public enum Orbit {
    /// How far the path reaches from the top-left corner.
    public static let reach = (x: 11, y: 2)

    /// How far `screen` moves sideways: the whole reach for the screens whose layouts have room
    /// to spare (now, indoor); 4 pixels for the hours, days and status screens, whose four hour
    /// columns ("13:00" in 30 of 31 pixels) and sunrise row (120 pixels) need nearly the full
    /// width.
    public static func reachX(_ screen: Screen) -> Int { screen == .now || screen == .indoor ? reach.x : 4 }

    /// The canvas `screen` is drawn into on a `width`×`height` panel when the orbit is on.
    public static func canvas(for screen: Screen, width: Int, height: Int) -> (width: Int, height: Int) {
        (width - reachX(screen), height - reach.y)
    }

    /// Where `screen` is drawn at `step`: a snake over its `reachX + 1` columns and the
    /// `reach.y + 1` rows, one position per step, every position as often as every other.
    public static func offset(step: Int, screen: Screen) -> (x: Int, y: Int) {
        let columns = reachX(screen) + 1
        let positions = columns * (reach.y + 1)
        let k = ((step % positions) + positions) % positions
        let row = k / columns
        let column = k % columns
        return (row % 2 == 0 ? column : columns - 1 - column, row)
    }
}

extension AppState {
    /// Where the frame is drawn now.
    public var orbitOffset: (x: Int, y: Int) {
        options.orbit ? Orbit.offset(step: orbitStep, screen: screen) : (0, 0)
    }
}
