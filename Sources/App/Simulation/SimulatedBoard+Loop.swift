import Core
import Glibc
import HAL
import HALSim

extension SimulatedBoard {
    /// The next instant anything can happen: a deadline of the device, the receiver's next
    /// epoch, a contact moving. Nil when nothing ever will.
    public var nextWake: Instant? {
        var next = device.nextDeadline
        if receiver != nil { next = Instant.earliest(next, drive?.nextEpoch) }
        return wakesOnEdges ? Instant.earliest(next, buttons.nextTransition) : next
    }

    /// Runs the device up to `end` on the virtual clock, waking it exactly where a real loop
    /// would wake. A fetch on a real network stops virtual time until it answers.
    public func advance(to end: Instant) {
        var wakesAtThisInstant = 0
        while true {
            if waitsForRealFetches, device.link.isFetchingForReal {
                device.link.waitForDelivery()
                wake()
                continue
            }
            guard let next = nextWake, next <= end else { break }
            if next > clock.now() {
                clock.advance(to: next)
                wakesAtThisInstant = 0
            }
            // A deadline that a wake-up does not move would make a real loop spin: a bug, said
            // here rather than hidden by nudging the clock.
            wakesAtThisInstant += 1
            precondition(wakesAtThisInstant < 100, "the device asks to be woken at \(clock.now()) again and again")
            wake()
        }
        if end > clock.now() { clock.advance(to: end) }
    }

    /// Runs the device for `duration` more.
    public func advance(by duration: Duration) { advance(to: clock.now() + duration) }

    /// One wake-up: the receiver's due epochs on the wire, then the device's `service()`.
    public func wake() {
        if let receiver {
            drive?.transmit(upTo: clock.now(), on: receiver.wire, pluggedIn: receiver.isPluggedIn)
        }
        followWeather()
        measured { device.service() }
    }

    /// Runs `body` (the device's start or a wake-up), adding its CPU time to the device's and
    /// the glass to the lit-time meter when a frame reached it.
    func measured(_ body: () -> Void) {
        let frames = device.counters.frames
        let before = Self.threadCPU()
        body()
        deviceCPUNanoseconds += Self.threadCPU() - before
        if device.counters.frames != frames { litMeter?.record(glass, at: clock.now()) }
    }

    // MARK: What a script or a key does

    /// Carries out one scripted event now.
    public func apply(_ action: SimulationScript.Action) {
        switch action {
        case .press(let button):
            guard button < buttons.wiring.count else { return note("no button \(button)") }
            buttons.press(button, holdFor: .milliseconds(120), bounce: .typical)
        case .hold(let button, let duration):
            guard button < buttons.wiring.count else { return note("no button \(button)") }
            buttons.press(button, holdFor: duration, bounce: .typical)
        case .gps(let plugged):
            note(plugged ? "GPS receiver plugged in" : "GPS receiver unplugged")
            plugged ? receiver?.plugIn() : receiver?.unplug()
        case .network(let up):
            note(up ? "network up" : "network down")
            network?.transport.isReachable = up
        case .i2cNack(let count):
            note("display will not acknowledge the next \(count) transaction\(count == 1 ? "" : "s")")
            bus.injectFault(.noAcknowledge(.address), at: displayAddress, count: count)
        case .disk(let condition):
            note("disk: \(condition)")
            setup.disk.clearFaults()
            setup.disk.isReadOnly = false
            switch condition {
            case .ok: break
            case .eio: setup.disk.fail([.write, .synchronizeData, .synchronize, .synchronizeDirectory, .rename], with: .io)
            case .enospc: setup.disk.fail([.write, .resize], with: .noSpace)
            case .readOnly: setup.disk.isReadOnly = true
            }
        case .powerCut:
            note("power cut")
        case .clock(let change):
            changeClock(change)
        case .gpsWeekRollover:
            let moved = drive?.shiftTime(by: .zero - TimeAuthority.gpsWeekRollover) ?? false
            note(moved ? "GPS receiver dates its fixes 1024 weeks back (week-number rollover)" : "no built-in GPS route to roll over")
        }
    }

    /// The true time: the start's, moved on by the monotonic clock. The receiver and the
    /// weather service keep it whatever happens to the system clock.
    public var trueTime: WallTime { setup.start + (clock.now() - startInstant) }

    /// A script's clock event: the system clock moves (without the monotonic clock, as
    /// `clock_settime` does) and the kernel's flag changes. On a real board the loop wakes at
    /// once (a `TFD_TIMER_CANCEL_ON_SET` timerfd); here the device is woken likewise.
    func changeClock(_ change: SimulationScript.ClockChange) {
        let before = clock.wallTime()
        switch change {
        case .step(let by):
            clock.setWallTime(before + by)
            systemClockSynchronised = true
            note("NTP steps the system clock by \(by < .zero ? "−" : "+")\(AppState.spokenStep(by)) and synchronises it")
        case .set(let offset):
            clock.setWallTime(trueTime + offset)
            systemClockSynchronised = false
            let side = offset < .zero ? "behind" : "ahead"
            note("system clock set \(AppState.spokenStep(offset)) \(side) the true time, not synchronised")
        case .sync:
            clock.setWallTime(trueTime)
            systemClockSynchronised = true
            note("NTP sets the system clock to the true time and synchronises it")
        case .unsync:
            systemClockSynchronised = false
            note("the kernel no longer vouches for the system clock")
        }
        if setup.systemClock == .host { note("(the host's kernel answers for the flag: --system-clock host)") }
        wake()
    }

    /// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds: what the device's
    /// own wake-ups cost, apart from the simulated parts around them.
    static func threadCPU() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    /// Runs `script` from the start for `duration` of virtual time; stops early at a power cut.
    /// Returns whether the run ended by a power cut.
    /// `checkpoint` is called after every whole `every` of virtual time (with its number from
    /// 1), before any step at the same instant: the soak samples the process's memory there.
    @discardableResult
    public func run(
        _ script: SimulationScript, duration: Duration, every: Duration? = nil, checkpoint: (Int) -> Void = { _ in }
    ) -> Bool {
        let end = startInstant + duration
        var count = 0
        func checkpoints(until instant: Instant) {
            guard let every, every > .zero else { return }
            while startInstant + every * (count + 1) <= instant {
                count += 1
                advance(to: startInstant + every * count)
                checkpoint(count)
            }
        }
        for step in script.steps where startInstant + step.at <= end {
            checkpoints(until: startInstant + step.at)
            advance(to: startInstant + step.at)
            if case .powerCut = step.action {
                apply(step.action)
                return true
            }
            apply(step.action)
        }
        checkpoints(until: end)
        advance(to: end)
        return false
    }
}
