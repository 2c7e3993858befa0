import HAL

/// What the BME280 model's registers do (see `BME280Model` for the data-sheet sections).
extension BME280Model {
    /// Power-on / soft-reset state (§5.4.2): sleep mode, control registers 0, data registers
    /// 0x80000/0x8000, and the NVM copy under way (im_update) for the 2 ms start-up time.
    func resetState() {
        mode = .sleep
        controlHumidity = 0
        controlMeasurement = 0
        config = 0
        effectiveHumidityOversampling = 0
        conversion = nil
        pendingControl = nil
        // Until the copy is done the image registers hold nothing.
        for register in nvm.keys { file[register] = 0 }
        nvmCopied = false
        updatingUntil = clock.map { $0.now() + Self.startupTime }
        refreshStatus(now: clock?.now())
    }

    /// Whether a conversion is running now (never without a clock: conversions are instant).
    var isConverting: Bool {
        guard let now = clock?.now(), let start = conversion?.start else { return false }
        return now >= start
    }

    /// Called by the register file after it stored a byte written through the bus.
    func registerWritten(_ register: UInt8, _ value: UInt8) {
        let measuring = isConverting
        switch register {
        case 0xE0:
            file[0xE0] = 0  // reads back 0x00 whatever was written
            if value == 0xB6 {
                softResetCount += 1
                file.powerOnReset()
                resetState()
            }
        case 0xF2:
            // Ignored during a conversion (§3.3.1); otherwise stored, latched by ctrl_meas.
            if measuring { file[0xF2] = controlHumidity } else { controlHumidity = value }
        case 0xF4:
            file[0xF4] = controlMeasurement
            if measuring {
                if pendingControl == nil { pendingControl = value }
            } else {
                applyControl(value, at: clock?.now())
            }
        case 0xF5:
            if mode == .normal { file[0xF5] = config } else { config = value }
        default:
            break
        }
    }

    /// A `ctrl_meas` write taking effect at `time` (nil: no clock).
    func applyControl(_ value: UInt8, at time: Instant?) {
        controlMeasurement = value
        file[0xF4] = value
        effectiveHumidityOversampling = hasHumidity ? controlHumidity & 0x07 : 0
        switch value & 0x03 {
        case 0b00:
            mode = .sleep
            conversion = nil
        case 0b11:
            mode = .normal
            startConversion(at: time)
        default:
            mode = .forced
            startConversion(at: time)
        }
    }

    func startConversion(at time: Instant?) {
        let t = (controlMeasurement >> 5) & 0x07
        let p = (controlMeasurement >> 2) & 0x07
        let h = effectiveHumidityOversampling
        let length = Self.typicalMeasurementTime(osrsT: t, osrsP: p, osrsH: hasHumidity ? h : 0)
        conversion = Conversion(start: time, end: time.map { $0 + length }, osrsT: t, osrsP: p, osrsH: h)
    }

    /// Brings the part up to the clock's time: the NVM copy, every conversion that ended
    /// (latching its results, then sleep, the next normal-mode cycle, or a pending ctrl_meas),
    /// and the status register.
    func update() {
        let now = clock?.now()
        if !nvmCopied, now == nil || updatingUntil.map({ now! >= $0 }) == true {
            for (register, value) in nvm { file[register] = value }
            nvmCopied = true
            updatingUntil = nil
        }
        // Without a clock a conversion ends at the next access, one per access.
        var endedWithoutClock = false
        while let current = conversion {
            if let now {
                guard let end = current.end, end <= now else { break }
            } else {
                if endedWithoutClock { break }
                endedWithoutClock = true
            }
            let endedAt = current.end
            latch(current)
            completedConversions += 1
            if let pending = pendingControl {
                pendingControl = nil
                conversion = nil
                applyControl(pending, at: endedAt)
                continue
            }
            switch mode {
            case .normal:
                let standby = Self.standbyTime(code: config >> 5, bme280: hasHumidity)
                // The next conversion starts after the standby time (measuring is clear).
                startConversion(at: endedAt.map { $0 + standby })
            case .forced, .sleep:
                mode = .sleep
                conversion = nil
                controlMeasurement &= ~0x03
                file[0xF4] = controlMeasurement
            }
        }
        refreshStatus(now: now)
    }

    /// status (0xF3): bit 3 while a conversion runs, bit 0 while the NVM is copied.
    func refreshStatus(now: Instant?) {
        var status: UInt8 = 0
        // Without a clock conversions are instantaneous: never seen running.
        if let conversion, let start = conversion.start, let now, now >= start { status |= 0x08 }
        if !nvmCopied { status |= 0x01 }
        file[0xF3] = status
    }

    /// Puts a finished conversion's results in 0xF7–0xFE; skipped quantities keep 0x80000 /
    /// 0x8000 (§4). A BMP280 has no humidity registers to write.
    func latch(_ c: Conversion) {
        let t = c.osrsT == 0 ? 0x80000 : environment.temperature & 0xFFFFF
        let p = c.osrsP == 0 ? 0x80000 : environment.pressure & 0xFFFFF
        store20(p, at: 0xF7)
        store20(t, at: 0xFA)
        guard hasHumidity else { return }
        let h = c.osrsH == 0 ? 0x8000 : environment.humidity & 0xFFFF
        file[0xFD] = UInt8(truncatingIfNeeded: h >> 8)
        file[0xFE] = UInt8(truncatingIfNeeded: h)
    }

    private func store20(_ value: Int32, at register: UInt8) {
        file[register] = UInt8(truncatingIfNeeded: value >> 12)
        file[register + 1] = UInt8(truncatingIfNeeded: value >> 4)
        file[register + 2] = UInt8(truncatingIfNeeded: value << 4)
    }
}
