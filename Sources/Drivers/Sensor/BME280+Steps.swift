import HAL

/// The bus steps of `BME280`: each one transaction or two, each mapped to a `BME280Error`.
extension BME280 {
    /// One step of the start sequence (see the type's documentation, step 1).
    mutating func startStep(now: Instant) throws(BME280Error) -> BME280Progress<BME280Chip> {
        switch phase {
        case .idle, .measuring:
            guard let chip else { preconditionFailure("a started BME280 knows its chip") }
            return .done(chip)
        case .unknown:
            let id = try readRegister(BME280Register.chipID)
            guard let found = BME280Chip(id: id) else { throw .wrongChip(id: id, address: address.rawValue) }
            try writeRegister(BME280Register.reset, BME280Register.resetCommand)
            let pollAt = now + Self.startupTime
            phase = .resetting(chip: found, pollAt: pollAt, giveUpAt: pollAt + Self.patience)
            return .busy(until: pollAt)
        case .resetting(let found, let pollAt, let giveUpAt):
            if now < pollAt { return .busy(until: pollAt) }
            // §5.4.4: im_update is 1 while the NVM is copied to the image registers.
            if try readRegister(BME280Register.status) & BME280Register.statusUpdating != 0 {
                guard now < giveUpAt else { throw .stuck(address: address.rawValue) }
                let next = now + Self.pollInterval
                phase = .resetting(chip: found, pollAt: next, giveUpAt: giveUpAt)
                return .busy(until: next)
            }
            calibration = try readCalibration(humidity: found.hasHumidity)
            chip = found
            phase = .idle
            return .done(found)
        }
    }

    /// Reads both trimming blocks twice and decodes them when the two reads agree and are
    /// not blank (a corpus note reports an occasionally corrupted calibration byte).
    mutating func readCalibration(humidity: Bool) throws(BME280Error) -> BME280Calibration {
        // 26 bytes of 0x88–0xA1 at 0, 7 bytes of 0xE1–0xE7 at 32 (zero on a BMP280).
        var first: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        var second = first
        try readBlocks(into: &first, humidity: humidity)
        try readBlocks(into: &second, humidity: humidity)
        let address = address.rawValue
        return try withUnsafeBytes(of: &first) { (a) throws(BME280Error) -> BME280Calibration in
            try withUnsafeBytes(of: &second) { (b) throws(BME280Error) -> BME280Calibration in
                let block1 = UnsafeRawBufferPointer(rebasing: a[0..<BME280Register.calibrationBlock1Count])
                let block2 = UnsafeRawBufferPointer(rebasing: a[32..<(32 + BME280Register.calibrationBlock2Count)])
                guard a.elementsEqual(b), !BME280Calibration.isBlank(block1) else {
                    throw .invalidCalibration(address: address)
                }
                let calibration = BME280Calibration(block1: block1, block2: block2)
                guard calibration.isPlausible else { throw .invalidCalibration(address: address) }
                return calibration
            }
        }
    }

    private mutating func readBlocks(
        into storage: inout (UInt64, UInt64, UInt64, UInt64, UInt64), humidity: Bool
    ) throws(BME280Error) {
        let address = address.rawValue
        try withUnsafeMutableBytes(of: &storage) { (raw) throws(BME280Error) in
            let block1 = UnsafeMutableRawBufferPointer(rebasing: raw[0..<BME280Register.calibrationBlock1Count])
            try checked { (bus) throws(I2CError) in
                try bus.readRegisters(address: address, register: BME280Register.calibrationBlock1, into: block1)
            }
            guard humidity else { return }
            let block2 = UnsafeMutableRawBufferPointer(rebasing: raw[32..<(32 + BME280Register.calibrationBlock2Count)])
            try checked { (bus) throws(I2CError) in
                try bus.readRegisters(address: address, register: BME280Register.calibrationBlock2, into: block2)
            }
        }
    }

    /// Reads 0xF3–0xFE in one transaction and, when the conversion is over, compensates.
    mutating func readStep(now: Instant, giveUpAt: Instant) throws(BME280Error) -> BME280Progress<BME280Measurement> {
        guard let chip, let calibration else { preconditionFailure("a measuring BME280 is calibrated") }
        var buffer: (UInt64, UInt64) = (0, 0)
        let address = address.rawValue
        let raw = try withUnsafeMutableBytes(of: &buffer) { (bytes) throws(BME280Error) -> BME280RawSample? in
            let span = UnsafeMutableRawBufferPointer(rebasing: bytes[0..<BME280Register.statusAndDataCount])
            try checked { (bus) throws(I2CError) in
                try bus.readRegisters(address: address, register: BME280Register.status, into: span)
            }
            // status.measuring: the data registers still hold the previous result (§4, §5.4.4).
            if bytes[0] & BME280Register.statusMeasuring != 0 { return nil }
            return BME280RawSample(dataRegisters: UnsafeRawBufferPointer(rebasing: bytes[4..<12]))
        }
        guard let raw else {
            guard now < giveUpAt else { throw .stuck(address: address) }
            return .busy(until: now + Self.pollInterval)
        }
        if let missing = raw.unmeasured(humidity: chip.hasHumidity) {
            throw .notMeasured(missing, address: address)
        }
        phase = .idle
        let reading = calibration.compensate(raw, humidity: chip.hasHumidity)
        let measured = reading.temperatureCelsius
        let corrected = measured + temperatureOffset
        let humidity = reading.humidityPercent.map {
            TemperatureOffset.relativeHumidity($0, measuredAt: measured, correctedTo: corrected)
        }
        return .done(
            BME280Measurement(
                chip: chip, raw: raw, reading: reading, temperatureCelsius: corrected,
                humidityPercent: humidity, pressurePascals: reading.pressurePascals))
    }

    mutating func readRegister(_ register: UInt8) throws(BME280Error) -> UInt8 {
        var value: UInt8 = 0
        let address = address.rawValue
        try checked { (bus) throws(I2CError) in value = try bus.readRegister(address: address, register) }
        return value
    }

    mutating func writeRegister(_ register: UInt8, _ value: UInt8) throws(BME280Error) {
        let address = address.rawValue
        try checked { (bus) throws(I2CError) in try bus.writeRegister(address: address, register, value) }
    }

    /// Runs one bus call, turning its `I2CError` into a `BME280Error`. A NACK whose source is
    /// the address, or unknown (the Pi's bcm2835 reports every NACK as EREMOTEIO), means no
    /// part answers there.
    mutating func checked(_ body: (inout Bus) throws(I2CError) -> Void) throws(BME280Error) {
        do {
            try body(&bus)
        } catch {
            switch error.kind {
            case .noAcknowledge(.address), .noAcknowledge(.unknown): throw .noDevice(address: address.rawValue)
            default: throw .bus(error, address: address.rawValue)
            }
        }
    }
}
