import Core
import Drivers
import HAL
import Screens
import Weather

/// A reload (SIGHUP with a changed board file) builds a new `Device`; the parts whose
/// configuration did not change move into it with their state instead of being started again.
extension Device {
    /// The parts a reload's new device takes over from the old one.
    public struct KeptParts: Equatable, Sendable {
        public var display: Bool
        public var sensor: Bool
        public var buttons: Bool

        public init(display: Bool = false, sensor: Bool = false, buttons: Bool = false) {
            self.display = display
            self.sensor = sensor
            self.buttons = buttons
        }

        public static var none: KeptParts { KeptParts() }
    }

    /// What the new device sends right after its `.start`.
    struct Resumption {
        var place: ShownPlace
        var screen: Screen
        /// The last indoor reading of a kept sensor (the indoor screen is not blank until the
        /// next reading).
        var indoor: IndoorReading?
        /// A kept display that is failing (a panel not answering, its adapter gone) is still
        /// failing: the new device says so at once, not only at its next failed try, which
        /// the retry's backoff can put 15 s away and which would then not be news to it.
        var display: DisplayHealth?
        /// Kept buttons' lines that are quietened for noise (their status line stays).
        var noisyButtons: [String]
        /// The barograph's trace, handed over in memory: the old device's last write of it may
        /// still be on its way to the card (the writer is off the loop).
        var barograph: PressureHistory
        /// The storm alarm's episode: an alarm acknowledged before the reload is not raised
        /// again by the new device's first sample (it would be, from a fresh alarm).
        var stormAlarm: StormAlarm
    }

    /// Moves the display's driver out of this device (a reload's new device takes it over with
    /// what the glass shows): this device draws nothing more.
    public func surrenderDisplay() -> DisplayUnit<Bus>? {
        defer {
            oled = nil
            lcd = nil
        }
        if let oled { return .oled(oled) }
        if let lcd { return .lcd(lcd) }
        return nil
    }

    /// Moves the sensor's driver (identified and calibrated, perhaps in a conversion) out of
    /// this device.
    public func surrenderSensor() -> BME280<Bus>? {
        defer { sensor = nil }
        return sensor
    }

    /// A reload's new device takes over what the old one showed (once it starts) and the state
    /// of the parts that moved into it: a kept display is not initialised again (no blank
    /// flash; the first frame sends only what differs from the glass), a kept sensor keeps its
    /// conversion and reading, kept buttons keep a press in progress and their noise periods.
    /// Call before `start()`, after moving the drivers with `surrenderDisplay()` and
    /// `surrenderSensor()` (and giving the new device the same `inputs`).
    public func resume(after previous: Device, keeping kept: KeptParts) {
        resumeFrom = Resumption(
            place: previous.state.shown, screen: previous.state.screen,
            indoor: kept.sensor ? previous.state.indoor : nil,
            display: kept.display && previous.state.display != .ok ? previous.state.display : nil,
            noisyButtons: kept.buttons ? previous.state.noisyButtons : [], barograph: previous.state.barograph,
            stormAlarm: previous.state.stormAlarm)
        if kept.display {
            displayInherited = true
            displayRetryAt = previous.displayRetryAt
            displayFailures = previous.displayFailures
            lcdBusyUntil = previous.lcdBusyUntil
        }
        if kept.sensor { sensorDue = previous.sensorDue }
        if kept.buttons { gestures = previous.gestures }
    }

    /// The events that carry the old device's state into this one, after `.start`.
    func sendResumption() {
        guard let resumption = resumeFrom else { return }
        resumeFrom = nil
        send(.resume(resumption.place, resumption.screen))
        if let reading = resumption.indoor { send(.indoor(reading)) }
        if let failing = resumption.display { send(.display(failing)) }
        for name in resumption.noisyButtons { send(.buttonNoise(name, noisy: true)) }
        send(.stormAlarmResumed(resumption.stormAlarm))
    }
}
