import HAL

/// The Bosch BME280 (or BMP280) on I²C, from its data sheet (BST-BME280-DS002 rev. 1.6), not
/// from any driver: what a register read returns and what a write does, in virtual time.
///
/// - §5.3/§5.4 memory map: `id` 0xD0 (0x60, or a BMP280's 0x56–0x58), `reset` 0xE0, `ctrl_hum`
///   0xF2, `status` 0xF3, `ctrl_meas` 0xF4, `config` 0xF5, data 0xF7–0xFE, trimming words at
///   0x88–0xA1 and 0xE1–0xE7 (§4.2.2). Everything else is read-only (writes ignored).
/// - §6.2.1 writes are register/data pairs; §6.2.2 reads auto-increment (`RegisterFile`).
/// - §5.4.2 writing 0xB6 to `reset` is a power-on reset: registers back to their reset
///   values, the NVM copied again into the image registers while `status.im_update` is set
///   (2 ms, the start-up time of §1.1 Table 1), during which the trimming registers read 0.
/// - §5.4.3 `ctrl_hum` takes effect only at the next `ctrl_meas` write.
/// - §3.3 modes: forced (01/10) runs one conversion, `status.measuring` set for the typical
///   time of §9.1 (`typicalMeasurementTime`), then latches the results and returns to sleep
///   (the mode bits of `ctrl_meas` read 00). Normal (11) repeats conversions separated by
///   t_sb (§3.3.4, Table 27). A `ctrl_meas` written during a conversion takes effect when it
///   ends; further `ctrl_meas` and `ctrl_hum` writes meanwhile are ignored (§3.3.1).
/// - §5.4.6 `config` writes in normal mode are ignored (the corpus note: write it in sleep).
/// - §3.4/§4 oversampling code 000 skips a quantity: its register keeps 0x80000 (T, P) or
///   0x8000 (H). Data registers are shadowed: a read during a conversion returns the previous
///   result; new results appear only when a conversion ends (and never mid-transaction).
///
/// The test side is the environment: `environment` holds the raw ADC values the next
/// conversion latches. Resolution reduction without the IIR filter (§3.4.3) is not modelled:
/// the raw values are latched exactly. Without a clock every conversion and NVM copy is
/// instantaneous (complete at the next bus access).
public final class BME280Model: I2CDeviceModel {
    public enum Mode: Sendable, Equatable { case sleep, forced, normal }

    /// Raw ADC values: temperature and pressure 20-bit, humidity 16-bit.
    public struct Environment: Sendable, Equatable {
        public var temperature: Int32
        public var pressure: Int32
        public var humidity: Int32

        public init(temperature: Int32, pressure: Int32, humidity: Int32) {
            self.temperature = temperature
            self.pressure = pressure
            self.humidity = humidity
        }
    }

    struct Conversion {
        var start: Instant?
        var end: Instant?
        /// osrs_t, osrs_p, osrs_h codes in force for this conversion.
        var osrsT: UInt8, osrsP: UInt8, osrsH: UInt8
    }

    public let chipID: UInt8
    public let clock: VirtualClock?
    /// What the next conversion latches. Changing it first brings the part up to the clock's
    /// time, so conversions that ended before the change latch the old values.
    public var environment: Environment {
        willSet { update() }
    }
    /// Conversions completed since the model was created (all of them, up to the clock's time).
    public var conversionCount: Int {
        update()
        return completedConversions
    }
    /// Soft resets performed (0xB6 written to 0xE0).
    public internal(set) var softResetCount = 0

    let file: RegisterFile
    /// The NVM trimming bytes, copied to the image registers after every reset.
    let nvm: [UInt8: UInt8]
    var completedConversions = 0
    var mode = Mode.sleep
    /// `ctrl_hum`, `ctrl_meas`, `config` as accepted (the register file mirrors them).
    var controlHumidity: UInt8 = 0
    var controlMeasurement: UInt8 = 0
    var config: UInt8 = 0
    /// osrs_h latched by the last `ctrl_meas` write (§5.4.3).
    public internal(set) var effectiveHumidityOversampling: UInt8 = 0
    var conversion: Conversion?
    var pendingControl: UInt8?
    var updatingUntil: Instant?
    var nvmCopied = false

    /// A part with `chipID` (0x60 BME280; 0x56, 0x57 or 0x58 BMP280) whose NVM holds
    /// `calibrationBlock1` (26 bytes for 0x88–0xA1) and `calibrationBlock2` (7 bytes for
    /// 0xE1–0xE7; empty on a BMP280). It powers on at `clock.now()`.
    public init(
        chipID: UInt8 = 0x60, calibrationBlock1: [UInt8], calibrationBlock2: [UInt8] = [],
        environment: Environment = BME280Model.datasheetExampleEnvironment, clock: VirtualClock? = nil
    ) {
        precondition(calibrationBlock1.count == 26, "0x88–0xA1 is 26 bytes")
        precondition(calibrationBlock2.isEmpty || calibrationBlock2.count == 7, "0xE1–0xE7 is 7 bytes")
        self.chipID = chipID
        self.clock = clock
        self.environment = environment
        var nvm = RegisterFile.block(at: 0x88, calibrationBlock1)
        nvm.merge(RegisterFile.block(at: 0xE1, calibrationBlock2)) { $1 }
        self.nvm = nvm
        var powerOn = RegisterFile.block(at: 0xF7, [0x80, 0x00, 0x00, 0x80, 0x00, 0x00, 0x80, 0x00])
        powerOn[0xD0] = chipID
        var writable: Set<UInt8> = [0xE0, 0xF4, 0xF5]
        if chipID == 0x60 { writable.insert(0xF2) }
        file = RegisterFile(
            powerOn: powerOn, readOnly: Set((0...255).map(UInt8.init)).subtracting(writable),
            writeMode: .registerDataPairs)
        file.onRegisterWrite = { [unowned self] register, value in self.registerWritten(register, value) }
        resetState()
    }

    public var hasHumidity: Bool { chipID == 0x60 }

    // MARK: I2CDeviceModel

    public func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        update()
        try file.write(bytes)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        update()
        try file.read(into: buffer)
    }

    public func powerOnReset() {
        file.powerOnReset()
        resetState()
    }

    // MARK: The test's view

    /// A register as the bus would read it now.
    public subscript(register: UInt8) -> UInt8 {
        update()
        return file[register]
    }

    public var currentMode: Mode {
        update()
        return mode
    }

    /// `status.measuring` now.
    public var isMeasuring: Bool { self[0xF3] & 0x08 != 0 }

    /// `status.im_update` now.
    public var isUpdatingNVM: Bool { self[0xF3] & 0x01 != 0 }
}
