#if Hardware
import CLinuxHardware
import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

/// The real shim over the GPIO character device's uAPI v2, without a gpiochip (none on this
/// machine): the request it would send, the edge records it decodes (written into a pipe as the
/// kernel writes them to a request descriptor), and its answers for files that are not chips.
@Suite struct GPIOKernelShimTests {
    /// A non-blocking pipe holding `bytes`; returns (read end, write end).
    static func pipe(with bytes: [UInt8]) throws -> (CInt, CInt) {
        var fds: [CInt] = [-1, -1]
        try #require(Glibc.pipe(&fds) == 0)
        try #require(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK) == 0)
        try #require(bytes.withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) } == bytes.count)
        return (fds[0], fds[1])
    }

    /// A record as linereq_read copies it out: the line's offset, rising or falling, the stamp.
    static func record(offset: UInt32, rising: Bool, at ns: UInt64, seqno: UInt32 = 1, lineSeqno: UInt32? = nil) -> [UInt8] {
        var event = gpio_v2_line_event()
        event.timestamp_ns = ns
        event.id = (rising ? GPIO_V2_LINE_EVENT_RISING_EDGE : GPIO_V2_LINE_EVENT_FALLING_EDGE).rawValue
        event.offset = offset
        event.seqno = seqno
        event.line_seqno = lineSeqno ?? seqno
        return withUnsafeBytes(of: event) { Array($0) }
    }

    /// Decodes from `fd` for a request of `offsets`; (result, errno, edges).
    static func read(_ fd: CInt, offsets: [UInt32], capacity: Int) -> (Int, Int32, [th_gpio_edge]) {
        var edges = [th_gpio_edge](repeating: th_gpio_edge(), count: max(capacity, 1))
        Glibc.errno = 0
        let n = offsets.withUnsafeBufferPointer { o in
            edges.withUnsafeMutableBufferPointer { th_gpio_read_edges_fd(fd, o.baseAddress, o.count, $0.baseAddress, capacity) }
        }
        return (n, Glibc.errno, Array(edges.prefix(max(n, 0))))
    }

    @Test func swiftSeesTheUAPILayout() {
        #expect(MemoryLayout<gpio_v2_line_event>.size == 48)
        #expect(MemoryLayout<gpio_v2_line_request>.size == 592)
        #expect(MemoryLayout<gpio_v2_line_request>.offset(of: \.fd) == 588)
        #expect(MemoryLayout<gpio_v2_line_info>.size == 256)
        #expect(MemoryLayout<gpio_v2_line_values>.size == 16)
        #expect(MemoryLayout<th_gpio_edge>.size == 24)
        #expect(MemoryLayout<gpio_v2_line_event>.offset(of: \.seqno) == 16)
        #expect(MemoryLayout<gpio_v2_line_event>.offset(of: \.line_seqno) == 20)
    }

    @Test func recordsBecomeEdgesInKernelOrderWithLineIndices() throws {
        let (r, w) = try Self.pipe(with:
            Self.record(offset: 27, rising: false, at: 1_000_000_123, seqno: 1)
            + Self.record(offset: 17, rising: true, at: 1_020_000_456, seqno: 2)
            + Self.record(offset: 22, rising: false, at: 86_400_000_000_789, seqno: 3))
        defer { close(r); close(w) }
        let (n, _, edges) = Self.read(r, offsets: [17, 27, 22], capacity: 8)
        #expect(n == 3)
        #expect(edges.map(\.line) == [1, 0, 2])
        #expect(edges.map(\.type) == [TH_GPIO_EDGE_FALLING, TH_GPIO_EDGE_RISING, TH_GPIO_EDGE_FALLING].map(UInt32.init))
        #expect(edges.map(\.timestamp_ns) == [1_000_000_123, 1_020_000_456, 86_400_000_000_789])
    }

    /// The kernel's two numbers come through as it wrote them, gaps and all: a request of two
    /// lines whose buffer dropped its oldest records (request numbers 1-3, line 17's 1-2 and line
    /// 27's 1) before these were read, and a number at the end of its 32-bit range.
    @Test func sequenceNumbersAreCopiedAsTheKernelWroteThem() throws {
        let (r, w) = try Self.pipe(with:
            Self.record(offset: 27, rising: true, at: 10, seqno: 4, lineSeqno: 2)
            + Self.record(offset: 17, rising: false, at: 20, seqno: 5, lineSeqno: 3)
            + Self.record(offset: 17, rising: true, at: 30, seqno: UInt32.max, lineSeqno: UInt32.max))
        defer { close(r); close(w) }
        let (n, _, edges) = Self.read(r, offsets: [17, 27], capacity: 8)
        #expect(n == 3)
        #expect(edges.map(\.line) == [1, 0, 0])
        #expect(edges.map(\.seqno) == [4, 5, UInt32.max])
        #expect(edges.map(\.line_seqno) == [2, 3, UInt32.max])
    }

    @Test func nothingPendingIsZeroNotAnError() throws {
        let (r, w) = try Self.pipe(with: [])
        defer { close(r); close(w) }
        #expect(Self.read(r, offsets: [17], capacity: 4).0 == 0)
        #expect(Self.read(r, offsets: [17], capacity: 0).0 == 0)
    }

    /// The kernel copies out as many whole records as fit: a smaller buffer leaves the rest
    /// queued, in order, for the next read.
    @Test func aSmallBufferLosesNothing() throws {
        let records = (0..<70).flatMap { Self.record(offset: 4, rising: $0 % 2 == 0, at: UInt64(100 + $0)) }
        let (r, w) = try Self.pipe(with: records)
        defer { close(r); close(w) }
        let first = Self.read(r, offsets: [4], capacity: 3)
        let batch = Self.read(r, offsets: [4], capacity: 100)
        let rest = Self.read(r, offsets: [4], capacity: 100)
        #expect([first.0, batch.0, rest.0] == [3, Int(TH_GPIO_READ_BATCH), 70 - 3 - Int(TH_GPIO_READ_BATCH)])
        #expect((first.2 + batch.2 + rest.2).map(\.timestamp_ns) == (0..<70).map { UInt64(100 + $0) })
    }

