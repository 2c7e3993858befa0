import HAL
import HALSim
import Testing

@Suite struct SimulatedI2CBusTests {
    func makeBus(clock: VirtualClock? = nil) -> (SimulatedI2CBus, RegisterFile) {
        let bus = SimulatedI2CBus(clock: clock)
        let sensor = RegisterFile(powerOn: [0xD0: 0x60], readOnly: [0xD0])
        bus.attach(sensor, at: 0x76)
        return (bus, sensor)
    }

    @Test func testI2C_NoDevice_FailsWithAddressNack() {
        var (bus, _) = makeBus()
        let error = caught(I2CError.self) { try bus.write(address: 0x3C, [0x00, 0xAE]) }
        #expect(error == I2CError(.noAcknowledge(.address)))
        #expect(bus.failedTransactionCount == 1)
        #expect(bus.log.render() == "# 3C: 00 AE failed: no acknowledge of the address (nothing answers there)\n")
    }

    @Test func testI2C_WriteThenRead_ReachesTheModelAndIsLogged() throws {
        let clock = VirtualClock(start: .ms(1))
        var (bus, _) = makeBus(clock: clock)
        #expect(try bus.readRegister(address: 0x76, 0xD0) == 0x60)
        clock.advance(by: .microseconds(500))
        try bus.writeRegister(address: 0x76, 0xF4, 0x27)
        #expect(bus.log.render() == "t=0.001000 76: D0\n# t=0.001000 76: read 1 -> 60\nt=0.001500 76: F4 27\n")
        #expect(bus.transactionCount == 2)
    }

    @Test func testI2C_EmptyTransaction_IsRefused() {
        let (bus, _) = makeBus()
        let error = caught(I2CError.self) {
            try bus.transfer(address: 0x76, write: UnsafeRawBufferPointer(start: nil, count: 0),
                             read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
        #expect(error?.kind == .other)
    }

    @Test(arguments: [
        I2CError.Kind.noAcknowledge(.address), .noAcknowledge(.data), .bus, .timeout, .arbitrationLoss,
    ])
    func testI2C_InjectedFault_FailsNTimesThenClears(kind: I2CError.Kind) throws {
        var (bus, sensor) = makeBus()
        bus.injectFault(kind, at: 0x76, count: 2)
        for _ in 0..<2 {
            let error = caught(I2CError.self) { try bus.writeRegister(address: 0x76, 0xF4, 0x27) }
            #expect(error?.kind == kind)
        }
        #expect(sensor[0xF4] == 0, "a faulted transaction never reaches the device")
        #expect(bus.fault(at: 0x76) == nil)
        try bus.writeRegister(address: 0x76, 0xF4, 0x27)
        #expect(sensor[0xF4] == 0x27)
        #expect(bus.failedTransactionCount == 2)
    }

    @Test func testI2C_FaultUntilCleared_KeepsFailing() throws {
        var (bus, _) = makeBus()
        bus.injectFault(.timeout, at: 0x76)
        for _ in 0..<10 {
            #expect(caught(I2CError.self) { _ = try bus.readRegister(address: 0x76, 0xD0) }?.kind == .timeout)
        }
        bus.clearFault(at: 0x76)
        #expect(try bus.readRegister(address: 0x76, 0xD0) == 0x60)
    }

    @Test func testI2C_BusWideFault_HitsEveryAddress() throws {
        var (bus, _) = makeBus()
        bus.attach(PCF8574(), at: 0x27)
        bus.injectFault(.bus, count: 2)
        #expect(caught(I2CError.self) { try bus.write(address: 0x27, [0x08]) }?.kind == .bus)
        #expect(caught(I2CError.self) { _ = try bus.readRegister(address: 0x76, 0xD0) }?.kind == .bus)
        try bus.write(address: 0x27, [0x08])
        bus.injectFault(.arbitrationLoss)
        bus.injectFault(.timeout, at: 0x27, count: 1)
        #expect(caught(I2CError.self) { try bus.write(address: 0x27, [0x08]) }?.kind == .timeout, "address first")
        #expect(caught(I2CError.self) { try bus.write(address: 0x27, [0x08]) }?.kind == .arbitrationLoss)
        bus.clearAllFaults()
        try bus.write(address: 0x27, [0x08])
    }

    @Test func testI2C_DetachReattach_WithAndWithoutReset() throws {
        var (bus, sensor) = makeBus()
        try bus.writeRegister(address: 0x76, 0xF4, 0x27)
        bus.detach(0x76)
        #expect(!bus.isPresent(0x76))
        #expect(caught(I2CError.self) { _ = try bus.readRegister(address: 0x76, 0xD0) } == I2CError(.noAcknowledge(.address)))
        bus.reattach(0x76, resetting: false)
        #expect(try bus.readRegister(address: 0x76, 0xF4) == 0x27, "kept its state (a glitch, not a power cycle)")
        bus.detach(0x76)
        bus.reattach(0x76)
        #expect(try bus.readRegister(address: 0x76, 0xF4) == 0, "power-on state after a power cycle")
        #expect(sensor[0xD0] == 0x60)
        #expect(bus.log.contains(.comment("76: reattached (power-on reset)")))
    }

    @Test func testI2C_PiStyleNack_ReportsUnknownSource() {
        var (bus, _) = makeBus()
        bus.reportsNoAcknowledgeSource = false
        #expect(caught(I2CError.self) { try bus.write(address: 0x3C, [0]) }?.kind == .noAcknowledge(.unknown))
        bus.injectFault(.noAcknowledge(.data), at: 0x76, count: 1)
        #expect(caught(I2CError.self) { try bus.write(address: 0x76, [0xF4, 1]) }?.kind == .noAcknowledge(.unknown))
    }

    @Test func testI2C_ModelDataNack_IsPassedOn() {
        var bus = SimulatedI2CBus()
        let device = RegisterFile(readOnly: [0x10], readOnlyWrites: .noAcknowledge)
        bus.attach(device, at: 0x50)
        let error = caught(I2CError.self) { try bus.write(address: 0x50, [0x0F, 0xAA, 0xBB, 0xCC]) }
        #expect(error == I2CError(.noAcknowledge(.data)))
        #expect(device[0x0F] == 0xAA, "bytes before the refused one were taken")
        #expect(device[0x10] == 0 && device[0x11] == 0)
    }

    @Test func testI2C_LoggingOff_RecordsNothing() throws {
        var (bus, _) = makeBus()
        bus.isLogging = false
        try bus.writeRegister(address: 0x76, 0xF4, 1)
        #expect(bus.log.isEmpty)
    }
}
