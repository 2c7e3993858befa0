import Drivers
import Graphics
import HAL
import HALSim
import Screens

/// The panels `thunderstorm snapshot` can draw on: the modules of docs/design/architecture.md#the-reference-device, each as the
/// driver's profile and the simulated controller that stands in for the glass.
enum SnapshotDisplay: String, CaseIterable {
    case ssd1306_128x64 = "ssd1306-128x64"
    case ssd1306_128x32 = "ssd1306-128x32"
    case sh1106_128x64 = "sh1106-128x64"
    case hd44780_16x2 = "hd44780-16x2"
    case hd44780_20x4 = "hd44780-20x4"

    /// The I²C address of the module: the SSD1306/SH1106 default (SA0 low) or the PCF8574
    /// backpack's (A0…A2 high).
    static let lcdAddress: UInt8 = 0x27

    /// The SCL frequency the HD44780 backpack is timed at (the PCF8574's rating).
    static let lcdBusClockHz = 100_000

    enum Panel {
        case oled(OLEDProfile, OLEDControllerModel.Configuration)
        case lcd(CharacterLCDGeometry, HD44780Model.Geometry)
    }

    var panel: Panel {
        switch self {
        case .ssd1306_128x64: .oled(.ssd1306_128x64, .ssd1306_128x64)
        case .ssd1306_128x32: .oled(.ssd1306_128x32, .ssd1306_128x32)
        case .sh1106_128x64: .oled(.sh1106_128x64, .sh1106_128x64(columnOffset: OLEDProfile.sh1106_128x64.columnOffset))
        case .hd44780_16x2: .lcd(.lcd16x2, .lcd16x2)
        case .hd44780_20x4: .lcd(.lcd20x4, .lcd20x4)
        }
    }

    var address: UInt8 {
        switch panel {
        case .oled(let profile, _): profile.address
        case .lcd: Self.lcdAddress
        }
    }

    /// What the log's first comment says the panel is.
    var summary: String {
        switch panel {
        case .oled(let profile, _):
            "\(profile.controller == .ssd1306 ? "SSD1306" : "SH1106") \(profile.width)x\(profile.height) OLED at 0x\(hex(address))"
        case .lcd(let geometry, _):
            "HD44780 \(geometry.columns)x\(geometry.rows) LCD on a PCF8574 backpack (YwRobot wiring) at 0x\(hex(address)), "
                + "timed at \(Self.lcdBusClockHz / 1000) kHz"
        }
    }

    private func hex(_ value: UInt8) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }
}

/// One scene drawn through the real driver onto a simulated bus with the panel's controller
/// model attached, from power-on: the driver's start (initialisation and, on an OLED, the RAM
/// clear; on an HD44780 every `.busy(until:)` step, the virtual clock moved to each instant), then
/// one flush per frame, a `!snapshot frameN` line after each. Frames after the first come one
/// minute later on the virtual clock (the clock-tick scene's 14:05 and 14:06).
struct SnapshotRun {
    enum Failure: Error {
        /// The simulated bus refused a transaction: a bug, since every device is attached.
        case bus(I2CError, during: String)
        /// The LCD driver asked to wait until an instant that is not in the future, or never
        /// finished: a bug, reported instead of looping or trapping.
        case stuck(String)
    }

    /// The traffic of the start (index 0) and of each frame (1…).
    var reports: [FlushReport] = []
    /// The glass after each frame, in order.
    var images: [PanelImage] = []
    /// Everything that went over the bus, from power-on, with the snapshots and comments.
    var log = I2CTransactionLog()
    /// The controller model's protocol errors at the end (descriptions).
    var modelErrors: [String] = []

    /// The time between frames on the virtual clock.
    static let frameInterval = Duration.seconds(60)
    /// More `.busy(until:)` steps than any start or flush takes (the HD44780 start takes four).
    static let maxSteps = 64

    init(display: SnapshotDisplay, scene: SampleScene) throws(Failure) {
        let clock = VirtualClock()
        let bus = SimulatedI2CBus(clock: clock)
        bus.log.appendComment("thunderstorm snapshot --display \(display.rawValue) --scene \(scene.rawValue)")
        bus.log.appendComment("\(display.summary), from power-on")
        let frames = scene.frames
        switch display.panel {
        case .oled(let profile, let configuration):
            let panel = OLEDControllerModel(configuration)
            bus.attach(panel, at: profile.address)
            var driver = OLEDDisplay(bus: bus, profile: profile)
            var framebuffer = Framebuffer(width: profile.width, height: profile.height)
            bus.log.appendComment("start: initialisation, RAM clear, display on")
            do {
                reports.append(try driver.start())
            } catch {
                throw .bus(error, during: "start")
            }
            for (index, model) in frames.enumerated() {
                if index > 0 { clock.advance(by: Self.frameInterval) }
                bus.log.appendComment("frame \(index + 1)")
                OLEDScreens.render(model, scene.screen, into: &framebuffer)
                do {
                    reports.append(try driver.flush(framebuffer))
                } catch {
                    throw .bus(error, during: "frame \(index + 1)")
                }
                bus.log.appendSnapshot("frame\(index + 1)")
                images.append(panel.snapshot())
            }
            modelErrors = panel.errors.map(\.description)
        case .lcd(let geometry, let modelGeometry):
            let hz = SnapshotDisplay.lcdBusClockHz
            let panel = HD44780Backpack(
                geometry: modelGeometry, pinMap: .ywRobot, clock: clock, portTiming: .wire(I2CWireTiming(clockHz: hz)))
            bus.attach(panel, at: display.address)
            var driver = HD44780Display(
                bus: bus, address: display.address, pins: .ywrobot, geometry: geometry,
                timing: HD44780Timing(busClockHz: hz))
            var frame = CharacterFrame(columns: geometry.columns, rows: geometry.rows)
            bus.log.appendComment("start: power-up wait, 4-bit initialisation, clear")
            reports.append(try Self.untilDone("start", clock) { now throws(I2CError) in try driver.start(now: now) })
            for (index, model) in frames.enumerated() {
                if index > 0 { clock.advance(by: Self.frameInterval) }
                bus.log.appendComment("frame \(index + 1)")
                CharacterScreens.render(model, scene.screen, into: &frame)
                reports.append(
                    try Self.untilDone("frame \(index + 1)", clock) { now throws(I2CError) in try driver.flush(frame, now: now) })
                bus.log.appendSnapshot("frame\(index + 1)")
                images.append(panel.snapshot())
            }
            modelErrors = panel.errors.map(\.description)
        }
        log = bus.log
    }

    /// Calls `step` until it is done, moving the clock to every `.busy(until:)` instant.
    private static func untilDone(
        _ what: String, _ clock: VirtualClock, _ step: (Instant) throws(I2CError) -> HD44780Progress
    ) throws(Failure) -> FlushReport {
        for _ in 0..<maxSteps {
            let progress: HD44780Progress
            do {
                progress = try step(clock.now())
            } catch {
                throw .bus(error, during: what)
            }
            switch progress {
            case .done(let report):
                return report
            case .busy(let until):
                guard until > clock.now() else {
                    throw .stuck("\(what): the LCD driver asked to wait until \(until), which is not after \(clock.now())")
                }
                clock.advance(to: until)
            }
        }
        throw .stuck("\(what): the LCD driver was still busy after \(maxSteps) steps")
    }
}
