import Core
import GPS
import HAL
import Store
import Weather

extension Device {
    /// One wake-up of the loop: everything that is readable or due at `clock.now()`.
    public func service() {
        let began = clock.now()
        defer { measureTurn(since: began) }
        counters.wakeups += 1
        readMoment()
        serviceGPS()
        if location.clockTime?.at != vouchedAt, location.clockTime != nil { readMoment() }
        // A new source or a step of the wall clock (the loop was woken for it: a timerfd with
        // TFD_TIMER_CANCEL_ON_SET on a board) reaches the logic even if nothing else happened.
        if state.clockMoved(moment) { send(.tick) }
        serviceButtons()
        while let delivery = link.receive() { delivered(delivery) }
        serviceStore()
        if let due = sensorDue, due <= moment.now { measure() }
        if let deadline = state.nextDeadline, deadline <= moment.now { send(.tick) }
        if state.frameDirty { draw() }
    }

    /// The first turn, inside `start()`, draws the first whole frame (1 KB on an SSD1306, which
    /// a slow adapter takes a while to carry); it is the start's cost, not a stall, and is left
    /// out so the figure says what the loop did while running.
    func measureTurn(since began: Instant) {
        guard counters.wakeups > 1 else { return }
        let ended = clock.now()
        if ended - began > counters.longestTurn {
            counters.longestTurn = ended - began
            counters.longestTurnAt = ended
        }
    }

    // MARK: GPS

    /// Reads what the receiver sent, lets the service time out what is due, and reports to the
    /// logic only what changed: the kind of state, the rounded position, fix mode.
    func serviceGPS() {
        location.readAvailable()
        location.tick()
        reportGPSLosses()
        sendAltitude()
        let report = gpsReport()
        guard report != lastGPS else { return }
        var detailed = report
        if report.kind != lastGPS.kind {
            detailed.detail = location.statusLine(at: moment.now)
            switch report.kind {
            case .fix, .waiting: dependencies.log(moment.now, .text(detailed.detail))
            case .noDevice, .noData, .noValidSentences, .noFix, .stale: dependencies.log(moment.now, .problem(detailed.detail))
            }
        }
        lastGPS = report
        send(.gps(detailed))
    }

    func gpsReport() -> GPSReport {
        let kind: GPSReport.Kind
        switch location.state(at: moment.now) {
        case .noDevice: kind = .noDevice
        case .waiting: kind = .waiting
        case .noData: kind = .noData
        case .noValidSentences: kind = .noValidSentences
        case .noFix: kind = .noFix
        case .fix: kind = .fix
        case .stale: kind = .stale
        }
        let last = location.lastFix.flatMap { received in
            received.fix.coordinate.map { Self.position($0) }
        }
        let threeD = location.lastFix?.fix.mode == .threeD
        // A satellite count that changes every few epochs is news only while searching.
        let satellites = kind == .fix ? nil : location.latestEpoch?.satellitesUsed
        return GPSReport(
            kind: kind, position: kind == .fix ? last : nil, lastPosition: last, satellites: satellites,
            threeD: kind == .fix && threeD)
    }

    /// A 3D fix's height for the barograph, at most once a minute: the logic smooths it over
    /// minutes (`AltitudeTrack`), so every epoch's would be work without news.
    func sendAltitude() {
        guard moment.now >= nextAltitude, let fix = location.currentFix, fix.mode == .threeD, let height = fix.altitudeMSL else { return }
        nextAltitude = moment.now + .seconds(60)
        send(.altitude(height.doubleValue))
    }

    /// Degrees rounded to 10⁻⁴ (~10 m): a receiver's jitter at rest is not news.
    static func position(_ coordinate: Coordinate) -> Coordinate { coordinate.rounded(places: 4) }

    // MARK: Buttons

    /// Every edge the kernel queued, oldest first, through the debouncer. The kernel's event
    /// buffer drops edges when it overflows; uAPI v2 numbers every edge, so the gaps say how
    /// many (`Edge.sequence`). After a wake-up that read edges, the levels are read once and
    /// the debouncer checks both (`reconcile`), so a lost release never leaves a button held and
    /// a press whose edges overflowed still counts; the edges it found dropped go to the logic.
    func serviceButtons() {
        if drainEdges() > 0, var levels = try? inputs.levels() {
            // An edge may arrive between the last read and the level read: drain once more
            // before calling a disagreement a loss.
            if gestures.disagrees(with: levels), drainEdges() > 0, let again = try? inputs.levels() { levels = again }
            let dropped = gestures.reconcile(levels: levels, kernelBuffer: Self.kernelEventsPerLine, at: moment.now) { gesture in
                self.gesture(gesture)
            }
            if dropped > 0 { send(.droppedEdges(dropped)) }
        }
        gestures.advance(to: moment.now) { gesture in self.gesture(gesture) }
        serviceNoise()
    }

