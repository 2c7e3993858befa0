import Board
import Drivers
import HAL
import HALSim
import Weather

extension SimulatedBoard {
    /// The controller model of the board's display, attached to `bus` at its address.
    static func attachPanel(_ display: DisplayConfig, to bus: SimulatedI2CBus, clock: VirtualClock) -> Panel {
        if display.oledProfile != nil {
            let model = OLEDControllerModel(modelConfiguration(display))
            bus.attach(model, at: display.address.value)
            return .oled(model)
        }
        let geometry: HD44780Model.Geometry = display.geometry == .lcd20x4 ? .lcd20x4 : .lcd16x2
        let model = HD44780Backpack(
            geometry: geometry, pinMap: wiring(display), clock: clock, portTiming: .wire(I2CWireTiming(clockHz: 100_000)))
        bus.attach(model, at: display.address.value)
        return .lcd(model)
    }

    /// The data-sheet model of the board's BME280 (or BMP280), attached to `bus`.
    static func attachSensor(_ sensor: SensorConfig, to bus: SimulatedI2CBus, clock: VirtualClock) -> BME280Model {
        let model = BME280Model.datasheetExample(chipID: sensor.kind == .bme280 ? 0x60 : 0x58, clock: clock)
        bus.attach(model, at: sensor.address.value)
        return model
    }

    /// The weather service's twin on the simulated network: the device's own provider code
    /// over the simulated Open-Meteo, answering 350 ms later on `clock`.
    static func weatherTwin(
        service: OpenMeteoService, clock: VirtualClock, zone name: String,
        loadZone: (String) -> Result<ZoneRules, ZoneError>, seed: UInt64, storm: SimulatedStorm? = nil,
        trueTime: (@Sendable () -> WallTime)? = nil
    ) -> SimulatedWeatherLink<OpenMeteoService, SimulatedOpenMeteo, VirtualClock> {
        let zone = (try? loadZone(name).get()) ?? .utc
        // The twin runs on the loop's thread only (the simulated link fetches inline). Its
        // clock is the true time (a server's clock is right), not the device's system clock.
        nonisolated(unsafe) let sameThreadClock = clock
        let now = trueTime ?? { sameThreadClock.wallTime() }
        var twin = SimulatedOpenMeteo(now: now, zone: zone, zoneName: zone.identifier, seed: seed)
        twin.storm = storm
        return SimulatedWeatherLink(service: service, transport: twin, clock: clock)
    }

    /// The controller model standing in for the board's OLED module.
    static func modelConfiguration(_ display: DisplayConfig) -> OLEDControllerModel.Configuration {
        var configuration: OLEDControllerModel.Configuration
        switch display.controller {
        case .sh1106(let options): configuration = .sh1106_128x64(columnOffset: options.columnOffset)
        case .ssd1306, .hd44780: configuration = display.geometry == .oled128x32 ? .ssd1306_128x32 : .ssd1306_128x64
        }
        if case .ssd1306(let options) = display.controller, options.externalVCC { configuration.supply = .externalVCC }
        if case .sh1106(let options) = display.controller, options.externalVCC { configuration.supply = .externalVCC }
        return configuration
    }

    /// How the simulated backpack is wired, from the board's backpack map.
    static func wiring(_ display: DisplayConfig) -> BackpackWiring {
        guard case .hd44780(let map) = display.controller else { return .ywRobot }
        switch map {
        case .ywrobot: return .ywRobot
        case .lcm1602: return .lcm1602
        case .mjkdz: return .mjkdz
        }
    }

    /// The glass now: the OLED's pixels, or the LCD's cells as pixels.
    public var glass: PanelImage {
        switch panel {
        case .oled(let model): model.snapshot()
        case .lcd(let model): model.snapshot()
        }
    }

    /// The LCD's rows as text; nil on an OLED.
    public var lcdLines: [String]? {
        if case .lcd(let model) = panel { return model.lines }
        return nil
    }

    /// Protocol errors the panel's model saw (a driver bug if any).
    public var panelErrors: [String] {
        switch panel {
        case .oled(let model): model.errors.map(\.description)
        case .lcd(let model): model.errors.map(\.description)
        }
    }
}
