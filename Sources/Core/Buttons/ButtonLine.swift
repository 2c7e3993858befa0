import HAL

/// The debouncer and hold timer of one line: plain values, no allocation.
///
/// Two levels are tracked. `level` is what the line did last (from an edge or a level read),
/// with `changedAt` the time of that change; `stable` is the debounced level, which follows
/// `level` once it has rested for `debounce`, the rule of the kernel's own software debounce
/// (gpiolib-cdev, commit 65cff704): bounce inside the window restarts it, so a bouncing
/// contact yields one change, and a change that lasts longer than the window is a real one.
///
/// Everything is in logical terms (`true` = pressed); `ButtonGestures` maps the physical
/// levels through the line's wiring.
struct ButtonLine {
    /// The next thing that happens on this line without a new edge.
    enum Due {
        /// `level` has rested long enough and becomes `stable`.
        case settle
        /// The hold reaches the long-press threshold.
        case long
    }

    let debounce: Duration
    let longPress: Duration
    let activeLow: Bool

    /// The latest reading, pressed or not.
    private(set) var level = false
    /// When `level` last changed (or was last confirmed by an edge).
    private(set) var changedAt = Instant.zero
    /// The debounced state: what `isHeld` reports.
    private(set) var stable = false
    /// When the current hold becomes a long press; nil when not held, or once the long press
    /// has fired (its release then emits nothing).
    private(set) var longAt: Instant?
    /// A press edge came while the line was at rest (not held): the start of a press, what a
    /// press whose later edges were lost is recognised by. Cleared when a hold begins.
    private(set) var pressSeen = false
    /// Edges consumed since the last `ButtonGestures.reconcile`: as many as the kernel's buffer
    /// holds means the rest may have been dropped.
    var edgesSinceCheck = 0

    init(activeLow: Bool, timing: ButtonTiming) {
        precondition(timing.debounce >= .zero, "a debounce period cannot be negative")
        precondition(timing.longPress > .zero, "a long press takes some time")
        self.activeLow = activeLow
        debounce = timing.debounce
        longPress = timing.longPress
    }

    /// Whether a physical level (high or low) means pressed on this line.
    func isPressed(high: Bool) -> Bool { high != activeLow }

    /// The earliest pending event and its time. At a tie the long press comes first: a release
    /// that becomes stable exactly at the threshold did not come *before* it.
    var next: (time: Instant, due: Due)? {
        let settleAt: Instant? = level != stable ? changedAt + debounce : nil
        switch (longAt, settleAt) {
        case (let long?, let settle?): return long <= settle ? (long, .long) : (settle, .settle)
        case (let long?, nil): return (long, .long)
        case (nil, let settle?): return (settle, .settle)
        case (nil, nil): return nil
        }
    }

    /// Carries out the pending event `due` at `time` (as returned by `next`); returns the
    /// gesture it completes, if any.
    mutating func fire(_ due: Due, at time: Instant) -> ButtonGesture.Kind? {
        switch due {
        case .long:
            longAt = nil
            return .long
        case .settle:
            stable = level
            if stable {
                longAt = time + longPress
                pressSeen = false
                return nil
            }
            // Released: a short press if the long press has not fired.
            guard longAt != nil else { return nil }
            longAt = nil
            return .short
        }
    }

    /// The line now reads `pressed`, as of `time`. A reading that repeats the current level
    /// (an edge whose opposite was dropped) still restarts the debounce window, because the
    /// line evidently moved in between. Time never runs backwards here: a stamp older than the
    /// last change (an edge read after a resynchronisation) counts as that change's time.
    mutating func observe(pressed: Bool, at time: Instant) {
        if pressed && !stable { pressSeen = true }
        level = pressed
        changedAt = max(changedAt, time)
    }

    /// The line is released and at rest as of `time`, whatever its edges said: after a press
    /// whose later edges the kernel dropped has been recognised from what was left.
    mutating func rest(at time: Instant) {
        level = false
        stable = false
        longAt = nil
        pressSeen = false
        changedAt = max(changedAt, time)
    }

    /// A level read after edges were lost: only a disagreement with what the edges said is a
    /// change, and its time is unknown, so the debounce window starts at `time`.
    mutating func resynchronise(pressed: Bool, at time: Instant) {
        guard pressed != level else { return }
        observe(pressed: pressed, at: time)
    }
}