    /// A noisy line's quiet period ending (the line is listened to again, on trial) or its
    /// trial passing (it makes gestures again), on the device's clock.
    func serviceNoise() {
        while let action = gestures.noiseDue(at: moment.now) {
            switch action {
            case .listen(let line):
                _ = inputs.setListening(true, line: line)
            case .recovered(let line):
                let (name, wire) = inputs.describeLine(line)
                if let levels = try? inputs.levels() { gestures.heed(line, levels: levels, at: moment.now) }
                dependencies.log(moment.now, .text("button \(name) on \(wire): quiet for \(LineNoise.window.components.seconds) s; it works again"))
                send(.buttonNoise(name, noisy: false))
            }
        }
    }

    /// A line that toggled faster than a finger can: said once, on the status screen and in
    /// the log, and no longer listened to, so its interrupts stop waking the loop.
    func noisy(_ finding: LineNoise.Finding) {
        let (name, wire) = inputs.describeLine(finding.line)
        let quietened = inputs.setListening(false, line: finding.line)
        let span = finding.span.components
        let milliseconds = span.seconds * 1000 + span.attoseconds / 1_000_000_000_000_000
        let rest = quietened ? "ignored for \(finding.ignoredFor.components.seconds) s" : "its edges ignored for \(finding.ignoredFor.components.seconds) s"
        dependencies.log(moment.now, .problem(
            "button \(name) on \(wire): \(finding.edges) edges in \(milliseconds) ms — a floating line or a broken wire; \(rest)"))
        send(.buttonNoise(name, noisy: true))
    }

    /// 16 edges per line: uAPI v1's per-line buffer. For edges without the kernel's numbers
    /// (v1), a wake-up that reads this many edges of one line may have lost some.
    static var kernelEventsPerLine: Int { 16 }

    /// Consumes every queued edge; returns how many there were.
    func drainEdges() -> Int {
        var total = 0
        var count = 0
        repeat {
            do throws(GPIOError) {
                count = try inputs.readEdges(into: edges)
            } catch {
                count = 0
            }
            for i in 0..<count {
                gestures.consume(edges[i], noisy: { finding in self.noisy(finding) }) { gesture in self.gesture(gesture) }
            }
            total += count
        } while count == edges.count
        return total
    }

    func gesture(_ gesture: ButtonGesture) {
        counters.gestures += 1
        send(.button(gesture))
    }

    // MARK: Store

    /// Lets a degraded store retry when its backoff has run out, and takes what the writer
    /// finished.
    func serviceStore() {
        store.retryIfDue(now: moment.now)
        receiveStore()
    }

    /// A healthy card syncs a commit in tens of milliseconds; one that has not answered in
    /// this long is hanging (the status says so, the log says it once).
    static var slowCard: Duration { .seconds(3) }

    /// What the writer finished: refusals and failed cache writes, the store's new content and
    /// health, and how many changes still wait for the card.
    func receiveStore() {
        store.receive(now: moment.now) { answer in
            switch answer {
            case .refused(let change, let error):
                send(.refused(change, error))
            case .cacheNotSaved(let error):
                dependencies.log(moment.now, .problem("weather cache not saved: \(error)"))
            case .historyNotSaved(let error):
                dependencies.log(moment.now, .problem("barograph not saved: \(error)"))
            case .reopened(let kept):
                dependencies.log(
                    moment.now, .text("store: opened the files at last; \(kept) change\(kept == 1 ? "" : "s") kept in memory saved"))
            case .reopenAbandoned(let error):
                dependencies.log(moment.now, .problem("store: \(error); changes stay in memory only"))
            }
        }
        reportStoreIfChanged()
        let slow = store.waitingSince.map { moment.now - $0 >= Self.slowCard } ?? false
        let saving = StoreSaving(waiting: store.waiting, slow: slow)
        guard saving != state.saving else { return }
        if saving.slow, !state.saving.slow {
            let n = saving.waiting
            dependencies.log(
                moment.now,
                .problem("store: the card has not answered for \(Self.slowCard) (\(n) write\(n == 1 ? "" : "s") waiting); buttons and the panel keep working, the change shows once it is saved"))
        } else if !saving.slow, state.saving.slow {
            dependencies.log(moment.now, .text("store: the card answered again"))
        }
        send(.saving(saving))
    }

    /// Compared with what the logic holds, not with a copy of its own: the store's content
    /// (changes kept in memory while degraded included) and its health.
    func reportStoreIfChanged() {
        guard store.health != state.storeHealth || store.state != state.store else { return }
        send(.store(store.state, store.health))
    }
}
