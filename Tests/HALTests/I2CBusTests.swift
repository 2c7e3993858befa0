import HAL
import Testing

/// A bus that records transactions and answers reads from a fixed register map: enough to
/// check that the protocol's conveniences turn into the transactions they promise.
private struct RecordingBus: I2CBus {
    var transactions: [(address: UInt8, write: [UInt8], readCount: Int)] = []
    var registers: [UInt8] = Array(0...255)

    mutating func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        transactions.append((address, Array(write), read.count))
        guard address == 0x76 else { throw I2CError(.noAcknowledge(.address)) }
        if let start = write.first {
            for i in 0..<read.count { read[i] = registers[(Int(start) + i) % 256] }
        }
    }
}

@Suite struct I2CBusConvenienceTests {
    @Test func readRegisterIsOneWriteThenReadTransaction() throws {
        var bus = RecordingBus()
        #expect(try bus.readRegister(address: 0x76, 0xD0) == 0xD0)
        #expect(bus.transactions.count == 1)
        #expect(bus.transactions[0].write == [0xD0] && bus.transactions[0].readCount == 1)
    }

    @Test func readRegistersFillsTheBuffer() throws {
        var bus = RecordingBus()
        var block = [UInt8](repeating: 0, count: 6)
        try block.withUnsafeMutableBytes { try bus.readRegisters(address: 0x76, register: 0xF7, into: $0) }
        #expect(block == [0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC])
    }

    @Test func writeRegisterSendsRegisterThenValue() throws {
        var bus = RecordingBus()
        try bus.writeRegister(address: 0x76, 0xF4, 0x25)
        #expect(bus.transactions[0].write == [0xF4, 0x25] && bus.transactions[0].readCount == 0)
    }

    @Test func errorsKeepTheirKind() {
        var bus = RecordingBus()
        let result = Result { () throws(I2CError) in try bus.write(address: 0x3C, [0x00, 0xAE]) }
        #expect(throws: I2CError(.noAcknowledge(.address))) { try result.get() }
    }

    @Test func transientKinds() {
        #expect(I2CError(.noAcknowledge(.unknown)).isTransient)
        #expect(I2CError(.timeout).isTransient)
        #expect(!I2CError(.other).isTransient)
        #expect(I2CError(.noAcknowledge(.address), errno: .init(rawValue: 6)).description.hasPrefix("no acknowledge of the address"))
    }
}
