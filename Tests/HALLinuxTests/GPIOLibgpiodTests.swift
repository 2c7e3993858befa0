#if Hardware
import CLinuxHAL
import CLinuxHardware
import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

/// The real libgpiod 1.6 behind the shim, without GPIO hardware: the uAPI v1 records the kernel
/// writes to a line-event descriptor (`struct gpioevent_data` from <linux/gpio.h>) are written
/// into a pipe and read back through `th_gpio_v1_read_event_fd`, which is what a request's
/// reads call per line and which calls `gpiod_line_event_read_fd_multiple`.
@Suite struct GPIOLibgpiodTests {
    /// A non-blocking pipe holding `records`; returns (read end, write end).
    static func pipe(with records: [gpioevent_data], extra: [UInt8] = []) throws -> (CInt, CInt) {
        var fds: [CInt] = [-1, -1]
        try #require(Glibc.pipe(&fds) == 0)
        try #require(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK) == 0)
        let bytes = records.withUnsafeBytes { Array($0) } + extra
        try #require(bytes.withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) } == bytes.count)
        return (fds[0], fds[1])
    }

    static func record(_ ns: UInt64, _ id: Int32) -> gpioevent_data {
        gpioevent_data(timestamp: ns, id: UInt32(id))
    }

    /// Reads once through the shim; (result, errno).
    static func read(_ fd: CInt, line: UInt32 = 0, into edges: inout [th_gpio_edge]) -> (Int, Int32) {
        Glibc.errno = 0
        let n = edges.withUnsafeMutableBufferPointer { th_gpio_v1_read_event_fd(fd, line, $0.baseAddress, $0.count) }
        return (n, Glibc.errno)
    }

    @Test func theShimIsBuiltAgainstLibgpiod16() {
        #expect(LibgpiodDriver.api == 1)
        #expect(LibgpiodDriver.version.hasPrefix("1.6."), "libgpiod \(LibgpiodDriver.version)")
    }

    @Test func biasBecomesLibgpiod16RequestFlags() {
        // GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE/_PULL_DOWN/_PULL_UP = GPIOD_BIT(3)/(4)/(5) in gpiod.h 1.6.
        #expect(th_gpio_bias_library_value(TH_GPIO_BIAS_AS_IS) == 0)
        #expect(th_gpio_bias_library_value(TH_GPIO_BIAS_DISABLED) == 1 << 3)
        #expect(th_gpio_bias_library_value(TH_GPIO_BIAS_PULL_DOWN) == 1 << 4)
        #expect(th_gpio_bias_library_value(TH_GPIO_BIAS_PULL_UP) == 1 << 5)
    }

    @Test func kernelEventRecordsAreDecoded() throws {
        #expect(MemoryLayout<gpioevent_data>.stride == 16)
        let (r, w) = try Self.pipe(with: [
            Self.record(1_000_000_123, GPIOEVENT_EVENT_FALLING_EDGE),
            Self.record(1_020_000_456, GPIOEVENT_EVENT_RISING_EDGE),
            Self.record(86_400_000_000_789, GPIOEVENT_EVENT_FALLING_EDGE),
        ])
        defer { close(r); close(w) }
        var edges = [th_gpio_edge](repeating: th_gpio_edge(), count: Int(TH_GPIO_V1_EVENT_BATCH))
        let (n, _) = Self.read(r, line: 2, into: &edges)
        #expect(n == 3)
        #expect(edges[0].line == 2 && edges[1].line == 2 && edges[2].line == 2)
        #expect(edges.prefix(3).map(\.type) == [TH_GPIO_EDGE_FALLING, TH_GPIO_EDGE_RISING, TH_GPIO_EDGE_FALLING].map(UInt32.init))
        #expect(edges.prefix(3).map(\.timestamp_ns) == [1_000_000_123, 1_020_000_456, 86_400_000_000_789])
    }

    @Test func anEmptyDescriptorHasNothingPending() throws {
        let (r, w) = try Self.pipe(with: [])
        defer { close(r); close(w) }
        var edges = [th_gpio_edge](repeating: th_gpio_edge(), count: 16)
        #expect(Self.read(r, into: &edges).0 == 0)
    }

    @Test func aTruncatedRecordIsEIO() throws {
        let (r, w) = try Self.pipe(with: [], extra: [1, 2, 3, 4, 5, 6, 7, 8])
        defer { close(r); close(w) }
        var edges = [th_gpio_edge](repeating: th_gpio_edge(), count: 16)
        let (n, error) = Self.read(r, into: &edges)
        #expect(n == -1 && error == EIO)
    }

    @Test func lessRoomThanTheKernelFIFOIsRefused() throws {
        let (r, w) = try Self.pipe(with: [Self.record(5, GPIOEVENT_EVENT_RISING_EDGE)])
        defer { close(r); close(w) }
        var edges = [th_gpio_edge](repeating: th_gpio_edge(), count: 15)
        let (n, error) = Self.read(r, into: &edges)
        #expect(n == -1 && error == EINVAL)
    }

    /// libgpiod 1.6 reads up to 16 records per call whatever it is asked for and drops what does
    /// not fit; the shim always asks for 16, so 20 queued edges arrive as 16 then 4.
    @Test func noEdgeIsLostAcrossBatches() throws {
        let records = (0..<20).map { Self.record(UInt64(100 + $0), $0 % 2 == 0 ? GPIOEVENT_EVENT_FALLING_EDGE : GPIOEVENT_EVENT_RISING_EDGE) }
        let (r, w) = try Self.pipe(with: records)
        defer { close(r); close(w) }
        var edges = [th_gpio_edge](repeating: th_gpio_edge(), count: 16)
        var seen: [UInt64] = []
        for _ in 0..<3 {
            let (n, _) = Self.read(r, into: &edges)
            seen += edges.prefix(max(n, 0)).map(\.timestamp_ns)
        }
        #expect(seen == (0..<20).map { UInt64(100 + $0) })
    }

    @Test func aMissingChipPathIsNoChip() {
        #expect(throws: GPIOError(.noChip, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(chip: .path("/nonexistent/gpiochip0"), lines: [.offset(17)], bias: .pullUp)
        }
    }

    @Test func aDeviceThatIsNotAGpiochipIsNoChip() {
        #expect(throws: GPIOError(.noChip, errno: Errno(rawValue: ENOTTY))) {
            try LinuxDigitalInputs(chip: .path("/dev/null"), lines: [.offset(17)], bias: .pullUp)
        }
    }

    /// A directory with a "gpiochip0" that is not a chip: the scan skips it and reports ENOENT.
    @Test func labelsAndLineNamesThatNoChipHas() throws {
        var template = Array("/tmp/thunderstorm-gpio-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
        let dir = try #require(made)
        let fake = dir + "/gpiochip0"
        let fd = try FileDescriptor.open(fake, .writeOnly, options: .create, permissions: .ownerReadWrite)
        try fd.close()
        defer { unlink(fake); rmdir(dir) }
        #expect(throws: GPIOError(.noChip, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, deviceDirectory: dir)
        }
        #expect(throws: GPIOError(.noLine, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(chip: nil, lines: [.name("GPIO17")], bias: .pullUp, deviceDirectory: dir)
        }
    }
}
#else
import Testing

@Suite struct GPIOLibgpiodTests {
    @Test(.disabled("built without the Hardware trait")) func requiresTheHardwareTrait() {}
}
#endif
