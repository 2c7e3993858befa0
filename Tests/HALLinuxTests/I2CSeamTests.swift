import CLinuxHAL
import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

@Suite struct I2CSeamTests {
    @Test func writeSelectsAddressOnceThenWrites() throws {
        let calls = ScriptedSystemCalls()
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        try bus.write(address: 0x3C, [0x00, 0xAE])
        try bus.write(address: 0x3C, [0x40, 0xFF])
        try bus.write(address: 0x27, [0x08])
        #expect(calls.calls == [
            .open("/dev/i2c-1", O_RDWR | O_CLOEXEC),
            .ioctl(7, TH_I2C_SLAVE, 0x3C), .write(7, [0x00, 0xAE]),
            .write(7, [0x40, 0xFF]),
            .ioctl(7, TH_I2C_SLAVE, 0x27), .write(7, [0x08]),
        ])
    }

    @Test func registerReadIsOneRDWRWithRepeatedStart() throws {
        let calls = ScriptedSystemCalls()
        var seen: [(addr: UInt16, flags: UInt16, len: UInt16, first: UInt8?)] = []
        calls.ioctlBehaviour = { request, argument in
            guard request == TH_I2C_RDWR, let argument else { return }
            let data = argument.assumingMemoryBound(to: th_i2c_rdwr.self).pointee
            for i in 0..<Int(data.nmsgs) {
                let m = data.msgs[i]
                seen.append((m.addr, m.flags, m.len, m.flags == 0 ? m.buf.pointee : nil))
                if m.flags & TH_I2C_M_RD != 0 { m.buf.pointee = 0x60 }  // the BME280's chip id
            }
        }
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        let id = try bus.readRegister(address: 0x76, 0xD0)
        #expect(id == 0x60)
        #expect(calls.names("ioctl").count == 1)
        #expect(seen.count == 2)
        #expect(seen[0].addr == 0x76 && seen[0].flags == 0 && seen[0].len == 1 && seen[0].first == 0xD0)
        #expect(seen[1].addr == 0x76 && seen[1].flags == TH_I2C_M_RD && seen[1].len == 1)
        #expect(calls.names("write").isEmpty)
    }

    /// The errno table alone: fault-codes.rst's kinds, and the adapter's own absence
    /// (EOPNOTSUPP from i2c-dev's functionality check, ENODEV and ESHUTDOWN from USB core).
    @Test(arguments: [
        (ENXIO, I2CError.Kind.noAcknowledge(.address)),
        (EREMOTEIO, .noAcknowledge(.unknown)),
        (EAGAIN, .arbitrationLoss),
        (ETIMEDOUT, .timeout),
        (EIO, .bus),
        (EBUSY, .bus),
        (ENODEV, .adapterGone),
        (ESHUTDOWN, .adapterGone),
        (EOPNOTSUPP, .adapterGone),
        (EPROTO, .other),
        (EINVAL, .other),
    ])
    func errnoTable(errno: Int32, kind: I2CError.Kind) {
        #expect(I2CError(transferErrno: Errno(rawValue: errno)) == I2CError(kind, errno: Errno(rawValue: errno)))
    }

    /// On an adapter that is there (`I2C_FUNCS` answers what it can do): EOPNOTSUPP is the
    /// adapter refusing this transfer (SMBus-only, a quirk), not its absence.
    @Test(arguments: [
        (ENXIO, I2CError.Kind.noAcknowledge(.address)),
        (EREMOTEIO, .noAcknowledge(.unknown)),
        (EAGAIN, .arbitrationLoss),
        (ETIMEDOUT, .timeout),
        (EIO, .bus),
        (EBUSY, .bus),
        (ENODEV, .adapterGone),
        (ESHUTDOWN, .adapterGone),
        (EPROTO, .other),
        (EINVAL, .other),
        (EOPNOTSUPP, .other),
    ])
    func transferErrnoMapsToKind(errno: Int32, kind: I2CError.Kind) throws {
        for reads in [false, true] {
            let calls = ScriptedSystemCalls()
            calls.ioctlBehaviour = Self.adapterAnswers(functions: UInt(I2C_FUNC_I2C))
            var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
            calls.fail(reads ? "ioctl" : "write", with: errno)
            #expect(throws: I2CError(kind, errno: Errno(rawValue: errno))) {
                if reads { _ = try bus.readRegister(address: 0x76, 0xD0) } else { try bus.write(address: 0x3C, [0, 0xAF]) }
            }
        }
    }

    /// What an unplugged i2c-tiny-usb does to a descriptor still open on it (kernel 7.3):
    /// EOPNOTSUPP, and `I2C_FUNCS` answers 0 (`usb_func` cannot ask the device).
    @Test func unpluggedAdapterIsGone() throws {
        for reads in [false, true] {
            let calls = ScriptedSystemCalls()
            calls.ioctlBehaviour = Self.adapterAnswers(functions: 0)
            var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
            calls.fail(reads ? "ioctl" : "write", with: EOPNOTSUPP)
            #expect(throws: I2CError(.adapterGone, errno: Errno(rawValue: EOPNOTSUPP))) {
                if reads { _ = try bus.readRegister(address: 0x76, 0xD0) } else { try bus.write(address: 0x3C, [0, 0xAF]) }
            }
            guard case .ioctl(7, let request, _)? = calls.names("ioctl").last else {
                Issue.record("I2C_FUNCS was not asked")
                continue
            }
            #expect(request == TH_I2C_FUNCS)
        }
    }

    /// EIO where the adapter cannot say what it can do (an SMBus call emulated over an unplugged
    /// USB adapter; `I2C_FUNCS` refused with ENODEV by a kernel that marks the descriptor dead).
    @Test func busErrorOnAnAdapterThatCannotAnswerIsGone() throws {
        let calls = ScriptedSystemCalls()
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        calls.fail("ioctl", with: EIO, ENODEV)  // I2C_RDWR, then I2C_FUNCS
        #expect(throws: I2CError(.adapterGone, errno: .ioError)) { _ = try bus.readRegister(address: 0x76, 0xD0) }
    }

    @Test func closeGivesTheDescriptorBackOnce() throws {
        let calls = ScriptedSystemCalls()
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        bus.close()
        bus.close()
        #expect(calls.names("close") == [.close(7)])
        var closed = bus
        #expect(throws: I2CError(.adapterGone)) { try closed.write(address: 0x3C, [0]) }
        #expect(calls.names("write").isEmpty)
    }

    static func adapterAnswers(functions: UInt) -> (UInt, UnsafeMutableRawPointer?) -> Void {
        { request, argument in
            if request == TH_I2C_FUNCS { argument?.storeBytes(of: functions, as: UInt.self) }
        }
    }

    @Test func transferRetriesEINTR() throws {
        let calls = ScriptedSystemCalls()
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        try bus.write(address: 0x3C, [0x00])  // selects the address
        calls.fail("write", with: EINTR, EINTR, EINTR)
        try bus.write(address: 0x3C, [0x00, 0xAF])
        #expect(calls.names("write").count == 5)
    }

    @Test func shortWriteIsADataNACK() throws {
        let calls = ScriptedSystemCalls()
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        calls.shortWrite = 1
        #expect(throws: I2CError(.noAcknowledge(.data))) { try bus.write(address: 0x3C, [0x40, 1, 2, 3]) }
    }

    @Test func oversizedPayloadIsRefusedNotClamped() throws {
        let calls = ScriptedSystemCalls()
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        try bus.write(address: 0x3C, [UInt8](repeating: 0, count: 8192))
        #expect(throws: I2CError(.other, errno: .messageTooLong)) {
            try bus.write(address: 0x3C, [UInt8](repeating: 0, count: 8193))
        }
        #expect(calls.names("write").count == 1)
    }

    @Test func addressOwnedByKernelDriverIsReported() throws {
        let calls = ScriptedSystemCalls()
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", usesSMBusForRegisters: false, calls: calls)
        calls.fail("ioctl", with: EBUSY)
        #expect(throws: I2CError(.other, errno: .resourceBusy)) { try bus.write(address: 0x3C, [0]) }
        // Not remembered as selected: the next write asks again.
        try bus.write(address: 0x3C, [0])
        #expect(calls.names("ioctl").count == 2)
    }

    /// No node (or a node with no adapter behind it) is the adapter not being there; a node
    /// this user may not open is a configuration problem.
    @Test(arguments: [
        (ENOENT, I2CError.Kind.adapterGone), (ENODEV, .adapterGone), (ENXIO, .adapterGone),
        (EACCES, .other), (EPERM, .other),
    ])
    func openErrnoMapsToKind(errno: Int32, kind: I2CError.Kind) {
        let calls = ScriptedSystemCalls()
        calls.fail("open", with: errno)
        #expect(throws: I2CError(kind, errno: Errno(rawValue: errno))) {
            _ = try LinuxI2CBus(path: "/dev/i2c-9", calls: calls)
        }
    }
}

