#if Hardware
import CLinuxHardware
import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

/// A scripted libi2c: records each SMBus call; the next calls of a name fail with queued errno.
final class ScriptedSMBusCalls: SMBusCalls, @unchecked Sendable {
    enum Call: ScriptedCall {
        case readByteData(CInt, UInt8), writeByteData(CInt, UInt8, UInt8), readI2CBlockData(CInt, UInt8, UInt8)
    }

    private var script = CallScript<Call>()
    var calls: [Call] { script.calls }
    /// The device's registers from 0.
    var registers: [UInt8] = (0..<64).map { UInt8($0) &* 3 }
    /// Bytes a block read reports, if not the length asked for.
    var shortBlock: CInt?

    func fail(_ name: String, with errnos: Int32...) { script.fail(name, with: errnos) }

    private func failing(_ call: Call) -> Bool { script.failing(call) }

    func readByteData(_ fd: CInt, _ register: UInt8) -> CInt {
        failing(.readByteData(fd, register)) ? -1 : CInt(registers[Int(register)])
    }
    func writeByteData(_ fd: CInt, _ register: UInt8, _ value: UInt8) -> CInt {
        if failing(.writeByteData(fd, register, value)) { return -1 }
        registers[Int(register)] = value
        return 0
    }
    func readI2CBlockData(_ fd: CInt, _ register: UInt8, _ length: UInt8, _ values: UnsafeMutablePointer<UInt8>) -> CInt {
        if failing(.readI2CBlockData(fd, register, length)) { return -1 }
        for i in 0..<Int(length) { values[i] = registers[Int(register) + i] }
        return shortBlock ?? CInt(length)
    }
}

/// `SMBus` through the scripted libi2c, and the shim's libi2c half on a real descriptor.
@Suite struct GPIOShimSMBusTests {
    static let fd = FileDescriptor(rawValue: 5)

    /// A block read into a fresh buffer. (Not through `Array.withUnsafeMutableBytes`: passing it a
    /// `throws(I2CError)` closure crashes Swift 6.3.1's IRGen in the reabstraction thunk.)
    static func readBlock<C>(_ bus: SMBus<C>, register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { raw.deallocate() }
        try bus.readBlock(register: register, into: raw)
        return Array(raw)
    }

    @Test func byteAccessMakesOneCallEach() throws {
        let calls = ScriptedSMBusCalls()
        let bus = SMBus(descriptor: Self.fd, calls: calls)
        #expect(try bus.readByte(register: 0x10) == 0x30)
        try bus.writeByte(register: 0x2F, 0xB6)
        #expect(calls.calls == [.readByteData(5, 0x10), .writeByteData(5, 0x2F, 0xB6)])
        #expect(calls.registers[0x2F] == 0xB6)
    }

    @Test func blockReadFillsTheBufferInOneCall() throws {
        let calls = ScriptedSMBusCalls()
        let bus = SMBus(descriptor: Self.fd, calls: calls)
        let out = try Self.readBlock(bus, register: 0x08, count: 26)
        #expect(out == (8..<34).map { UInt8($0 * 3) })
        #expect(calls.calls == [.readI2CBlockData(5, 0x08, 26)])
    }

    @Test(arguments: [0, 33])
    func blocksAreOneToThirtyTwoBytes(count: Int) {
        let calls = ScriptedSMBusCalls()
        let bus = SMBus(descriptor: Self.fd, calls: calls)
        #expect(throws: I2CError(.other, errno: .invalidArgument)) {
            try Self.readBlock(bus, register: 0, count: count)
        }
        #expect(calls.calls.isEmpty)
    }

    @Test func aShortBlockIsAnError() {
        let calls = ScriptedSMBusCalls()
        calls.shortBlock = 3
        let bus = SMBus(descriptor: Self.fd, calls: calls)
        #expect(throws: I2CError(.other)) { try Self.readBlock(bus, register: 0, count: 6) }
    }

    /// Documentation/i2c/fault-codes.rst, plus EREMOTEIO from the Pi's i2c-bcm2835; ENODEV,
    /// ESHUTDOWN and EOPNOTSUPP are the adapter gone (I2CError+Errno.swift: a USB adapter
    /// unplugged, as measured on a real kernel in the virtual board).
    @Test(arguments: [
        (ENXIO, I2CError.Kind.noAcknowledge(.address)), (EREMOTEIO, .noAcknowledge(.unknown)),
        (EAGAIN, .arbitrationLoss), (ETIMEDOUT, .timeout),
        (EIO, .bus), (EBUSY, .bus), (ESHUTDOWN, .adapterGone), (ENODEV, .adapterGone),
        (EPROTO, .other), (EBADMSG, .other), (EOPNOTSUPP, .adapterGone), (ENOTTY, .other),
    ])
    func errnoMapsToKind(errno: Int32, kind: I2CError.Kind) {
        let calls = ScriptedSMBusCalls()
        calls.fail("readByteData", with: errno)
        calls.fail("writeByteData", with: errno)
        calls.fail("readI2CBlockData", with: errno)
        let bus = SMBus(descriptor: Self.fd, calls: calls)
        let expected = I2CError(kind, errno: Errno(rawValue: errno))
        #expect(throws: expected) { try bus.readByte(register: 0) }
        #expect(throws: expected) { try bus.writeByte(register: 0, 1) }
        #expect(throws: expected) { try Self.readBlock(bus, register: 0, count: 2) }
    }

    @Test func eintrIsRetried() throws {
        let calls = ScriptedSMBusCalls()
        calls.fail("readByteData", with: EINTR, EINTR, EINTR)
        let bus = SMBus(descriptor: Self.fd, calls: calls)
        #expect(try bus.readByte(register: 1) == 3)
        #expect(calls.calls == Array(repeating: .readByteData(5, 1), count: 4))
    }

    /// libi2c 4.3 returns -ENOTTY (-25) for an ioctl on /dev/null; the shim turns it into -1 and
    /// errno, which `SMBus` reports with its errno intact.
    @Test func theRealLibi2cErrorBecomesErrno() throws {
        let null = try FileDescriptor.open("/dev/null", .readWrite)
        defer { try? null.close() }
        Glibc.errno = 0
        #expect(th_smbus_write_byte_data(null.rawValue, 0x00, 0xAE) == -1)
        #expect(Glibc.errno == ENOTTY)
        Glibc.errno = 0
        var block = [UInt8](repeating: 0, count: 33)
        #expect(th_smbus_read_i2c_block_data(null.rawValue, 0, 33, &block) == -1)
        #expect(Glibc.errno == EINVAL)
        let bus = SMBus(descriptor: null)
        #expect(throws: I2CError(.other, errno: Errno(rawValue: ENOTTY))) { try bus.readByte(register: 0xD0) }
    }
}
#else
import Testing

@Suite struct GPIOShimSMBusTests {
    @Test(.disabled("built without the Hardware trait")) func requiresTheHardwareTrait() {}
}
#endif
