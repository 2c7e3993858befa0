import HAL
import Drivers
import Graphics
import Screens
import Store
import HALSim

/// A framebuffer with every byte set by `byte(page, column)`.
func frame(_ profile: OLEDProfile, _ byte: (Int, Int) -> UInt8) -> Framebuffer {
    var frame = Framebuffer(width: profile.width, height: profile.height)
    frame.withUnsafeMutableBytes { raw in
        for page in 0..<profile.pages {
            for column in 0..<profile.width { raw[page * profile.width + column] = byte(page, column) }
        }
    }
    return frame
}

/// Sets the bytes of a window to `value`.
func fill(_ frame: inout Framebuffer, columns: ClosedRange<Int>, pages: ClosedRange<Int>, _ value: UInt8) {
    let width = frame.width
    frame.withUnsafeMutableBytes { raw in
        for page in pages {
            for column in columns { raw[page * width + column] = value }
        }
    }
}

/// The bytes of a window, page by page (what a window write carries).
func windowBytes(_ frame: Framebuffer, columns: ClosedRange<Int>, pages: ClosedRange<Int>) -> [UInt8] {
    var result: [UInt8] = []
    for page in pages {
        for column in columns { result.append(frame.byte(page: page, column: column)) }
    }
    return result
}

/// A seeded random frame.
func randomFrame(_ profile: OLEDProfile, _ rng: inout SplitMix64) -> Framebuffer {
    frame(profile) { _, _ in UInt8(truncatingIfNeeded: rng.next()) }
}

/// Seven-segment digits, one pixel thick, `width` × `height` per digit (height odd), one
/// column between digits and a 3-column colon: a stand-in for a clock font that changes the
/// few columns a real one does.

/// The device's real now screen (Screens) at `clock` with `temperature` °C, in `notation`.
struct WeatherScreen {
    var profile: OLEDProfile
    var notation: TimeNotation = .twentyFourHour

    func render(clock minutes: Int, temperature: Double = 23.4) -> Framebuffer {
        var model = SampleScene.now.frames[0]
        model.clock = ClockTime(hour: minutes / 60 % 24, minute: minutes % 60)
        model.settings.time = notation
        model.weather.forecast?.current.temperature = temperature
        var image = Framebuffer(width: profile.width, height: profile.height)
        OLEDScreens.render(model, .now, into: &image)
        return image
    }

    /// "14:05" as minutes of the day.
    static func minutes(_ clock: String) -> Int {
        let parts = clock.split(separator: ":").map { Int($0)! }
        return parts[0] * 60 + parts[1]
    }
}
