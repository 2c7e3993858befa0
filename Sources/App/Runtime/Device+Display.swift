import Core
import Drivers
import Graphics
import HAL
import Screens

extension Device {
    /// Draws the state's screen and sends what changed. A panel that does not answer is
    /// retried with backoff (0.5 s doubling to 30 s); the driver initialises it again on the
    /// next flush, so a panel that lost power comes back by itself.
    func draw() {
        let now = moment.now
        if let retry = displayRetryAt, now < retry { return }
        if let busy = lcdBusyUntil, now < busy { return }
        if oled != nil {
            if !state.options.orbit {
                OLEDScreens.render(state.model, state.screen, into: &frame)
            } else if Orbit.reachX(state.screen) == Orbit.reach.x {
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
            send(.display(.ok))
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
        let exponent = min(displayFailures - 1, 6)
        displayRetryAt = moment.now + min(.milliseconds(500) * (1 << exponent), .seconds(30))
        if displayFailures == 1 { send(.display(.failing(Self.displayProblem(error)))) }
    }

    static func displayProblem(_ error: I2CError) -> String {
        switch error.kind {
        case .noAcknowledge: "no answer (NACK)"
        case .timeout: "bus timeout"
        case .arbitrationLoss: "bus conflict"
        default: "bus error"
        }
    }

    /// The canvas on the frame at the orbit's offset, through the framebuffer's own bitmap fast
    /// path (byte copies, a shift across pages when the offset is not a multiple of 8): a
    /// `Bitmap` looks at the canvas's bytes without copying them.
    func place(_ canvas: Framebuffer) {
        let offset = state.orbitOffset
        frame.clear()
        frame.draw(Bitmap(width: canvas.width, height: canvas.height, bytes: canvas.bytes), x: offset.x, y: offset.y, mode: .overlay)
    }

    /// The night level: contrast and pre-charge together on an OLED (device-runtime.md §3);
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
