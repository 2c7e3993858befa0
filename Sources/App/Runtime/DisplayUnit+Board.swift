import Board
import Drivers
import HAL

extension DisplayUnit {
    /// The board's display driver on `bus`: the OLED driver with the panel's profile, or the
    /// HD44780 driver behind its backpack. The bus clock is 100 kHz, the Pi's default (and the
    /// HD44780's waits are counted in bus bytes at that rate).
    public init(_ display: DisplayConfig, bus: Bus, busClockHz: Int = 100_000) {
        if let profile = display.oledProfile {
            self = .oled(OLEDDisplay(bus: bus, profile: profile))
        } else {
            let lcd = display.characterLCD!
            self = .lcd(
                HD44780Display(
                    bus: bus, address: display.address.value, pins: lcd.pins, geometry: lcd.geometry,
                    timing: HD44780Timing(busClockHz: busClockHz)))
        }
    }
}

extension BME280 {
    /// The board's indoor sensor on `bus`.
    public init(_ sensor: SensorConfig, bus: Bus) {
        self.init(
            bus: bus, address: BME280Address(rawValue: sensor.address.value) ?? .primary,
            temperatureOffset: sensor.temperatureOffset)
    }
}
