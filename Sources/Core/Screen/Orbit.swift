/// Where the frame is drawn against OLED burn-in (device-runtime.md §3): the whole picture
/// moves one pixel every few minutes along `path`, so a stroke that never changes (a label,
/// the degree sign) lights a pixel only part of the day. Android's `BurnInProtectionHelper`
/// moves 2 px every 2 minutes; here the path is measured (`simulate --headless` reports the
/// highest per-pixel lit fraction of a day), not assumed.
///
/// The path is horizontal only: the clock fills page 0 exactly, and moving it down would make
/// every minute tick touch two pages (ARCHITECTURE §8: ≤ 64 bytes per tick). The screens draw
/// into a canvas `reach.x` pixels narrower than the panel, so no position cuts anything off.
public enum Orbit {
    public static let path: [(x: Int, y: Int)] = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0)]
    /// How far the path reaches from the top-left corner.
    public static let reach = (x: 7, y: 0)

    public static func offset(step: Int) -> (x: Int, y: Int) { path[((step % path.count) + path.count) % path.count] }
}

extension AppState {
    /// Where the frame is drawn now.
    public var orbitOffset: (x: Int, y: Int) { options.orbit ? Orbit.offset(step: orbitStep) : (0, 0) }
}
