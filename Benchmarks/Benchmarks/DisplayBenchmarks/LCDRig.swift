import Drivers
import Graphics
import HAL
import Screens

/// The 16×2 character LCD behind a PCF8574: the layout of the now screen and the HD44780
/// flush, the minute changing on every frame. Time comes from a counter, as on a virtual clock:
/// the driver is handed the instant it asked to be called back at, so it never waits.
final class LCDRig {
    var display: HD44780Display<CountingBus>
    var frame = CharacterFrame(columns: 16, rows: 2)
    var now = Instant.zero
    var minute = 0

    init() throws {
        display = HD44780Display(bus: CountingBus(), geometry: .lcd16x2)
        var progress = try display.start(now: now)
        while case .busy(let until) = progress {
            now = until
            progress = try display.start(now: now)
        }
    }

    func run() {
        for _ in 0..<framesPerIteration {
            minute += 1
            CharacterScreens.render(models[minute % models.count], .now, into: &frame)
            var progress = try? display.flush(frame, now: now)
            while case .busy(let until) = progress {
                now = until
                progress = try? display.flush(frame, now: now)
            }
            guard case .done = progress else { fatalError("the counting bus never fails") }
        }
    }
}