    @Test(arguments: [
        ("a partial record", Array(Self.record(offset: 4, rising: true, at: 5).prefix(40))),
        ("an offset that was not requested", Self.record(offset: 5, rising: true, at: 5)),
        ("an unknown event id", Array(Self.record(offset: 4, rising: true, at: 5).enumerated().map { $0.offset == 8 ? 7 : $0.element })),
    ])
    func whatTheKernelNeverWritesIsEIO(what: String, bytes: [UInt8]) throws {
        let (r, w) = try Self.pipe(with: bytes)
        defer { close(r); close(w) }
        let (n, error, _) = Self.read(r, offsets: [4], capacity: 4)
        #expect(n == -1 && error == EIO, "\(what)")
    }

    @Test(arguments: [
        (Bias.asIs, UInt64(0)), (.disabled, UInt64(GPIO_V2_LINE_FLAG_BIAS_DISABLED.rawValue)),
        (.pullUp, UInt64(GPIO_V2_LINE_FLAG_BIAS_PULL_UP.rawValue)),
        (.pullDown, UInt64(GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN.rawValue)),
    ])
    func theRequestFollowsTheConfigurationRules(bias: Bias, biasFlag: UInt64) throws {
        var request = gpio_v2_line_request()
        let offsets: [CUnsignedInt] = [17, 27, 22]
        #expect(th_gpio_line_request_init(&request, offsets, 3, bias.shimValue, 20_000, "thunderstorm") == 0)
        #expect(request.num_lines == 3)
        #expect(withUnsafeBytes(of: request.offsets) { Array($0.bindMemory(to: UInt32.self).prefix(4)) } == [17, 27, 22, 0])
        let input = [GPIO_V2_LINE_FLAG_INPUT, GPIO_V2_LINE_FLAG_EDGE_RISING, GPIO_V2_LINE_FLAG_EDGE_FALLING]
        #expect(request.config.flags == input.reduce(biasFlag) { $0 | UInt64($1.rawValue) })
        #expect(request.config.num_attrs == 1)
        #expect(request.config.attrs.0.attr.id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE.rawValue)
        #expect(request.config.attrs.0.attr.debounce_period_us == 20_000)
        #expect(request.config.attrs.0.mask == 0b111)
        #expect(withUnsafeBytes(of: request.consumer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } == "thunderstorm")
        // The kernel default of 16 events per line, and padding it requires to be zero.
        #expect(request.event_buffer_size == 0)
        #expect(withUnsafeBytes(of: request.padding) { $0.allSatisfy { $0 == 0 } })
        #expect(withUnsafeBytes(of: request.config.padding) { $0.allSatisfy { $0 == 0 } })
    }

    @Test func noDebounceNoAttributeAndALongConsumerIsCut() {
        var request = gpio_v2_line_request()
        let consumer = String(repeating: "x", count: 40)
        #expect(th_gpio_line_request_init(&request, [4], 1, TH_GPIO_BIAS_PULL_UP, 0, consumer) == 0)
        #expect(request.config.num_attrs == 0)
        let kept = withUnsafeBytes(of: request.consumer) { Array($0) }
        #expect(kept.prefix { $0 != 0 }.count == 31 && kept[31] == 0)
    }

    @Test(arguments: [
        ([CUnsignedInt](), TH_GPIO_BIAS_PULL_UP, EINVAL), (Array(0..<33), TH_GPIO_BIAS_PULL_UP, EINVAL),
        ([17, 27, 17], TH_GPIO_BIAS_PULL_UP, EBUSY), ([17], th_gpio_bias(rawValue: 9), EINVAL),
    ])
    func countsDuplicatesAndBiasAreCheckedFirst(offsets: [CUnsignedInt], bias: th_gpio_bias, expected: Int32) {
        var request = gpio_v2_line_request()
        Glibc.errno = 0
        #expect(th_gpio_line_request_init(&request, offsets, offsets.count, bias, 0, "t") == -1)
        #expect(Glibc.errno == expected)
    }

    @Test(arguments: ["/dev/null", "/", "/proc/self/stat"])
    func aFileThatIsNotAGpiochipIsENOTTY(path: String) {
        Glibc.errno = 0
        #expect(th_gpio_chip_open_path(path) == nil)
        #expect(Glibc.errno == ENOTTY)
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

    /// An empty directory, a missing one, and one with a "gpiochip0" that is not a chip (the
    /// scan skips it): no chip has the label, and no chip has the line.
    @Test func labelsAndLineNamesThatNoChipHas() throws {
        let dir = try TemporaryDirectory()
        for directory in [dir.path, dir.path + "/missing"] {
            #expect(throws: GPIOError(.noChip, errno: .noSuchFileOrDirectory)) {
                try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, deviceDirectory: directory)
            }
        }
        let fake = dir.path + "/gpiochip0"
        try FileDescriptor.open(fake, .writeOnly, options: .create, permissions: .ownerReadWrite).close()
        defer { unlink(fake) }
        #expect(throws: GPIOError(.noChip, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, deviceDirectory: dir.path)
        }
        #expect(throws: GPIOError(.noLine, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(chip: nil, lines: [.name("GPIO17")], bias: .pullUp, deviceDirectory: dir.path)
        }
    }
}
#else
import Testing

@Suite struct GPIOKernelShimTests {
    @Test(.disabled("built without the Hardware trait")) func requiresTheHardwareTrait() {}
}
#endif
