import HAL
import HALSim
import Testing

@Suite struct PCF8574Tests {
    @Test func testPCF8574_PowerOn_AllHigh() throws {
        let bus = SimulatedI2CBus()
        let expander = PCF8574()
        bus.attach(expander, at: 0x27)
        #expect(expander.latch == 0xFF)
        var byte: UInt8 = 0
        try withUnsafeMutableBytes(of: &byte) { raw in
            try bus.transfer(address: 0x27, write: UnsafeRawBufferPointer(start: nil, count: 0), read: raw)
        }
        #expect(byte == 0xFF)
    }

    @Test func testPCF8574_EachWrittenByte_IsAPortStateInTurn() throws {
        var bus = SimulatedI2CBus()
        let expander = PCF8574()
        var seen: [UInt8] = []
        expander.onPortWrite = { seen.append($0) }
        bus.attach(expander, at: 0x27)
        try bus.write(address: 0x27, [0x3C, 0x38, 0x2C, 0x28])  // two nibbles with E pulses
        #expect(seen == [0x3C, 0x38, 0x2C, 0x28])
        #expect(expander.portWrites == seen)
        #expect(expander.latch == 0x28)
    }

    @Test func testPCF8574_Read_IsLatchAndExternalInputs() throws {
        var bus = SimulatedI2CBus()
        let expander = PCF8574()
        bus.attach(expander, at: 0x20)
        try bus.write(address: 0x20, [0xF0])  // P7..P4 inputs (weak high), P3..P0 driven low
        expander.externalInputs = 0b0111_1111  // a button pulls P7 low
        var two: [UInt8] = [0, 0]
        try two.withUnsafeMutableBytes { raw in
            try bus.transfer(address: 0x20, write: UnsafeRawBufferPointer(start: nil, count: 0), read: raw)
        }
        #expect(two == [0x70, 0x70], "every byte read samples the pins")
        expander.externalInputs = 0xFF
        try bus.write(address: 0x20, [0x00])
        expander.externalInputs = 0x00
        #expect(expander.pins == 0, "a pin driven low stays low whatever is outside")
    }

    @Test func testPCF8574_Interrupt_OnInputChange_ClearedByRead() throws {
        var bus = SimulatedI2CBus()
        let expander = PCF8574()
        bus.attach(expander, at: 0x20)
        #expect(!expander.interruptAsserted)
        expander.externalInputs = 0xFE
        #expect(expander.interruptAsserted)
        expander.externalInputs = 0xFF
        #expect(!expander.interruptAsserted, "back to the original state")
        expander.externalInputs = 0xFE
        _ = try bus.readRegisters(address: 0x20, register: 0xFF, into: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        #expect(!expander.interruptAsserted, "the write-then-read transaction resets INT")
    }

    @Test func testPCF8574_PowerOnReset_RestoresLatch() throws {
        var bus = SimulatedI2CBus()
        let expander = PCF8574()
        bus.attach(expander, at: 0x27)
        try bus.write(address: 0x27, [0x00])
        bus.detach(0x27)
        bus.reattach(0x27)
        #expect(expander.latch == 0xFF)
    }
}

@Suite struct RegisterFileTests {
    @Test func testRegisterFile_PointerAndAutoIncrement() throws {
        var bus = SimulatedI2CBus()
        let device = RegisterFile()
        bus.attach(device, at: 0x50)
        try bus.write(address: 0x50, [0x10, 1, 2, 3])
        #expect(device.registers[0x10...0x12] == [1, 2, 3])
        #expect(device.pointer == 0x13)
        var three: [UInt8] = [0, 0, 0]
        try three.withUnsafeMutableBytes { try bus.readRegisters(address: 0x50, register: 0x0F, into: $0) }
        #expect(three == [0, 1, 2])
        var next: UInt8 = 0
        try withUnsafeMutableBytes(of: &next) { raw in
            try bus.transfer(address: 0x50, write: UnsafeRawBufferPointer(start: nil, count: 0), read: raw)
        }
        #expect(next == 3, "a read without a write phase continues at the pointer")
    }

    @Test func testRegisterFile_PointerWraps() throws {
        var bus = SimulatedI2CBus()
        let device = RegisterFile(powerOn: [0x00: 0xAA])
        bus.attach(device, at: 0x50)
        try bus.write(address: 0x50, [0xFF, 0x11, 0x22])
        #expect(device[0xFF] == 0x11 && device[0x00] == 0x22)
    }

    @Test func testRegisterFile_ReadOnly_IgnoresWrites() throws {
        var bus = SimulatedI2CBus()
        let device = RegisterFile(powerOn: [0xD0: 0x60], readOnly: [0xD0])
        bus.attach(device, at: 0x76)
        try bus.write(address: 0x76, [0xCF, 0x01, 0x02, 0x03])
        #expect(device[0xCF] == 0x01)
        #expect(device[0xD0] == 0x60, "the chip id did not change")
        #expect(device[0xD1] == 0x03, "the pointer moved on past it")
    }

    @Test func testRegisterFile_BME280Pairs_WriteWithoutAutoIncrement() throws {
        var bus = SimulatedI2CBus()
        var writes: [String] = []
        let device = RegisterFile(writeMode: .registerDataPairs)
        device.onRegisterWrite = { register, value in writes.append("\(register)=\(value)") }
        bus.attach(device, at: 0x76)
        try bus.write(address: 0x76, [0xF5, 0xA0, 0xF2, 0x01, 0xF4, 0x27])  // config, ctrl_hum, ctrl_meas
        #expect(device[0xF5] == 0xA0 && device[0xF2] == 0x01 && device[0xF4] == 0x27)
        #expect(device[0xF6] == 0, "no auto-increment on writes (BME280 §6.2.1)")
        #expect(writes == ["245=160", "242=1", "244=39"])
        #expect(try bus.readRegister(address: 0x76, 0xF4) == 0x27)
    }

    @Test func testRegisterFile_PowerOnContent_ComesBackOnReset() throws {
        var bus = SimulatedI2CBus()
        let calibration: [UInt8] = [0x70, 0x6B, 0x43, 0x67]
        let device = RegisterFile(powerOn: RegisterFile.block(at: 0x88, calibration).merging([0xD0: 0x60]) { a, _ in a })
        bus.attach(device, at: 0x76)
        device[0xFA] = 0x80  // the sensor side puts a measurement there
        try bus.write(address: 0x76, [0x88, 0, 0])
        device.powerOnReset()
        #expect(device.registers[0x88...0x8B] == ArraySlice(calibration))
        #expect(device[0xFA] == 0 && device.pointer == 0)
    }
}