#if Hardware
/// With the Hardware trait, short register reads go through libi2c's SMBus block read. The
/// descriptor is /dev/null: the scripted I2C_SLAVE succeeds, and libi2c's real ioctl then
/// fails with ENOTTY, which proves the read took the SMBus path (a scripted I2C_RDWR would
/// have succeeded).
@Suite struct I2CSMBusPathTests {
    @Test func shortRegisterReadUsesSMBus() throws {
        let null = open("/dev/null", O_RDWR)  // the bus owns it from here and closes it
        let calls = ScriptedSystemCalls()
        calls.nextDescriptor = null
        var bus = try LinuxI2CBus(path: "/dev/i2c-1", calls: calls)
        #expect(throws: I2CError(.other, errno: .inappropriateIOCTLForDevice)) {
            _ = try bus.readRegister(address: 0x76, 0xD0)
        }
        #expect(calls.names("ioctl") == [.ioctl(null, TH_I2C_SLAVE, 0x76)])
        // 33 bytes is past the SMBus block limit: one I2C_RDWR instead.
        var block = [UInt8](repeating: 0, count: 33)
        try block.withUnsafeMutableBytes { try bus.readRegisters(address: 0x76, register: 0x88, into: $0) }
        guard case .ioctl(null, let request, _) = calls.names("ioctl").last else {
            Issue.record("expected an ioctl")
            return
        }
        #expect(request == TH_I2C_RDWR)
    }
}
#endif
