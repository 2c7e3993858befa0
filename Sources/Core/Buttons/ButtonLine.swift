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
        /// The line has rested released for `debounce` after edges were dropped while it was
        /// not held (`pressLost`): the press in the gap is recognised.
        case lostPress
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
    /// Edges consumed since the last `ButtonGestures.reconcile`: for edges without numbers, as
    /// many as the kernel's buffer holds means the rest may have been dropped.
    var edgesSinceCheck = 0
    /// The kernel's number of the last edge consumed (`EdgeSequence.line`); nil until an edge
    /// with numbers has come, and then losses are counted from the numbers, not inferred.
    private(set) var lastNumber: UInt32?
    /// Edges of this line the kernel dropped since the last check: the gaps in its numbers.
    var droppedSinceCheck = 0
    /// The kernel dropped edges of this line while it was not held: it left its rest level in
    /// that time, so a press happened there, unless the dropped edges were the first bounces
    /// of the press now starting. Cleared when a hold begins (that press); otherwise the press
    /// is recognised once the line has rested released for `debounce` (`Due.lostPress`).
    private(set) var pressLost = false

    init(activeLow: Bool, timing: ButtonTiming) {
        precondition(timing.debounce >= .zero, "a debounce period cannot be negative")
        precondition(timing.longPress > .zero, "a long press takes some time")
        self.activeLow = activeLow
        debounce = timing.debounce
        longPress = timing.longPress
    }

    /// Takes the kernel's number of the edge about to be observed, which goes to pressed when
    /// `pressEdge`. The kernel numbers a line's edges from 1 (`line_seqno++` before the first
    /// event, gpiolib-cdev.c), so a gap is the edges it dropped. Returns true when the gap held
    /// a whole press that is recognised at this edge: on a line without software debounce the
    /// edges are the kernel's debounced ones, which alternate (debounce_work_func queues only a
    /// change of the debounced level), so a press edge after a gap at rest means the line went
    /// down and up again in the gap. Otherwise a gap at rest sets `pressLost`.
    mutating func number(_ number: UInt32, pressEdge: Bool) -> Bool {
        if renumbered {
            renumbered = false
            lastNumber = number
            return false
        }
        let skipped = EdgeSequence.skipped(from: lastNumber ?? 0, to: number)
        lastNumber = number
        guard skipped > 0 else { return false }
        droppedSinceCheck += Int(skipped)
        guard !stable else { return false }
        if debounce == .zero, pressEdge, !level { return true }
        pressLost = true
        return false
    }

    /// The line was not listened to for a while (`LineNoise`): its next number starts the
    /// count again, whatever it is, since the edges in between were never the kernel's to keep.
    private var renumbered = false

    mutating func renumber() { renumbered = true }

    /// Whether a physical level (high or low) means pressed on this line.
    func isPressed(high: Bool) -> Bool { high != activeLow }

    /// The earliest pending event and its time. At a tie the long press comes first: a release
    /// that becomes stable exactly at the threshold did not come *before* it.
    var next: (time: Instant, due: Due)? {
        // Only at rest, so never beside a settle (level differs from stable) or a hold (stable).
        if pressLost, !level, !stable { return (changedAt + debounce, .lostPress) }
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
        case .lostPress:
            pressLost = false
            return .short
        case .settle:
            stable = level
            if stable {
                longAt = time + longPress
                pressSeen = false
                pressLost = false
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
        pressLost = false
        changedAt = max(changedAt, time)
    }

    /// A level read after edges were lost: only a disagreement with what the edges said is a
    /// change, and its time is unknown, so the debounce window starts at `time`.
    mutating func resynchronise(pressed: Bool, at time: Instant) {
        guard pressed != level else { return }
        observe(pressed: pressed, at: time)
    }
}
