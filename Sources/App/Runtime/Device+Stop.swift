import Board
import Core
import Drivers
import Graphics
import HAL

extension Device {
    /// Before a stop or a rebuild: the logic commits what it was only waiting to commit (a
    /// place's removal inside its undo window). The writes go to the writer like any other.
    public func close() {
        readMoment()
        send(.closing)
    }

    /// Leaves the panel in a defined state when the device stops (the daemon's SIGTERM):
    /// switched off (the OLED's display-off command, an LCD cleared with its backlight off), or
    /// one last frame that says the device stopped. A panel that does not answer is left as it
    /// is: nothing else can be done, and stopping must not wait for it.
    ///
    /// An LCD paces its commands (a clear takes 1.52 ms, HD44780U table 6); `wait` returns once
    /// the instant it is given has passed. The loop no longer runs, so this is the one place
    /// that waits; the default spins on the device's clock for those few milliseconds.
    public func stopDisplay(_ stop: DisplayStop, wait: ((Instant) -> Void)? = nil) {
        let wait = wait ?? { until in while self.clock.now() < until {} }
        do throws(I2CError) {
            if oled != nil {
                switch stop {
                case .off:
                    account(try oled!.sleep())
                case .message:
                    frame.clear()
                    frame.drawText("Thunderstorm", font: .medium, x: 0, y: frame.height / 2 - 17, maxWidth: frame.width, alignment: .center)
                    frame.drawText("stopped", font: .medium, x: 0, y: frame.height / 2 + 1, maxWidth: frame.width, alignment: .center)
                    account(try oled!.flush(frame))
                }
            } else if lcd != nil {
                characters.clear()
                if stop == .message {
                    for (column, scalar) in "stopped".unicodeScalars.enumerated() { characters[column, 0] = .scalar(scalar) }
                }
                while case .busy(let until) = try lcd!.flush(characters, now: clock.now()) { wait(until) }
                if stop == .off { account(try lcd!.setBacklight(false)) }
            }
        } catch {
            dependencies.log(moment.now, .problem("display: not left \(stop == .off ? "off" : "showing stopped"): \(error)"))
        }
    }
}
