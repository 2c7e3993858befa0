import Graphics
import HAL

/// An SSD1306 or SH1106 OLED on an I²C bus, flushing only what changed.
///
/// The driver keeps a shadow of what is on the glass and, per flush, sends the windows
/// `OLEDFlushPlanner` chooses (see `OLEDCostModel` for the framing). Every buffer is allocated in
/// `init`: a flush allocates nothing, and a flush with nothing changed sends nothing.
///
/// Failures: every method throws the bus's `I2CError` and never traps on one. After any failed
/// transaction the shadow is no longer trusted (a panel that NACKs may have lost power and
/// come back with random RAM and default registers), so the next `flush` runs the whole
/// initialisation again — RAM clear included — and sends the full frame. Settings made while the
/// panel is unreachable (brightness, inversion, rotation, sleep) are kept and applied then.
///
/// Lifecycle: `start()` initialises, clears all of RAM and switches the panel on; a `flush`
/// without `start()` does the same first. Nothing here sleeps.
public struct OLEDDisplay<Bus: I2CBus> {
    public var bus: Bus
    public let profile: OLEDProfile
    public let costModel: OLEDCostModel
    /// The framing of every window, chosen once by the cost model.
    public let framing: OLEDWindowFraming
    public private(set) var rotation: OLEDProfile.Rotation
    public private(set) var brightness: OLEDProfile.Brightness = .normal
    /// A contrast set with `setContrast(_:)`, until the next `setBrightness(_:)`.
    public private(set) var contrastOverride: UInt8?
    public private(set) var isInverted = false
    public private(set) var isAsleep = false
    /// Whether the next flush initialises the controller first (never started, or failed).
    public internal(set) var needsInitialisation = true

    var shadow: [UInt8]
    var redrawAll = true
    var tx: TransmitBuffer
    var planner: OLEDFlushPlanner

    /// A driver for `profile` on `bus`. Sends nothing. The profile must be consistent
    /// (`profile.problem == nil`; a configuration mistake, checked by `board check`).
    public init(bus: Bus, profile: OLEDProfile = .ssd1306_128x64, costModel: OLEDCostModel = .default) {
        precondition(profile.problem == nil, profile.problem ?? "")
        self.bus = bus
        self.profile = profile
        self.costModel = costModel
        framing = costModel.framing(for: profile.controller)
        rotation = profile.rotation
        shadow = [UInt8](repeating: 0, count: profile.width * profile.pages)
        let windowHeader = 2 * OLEDCostModel.windowCommandBytes(profile.controller) + 1
        tx = TransmitBuffer(capacity: max(64, windowHeader + profile.ramColumns * profile.ramPages))
        planner = OLEDFlushPlanner(
            width: profile.width, pages: profile.pages,
            maxBandHeight: profile.controller == .ssd1306 ? profile.pages : 1,
            fixedCost: costModel.fixedCost(framing, controller: profile.controller))
    }

    /// The contrast and pre-charge in use.
    public var level: OLEDProfile.Level {
        var level = profile.level(brightness)
        if let contrastOverride { level.contrast = contrastOverride }
        return level
    }

    /// Initialises the controller, clears all of its RAM and switches the panel on (unless
    /// `sleep()` was asked for). The next flush sends only what is not blank.
    @discardableResult
    public mutating func start() throws(I2CError) -> FlushReport {
        var report = FlushReport()
        try initialise(&report)
        redrawAll = false
        if !isAsleep { try sendDisplayOn(&report) }
        return report
    }

    /// Sends what changed between the glass and `frame`, which must have the profile's size.
    public mutating func flush(_ frame: Framebuffer) throws(I2CError) -> FlushReport {
        precondition(frame.width == profile.width && frame.height == profile.height, "frame size ≠ panel size")
        var report = FlushReport()
        let reinitialise = needsInitialisation
        if reinitialise {
            try initialise(&report)
            redrawAll = true
        }
        let bytes = frame.bytes
        if redrawAll {
            planner.planFullFrame()
        } else if !planner.plan(frame: bytes, shadow: shadow) {
            return report
        }
        for i in 0..<planner.windowCount {
            try sendWindow(planner.windows[i], from: bytes, &report)
        }
        report.windows += planner.windowCount
        report.fullFrame = planner.coversPanel
        redrawAll = false
        if reinitialise && !isAsleep { try sendDisplayOn(&report) }
        return report
    }

    /// Forgets what is on the glass: the next flush initialises the panel and sends everything
    /// (after a known power cut, or a panel shared with another program).
    public mutating func invalidate() { needsInitialisation = true }

    /// Day or night level: contrast (81h) and pre-charge (D9h) in one transaction.
    @discardableResult
    public mutating func setBrightness(_ brightness: OLEDProfile.Brightness) throws(I2CError) -> FlushReport {
        self.brightness = brightness
        contrastOverride = nil
        let level = self.level
        guard beginCommands() else { return .empty }
        profile.encodeLevel(level, into: &tx)
        return try sendCommands()
    }

    /// Contrast alone (81h), kept until the next `setBrightness(_:)`.
    @discardableResult
    public mutating func setContrast(_ contrast: UInt8) throws(I2CError) -> FlushReport {
        contrastOverride = contrast
        guard beginCommands() else { return .empty }
        switch profile.controller {
        case .ssd1306: SSD1306Command.contrast(contrast).encode(into: &tx)
        case .sh1106: SH1106Command.contrast(contrast).encode(into: &tx)
        }
        return try sendCommands()
    }

    /// Display off (AEh): the panel goes dark, RAM and flushes keep working.
    @discardableResult
    public mutating func sleep() throws(I2CError) -> FlushReport {
        isAsleep = true
        guard beginCommands() else { return .empty }
        profile.encodeDisplayOn(false, into: &tx)
        return try sendCommands()
    }

    /// Display on (AFh).
    @discardableResult
    public mutating func wake() throws(I2CError) -> FlushReport {
        isAsleep = false
        guard beginCommands() else { return .empty }
        profile.encodeDisplayOn(true, into: &tx)
        return try sendCommands()
    }

    /// Inverse display (A7h) or normal (A6h); acts at once, RAM unchanged.
    @discardableResult
    public mutating func setInverted(_ inverted: Bool) throws(I2CError) -> FlushReport {
        isInverted = inverted
        guard beginCommands() else { return .empty }
        profile.encodeInverted(inverted, into: &tx)
        return try sendCommands()
    }

    /// Rotation by segment remap and COM scan (`A1 C8` / `A0 C0`). The remap acts only on RAM
    /// written afterwards (SSD1306 §10.1.8), so a change makes the next flush a full frame.
    @discardableResult
    public mutating func setRotation(_ rotation: OLEDProfile.Rotation) throws(I2CError) -> FlushReport {
        if rotation != self.rotation { redrawAll = true }
        self.rotation = rotation
        guard beginCommands() else { return .empty }
        profile.encodeRotation(rotation, into: &tx)
        return try sendCommands()
    }
}
