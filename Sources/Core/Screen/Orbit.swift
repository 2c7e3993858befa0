/// Where the frame is drawn against OLED burn-in (device-runtime.md §3): the whole picture
/// moves one pixel every few minutes along `path`, so a stroke that never changes (a label,
/// the degree sign) lights a pixel only part of the day. Android's `BurnInProtectionHelper`
/// moves 2 px every 2 minutes; here the path is measured (`simulate --headless` reports the
/// highest per-pixel lit fraction of a day), not assumed.
///
/// The path snakes over 8 columns and 3 rows (24 positions, 72 minutes at 3 minutes each), so a
/// 1- or 2-pixel stroke is lit at a third of its positions or fewer. The screens draw into a
/// canvas `reach` pixels smaller than the panel, so no position cuts anything off. A clock moved
/// off its page boundary costs its minute tick two pages instead of one (still under the 64
/// bytes of ARCHITECTURE §8, measured in `AppTests`).
public enum Orbit {
    public static let path: [(x: Int, y: Int)] = (0..<3).flatMap { y in
        (0..<8).map { x in (x: y % 2 == 0 ? x : 7 - x, y: y) }
    }
    /// How far the path reaches from the top-left corner.
    public static let reach = (x: 7, y: 2)

    public static func offset(step: Int) -> (x: Int, y: Int) { path[((step % path.count) + path.count) % path.count] }
}

extension AppState {
    /// Where the frame is drawn now.
    public var orbitOffset: (x: Int, y: Int) { options.orbit ? Orbit.offset(step: orbitStep) : (0, 0) }
}
