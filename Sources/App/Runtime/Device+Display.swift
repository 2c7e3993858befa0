import Core
import Drivers
import Graphics
import HAL
import Screens

extension Device {
    /// Draws the state's screen and sends what changed. A panel that does not answer is
    /// retried with backoff (0.5 s doubling to 30 s); the driver initialises it again on the
    /// next flush, so a panel that lost power comes back by itself. An adapter that is gone
    /// (unplugged, reset, not there at start) is tried again sooner (1 s doubling to 15 s): each
    /// try is one open(2) of its path and sends nothing, and the first flush once it opens is
    /// the whole initialisation and a full frame, the controller having lost power with it.
    func draw() {
        let now = moment.now
        if let retry = displayRetryAt, now < retry { return }
        if let busy = lcdBusyUntil, now < busy { return }
        if oled != nil {
            if !state.options.orbit {
                OLEDScreens.render(state.model, state.screen, into: &frame)
            } else if state.orbitReachX == Orbit.reach.x {
                OLEDScreens.render(state.model, state.screen, into: &canvas)
                place(canvas)
            } else {
                OLEDScreens.render(state.model, state.screen, into: &wideCanvas)
                place(wideCanvas)
            }
            do {
                flushed(try oled!.flush(frame))
            } catch {
                displayFailed(error)
            }
        } else if lcd != nil {
            CharacterScreens.render(state.model, state.screen, into: &characters)
            do {
                switch try lcd!.flush(characters, now: now) {
                case .busy(let until): lcdBusyUntil = until
                case .done(let report): flushed(report)
                }
            } catch {
                displayFailed(error)
            }
        }
    }

    func flushed(_ report: FlushReport) {
        lcdBusyUntil = nil
        state.frameDirty = false
        counters.frames += 1
        account(report)
        counters.lastFlushPayloadBytes = report.payloadBytes
        counters.largestFlushPayloadBytes = max(counters.largestFlushPayloadBytes, report.payloadBytes)
        counters.lastFlushBitTimes = report.bitTimes
        if displayFailures > 0 {
            displayFailures = 0
            displayRetryAt = nil
            let adapterWasGone = if case .failing(let why) = state.display { Self.isAdapterProblem(why) } else { false }
            send(.display(.ok))
            // The adapter is back: a sensor on it that failed for the same reason starts again
            // now (identified and reset from power-on by its driver), not at its next minute.
            if adapterWasGone, sensorDue == nil, sharesAdapter, case .failed(let why)? = state.indoor, Self.isAdapterProblem(why) {
                measure()
            }
        }
    }

    func account(_ report: FlushReport) {
        counters.busTransactions += report.transactions
        counters.busPayloadBytes += report.payloadBytes
        counters.busBitTimes += report.bitTimes
    }

    func displayFailed(_ error: I2CError) {
        counters.flushFailures += 1
        displayFailures += 1
        // The sensor on the same adapter lost power with it: identified and reset again.
        if error.kind == .adapterGone, sharesAdapter { sensor?.forget() }
        displayRetryAt = moment.now + Self.displayBackoff(error.kind, failures: displayFailures)
        // The first failure says what is wrong. Later ones say nothing new (the tries while an
        // adapter is away fail at open), except an adapter going away under a panel that had
        // stopped answering: that is news, and the status screen names the node.
        let adapterNews: Bool
        if error.kind == .adapterGone, case .failing(let shown) = state.display {
            adapterNews = !Self.isAdapterProblem(shown)
        } else {
            adapterNews = false
        }
        if displayFailures == 1 || adapterNews {
            send(.display(.failing(Self.displayProblem(error, bus: state.options.displayBus))))
        }
    }

    /// 0.5 s doubling to 30 s for a panel that does not answer; 1 s doubling to 15 s for an
    /// adapter that is not there, so a replugged one shows a frame within 15 s.
    static func displayBackoff(_ kind: I2CError.Kind, failures: Int) -> Duration {
        if kind == .adapterGone { return min(.seconds(1) * (1 << min(failures - 1, 4)), .seconds(15)) }
        return min(.milliseconds(500) * (1 << min(failures - 1, 6)), .seconds(30))
    }

    static func displayProblem(_ error: I2CError, bus: String?) -> String {
        switch error.kind {
        case .adapterGone: adapterProblem(bus: bus)
        case .noAcknowledge: "no answer (NACK)"
        case .timeout: "bus timeout"
        case .arbitrationLoss: "bus conflict"
        default: "bus error"
        }
    }

    /// `i2c-1 gone`: whether it went away while open or was never there to open (the log line
    /// says which, with the whole path), the display and the sensor on it say the same words.
    /// The node's name without `/dev/` fits the status screen's 88 pixels beside the label
    /// (`/dev/i2c-1 gone` is 90) and a 16-column LCD.
    static func adapterProblem(bus: String?) -> String {
        guard let bus else { return "adapter gone" }
        return (bus.hasPrefix("/dev/") ? String(bus.dropFirst(5)) : bus) + " gone"
    }

    static func isAdapterProblem(_ text: String) -> Bool { text.hasSuffix(" gone") }

    /// Whether the display and the sensor hang on the same adapter (`/dev/i2c-1` for both).
    var sharesAdapter: Bool { sensor != nil && state.options.sensorBus == state.options.displayBus }

    /// The sensor found the display's adapter gone. The panel lost power with it, and the
    /// adapter may already be back under a new descriptor (the kernel registers a replugged
    /// adapter as soon as the old descriptor is closed): the driver forgets what it thinks is on
    /// the glass, and the frame is drawn again in this wake-up, which is the whole
    /// initialisation and a full frame if it opens, and the display's own "gone" if it does not.
    func adapterGoneUnderDisplay() {
        oled?.invalidate()
        lcd?.invalidate()
        state.frameDirty = true
    }

    /// The canvas on the frame at the orbit's offset, through the framebuffer's own bitmap fast
    /// path (byte copies, a shift across pages when the offset is not a multiple of 8): a
    /// `Bitmap` looks at the canvas's bytes without copying them.
    func place(_ canvas: Framebuffer) {
        let offset = state.orbitOffset
        frame.clear()
        frame.draw(Bitmap(width: canvas.width, height: canvas.height, bytes: canvas.bytes), x: offset.x, y: offset.y, mode: .overlay)
    }

    /// The night level: contrast and pre-charge together on an OLED (docs/design/parts.md, "Burn-in");
    /// a character LCD keeps its backlight.
    func setDimmed(_ dim: Bool) {
        guard oled != nil else { return }
        do {
            account(try oled!.setBrightness(dim ? .dim : .normal))
        } catch {
            displayFailed(error)
        }
    }
}
