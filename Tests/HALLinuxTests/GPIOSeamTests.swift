#if Hardware
import CLinuxHardware
import HAL
@testable import HALLinux
import SystemPackage
import Testing

/// `LinuxDigitalInputs` through the scripted GPIO shim: which shim calls, with which arguments,
/// and how the shim's edge records become `Edge`s.
@Suite struct GPIOSeamTests {
    @Test func requestByLabelMakesTheExactShimCalls() throws {
        let driver = ScriptedGPIODriver()
        let inputs = try LinuxDigitalInputs(
            chip: .label("pinctrl-bcm2711"), lines: [.name("GPIO17"), .offset(27), .name("GPIO22")],
            bias: .pullUp, consumer: "weatherd", driver: driver)
        #expect(driver.calls == [
            .chipOpenLabel(directory: "/dev", label: "pinctrl-bcm2711"),
            .chipLineCount,
            .chipFindLine("GPIO17"),
            .chipFindLine("GPIO22"),
            .requestInputs(offsets: [17, 27, 22], bias: TH_GPIO_BIAS_PULL_UP, consumer: "weatherd"),
            // The request outlives its chip (gpio-v2-get-line-ioctl.rst): one descriptor fewer.
            .chipClose,
            .requestDescriptor,
        ])
        #expect(inputs.pollDescriptor == FileDescriptor(rawValue: 40))
        #expect(inputs.lineCount == 3)
    }

    @Test func withoutAChipTheFirstLineNameFindsIt() throws {
        let driver = ScriptedGPIODriver()
        driver.descriptor = 9
        let inputs = try LinuxDigitalInputs(
            chip: nil, lines: [.name("GPIO27"), .name("GPIO17")], bias: .asIs,
            deviceDirectory: "/tmp/devices", driver: driver)
        #expect(driver.calls == [
            .chipOpenLineName(directory: "/tmp/devices", name: "GPIO27"),
            .chipLineCount,
            .chipFindLine("GPIO17"),
            .requestInputs(offsets: [27, 17], bias: TH_GPIO_BIAS_AS_IS, consumer: "thunderstorm"),
            .chipClose,
            .requestDescriptor,
        ])
        #expect(inputs.pollDescriptor == FileDescriptor(rawValue: 9))
    }

    @Test func chipByPath() throws {
        let driver = ScriptedGPIODriver()
        _ = try LinuxDigitalInputs(chip: .path("/dev/gpio-buttons"), lines: [.offset(4)], bias: .pullDown, driver: driver)
        #expect(driver.calls.first == .chipOpenPath("/dev/gpio-buttons"))
        #expect(driver.names("requestInputs") == [.requestInputs(offsets: [4], bias: TH_GPIO_BIAS_PULL_DOWN, consumer: "thunderstorm")])
    }

    @Test(arguments: [
        (Bias.asIs, TH_GPIO_BIAS_AS_IS), (.disabled, TH_GPIO_BIAS_DISABLED),
        (.pullUp, TH_GPIO_BIAS_PULL_UP), (.pullDown, TH_GPIO_BIAS_PULL_DOWN),
    ])
    func biasIsPassedThrough(bias: Bias, shim: th_gpio_bias) throws {
        let driver = ScriptedGPIODriver()
        _ = try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: bias, driver: driver)
        #expect(driver.names("requestInputs") == [.requestInputs(offsets: [17], bias: shim, consumer: "thunderstorm")])
    }

    @Test func closeReleasesTheLinesOnce() throws {
        let driver = ScriptedGPIODriver()
        let inputs = try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, driver: driver)
        #expect(driver.names("chipClose").count == 1)
        inputs.close()
        inputs.close()
        #expect(driver.calls.last == .requestRelease)
        #expect(driver.names("requestRelease").count == 1)
        #expect(driver.names("chipClose").count == 1)
        #expect(inputs.pollDescriptor == nil)
    }

    @Test func deinitReleasesTheLines() throws {
        let driver = ScriptedGPIODriver()
        do {
            _ = try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, driver: driver)
        }
        #expect(driver.calls.last == .requestRelease)
    }

    @Test func edgesAreDecodedWithLineIndexDirectionKernelTimeAndNumbers() throws {
        let driver = ScriptedGPIODriver()
        driver.pendingEdges = [
            .falling(0, at: 1_000, seqno: 1, lineSeqno: 1), .rising(2, at: 2_500_000_123, seqno: 5, lineSeqno: 2),
            .falling(1, at: 9_000_000_000_000, seqno: UInt32.max, lineSeqno: 70_000),
        ]
        let inputs = try LinuxDigitalInputs(
            chip: .label("pinctrl-rp1"), lines: [.offset(17), .offset(27), .offset(22)], bias: .pullUp, driver: driver)
        let buffer = UnsafeMutableBufferPointer<Edge>.allocate(capacity: 8)
        defer { buffer.deallocate() }
        let n = try inputs.readEdges(into: buffer)
        #expect(n == 3)
        #expect(Array(buffer.prefix(n)) == [
            Edge(line: 0, direction: .falling, time: Instant(nanoseconds: 1_000), sequence: EdgeSequence(request: 1, line: 1)),
            Edge(line: 2, direction: .rising, time: Instant(nanoseconds: 2_500_000_123), sequence: EdgeSequence(request: 5, line: 2)),
            Edge(
                line: 1, direction: .falling, time: Instant(nanoseconds: 9_000_000_000_000),
                sequence: EdgeSequence(request: UInt32.max, line: 70_000)),
        ])
        #expect(try inputs.readEdges(into: buffer) == 0)
    }

    @Test func aSmallBufferIsFilledAcrossCallsWithoutLoss() throws {
        let driver = ScriptedGPIODriver()
        driver.pendingEdges = (0..<5).map { .rising(0, at: UInt64($0)) }
        let inputs = try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, driver: driver)
        let buffer = UnsafeMutableBufferPointer<Edge>.allocate(capacity: 2)
        defer { buffer.deallocate() }
        var times: [Int64] = []
        while case let n = try inputs.readEdges(into: buffer), n > 0 {
            times += buffer.prefix(n).map(\.time.nanoseconds)
        }
        #expect(times == [0, 1, 2, 3, 4])
    }

    @Test func aLargeBufferIsFilledInBatches() throws {
        let driver = ScriptedGPIODriver()
        driver.pendingEdges = (0..<70).map { .falling(0, at: UInt64($0)) }
        let inputs = try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, driver: driver)
        let buffer = UnsafeMutableBufferPointer<Edge>.allocate(capacity: 100)
        defer { buffer.deallocate() }
        #expect(try inputs.readEdges(into: buffer) == 70)
        #expect(driver.names("requestReadEdges") == [.requestReadEdges(capacity: 64), .requestReadEdges(capacity: 36)])
    }

    @Test func levelsAreTheShimsMask() throws {
        let driver = ScriptedGPIODriver()
        driver.values = 0b101
        let inputs = try LinuxDigitalInputs(
            chip: .label("pinctrl-rp1"), lines: [.offset(17), .offset(27), .offset(22)], bias: .pullUp, driver: driver)
        #expect(try inputs.levels() == 0b101)
        #expect(driver.names("requestGetValues").count == 1)
    }

    @Test func anOffsetPastTheChipIsNoLineAndClosesTheChip() {
        let driver = ScriptedGPIODriver()
        driver.lineCount = 28
        #expect(throws: GPIOError(.noLine)) {
            try LinuxDigitalInputs(chip: .label("pinctrl-bcm2835"), lines: [.offset(28)], bias: .pullUp, driver: driver)
        }
        #expect(driver.names("requestInputs").isEmpty)
        #expect(driver.calls.last == .chipClose)
    }

    @Test func offsetsNeedAChip() {
        let driver = ScriptedGPIODriver()
        #expect(throws: GPIOError(.noChip)) {
            try LinuxDigitalInputs(chip: nil, lines: [.offset(17)], bias: .pullUp, driver: driver)
        }
        #expect(driver.calls.isEmpty)
    }

    @Test(arguments: [0, 33])
    func oneToThirtyTwoLines(count: Int) {
        let driver = ScriptedGPIODriver()
        #expect(throws: GPIOError(.unsupported, errno: .invalidArgument)) {
            try LinuxDigitalInputs(
                chip: .label("pinctrl-rp1"), lines: (0..<count).map { .offset(UInt32($0)) }, bias: .pullUp, driver: driver)
        }
        #expect(driver.calls.isEmpty)
    }
}
#else
import Testing

@Suite struct GPIOSeamTests {
    @Test(.disabled("built without the Hardware trait")) func requiresTheHardwareTrait() {}
}
#endif
