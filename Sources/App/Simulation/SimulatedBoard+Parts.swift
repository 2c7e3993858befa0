import Board
import Drivers
import HALSim

extension SimulatedBoard {
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
