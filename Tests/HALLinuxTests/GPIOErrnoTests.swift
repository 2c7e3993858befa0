#if Hardware
import CLinuxHardware
import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

/// errno → `GPIOError.Kind` at every step, and EINTR retried, through the scripted GPIO shim.
@Suite struct GPIOErrnoTests {
    /// A shim call to fail and how to reach it.
    enum Step: String, CustomStringConvertible {
        case openLabel = "chipOpenLabel", openLineName = "chipOpenLineName", findLine = "chipFindLine"
        case request = "requestInputs", readEdges = "requestReadEdges", getValues = "requestGetValues"
        var description: String { rawValue }
    }

    /// Runs `step` once on a fresh driver whose first call of that name fails with `errnos`.
    static func run(_ step: Step, bias: Bias = .pullUp, failingWith errnos: [Int32]) throws(GPIOError) -> ScriptedGPIODriver {
        let driver = ScriptedGPIODriver()
        for e in errnos { driver.fail(step.rawValue, with: e) }
        let chip: GPIOChipSelector? = step == .openLineName ? nil : .label("pinctrl-bcm2711")
        let inputs = try LinuxDigitalInputs(chip: chip, lines: [.name("GPIO17")], bias: bias, driver: driver)
        switch step {
        case .readEdges:
            let buffer = UnsafeMutableBufferPointer<Edge>.allocate(capacity: 4)
            defer { buffer.deallocate() }
            _ = try inputs.readEdges(into: buffer)
        case .getValues:
            _ = try inputs.levels()
        default:
            break
        }
        return driver
    }

    @Test(arguments: [
        (Step.openLabel, ENOENT, GPIOError.Kind.noChip),
        (.openLabel, ENODEV, .noChip),
        (.openLabel, ENOTTY, .noChip),
        (.openLabel, ENXIO, .noChip),
        (.openLabel, EACCES, .permissionDenied),
        (.openLabel, EPERM, .permissionDenied),
        (.openLabel, EIO, .other),
        (.openLineName, ENOENT, .noLine),
        (.openLineName, EACCES, .permissionDenied),
        (.findLine, ENOENT, .noLine),
        (.findLine, ENODEV, .noChip),
        (.request, EBUSY, .busy),
        (.request, EACCES, .permissionDenied),
        (.request, EPERM, .permissionDenied),
        (.request, EINVAL, .unsupported),
        (.request, EOPNOTSUPP, .unsupported),
        (.request, ENODEV, .noChip),
        (.request, ENXIO, .unsupported),
        (.request, ENOENT, .noLine),
        (.request, ENOMEM, .other),
        (.readEdges, ENODEV, .noChip),
        (.readEdges, EIO, .other),
        (.getValues, ENODEV, .noChip),
        (.getValues, EIO, .other),
        (.getValues, EBUSY, .busy),
    ])
    func errnoMapsToKind(step: Step, errno: Int32, kind: GPIOError.Kind) {
        #expect(throws: GPIOError(kind, errno: Errno(rawValue: errno))) {
            _ = try Self.run(step, failingWith: [errno])
        }
    }

    /// A kernel before 5.10 answers GPIO_V2_GET_LINE_IOCTL with EINVAL whatever the bias.
    @Test(arguments: Bias.allCases)
    func einvalWhenRequestingIsUnsupportedWithAnyBias(bias: Bias) {
        #expect(throws: GPIOError(.unsupported, errno: .invalidArgument)) {
            _ = try Self.run(.request, bias: bias, failingWith: [EINVAL])
        }
    }

    @Test(arguments: [Step.findLine, .request])
    func aFailureAfterOpeningClosesTheChip(step: Step) {
        let driver = ScriptedGPIODriver()
        driver.fail(step.rawValue, with: EBUSY)
        #expect(throws: GPIOError.self) {
            try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.name("GPIO17")], bias: .pullUp, driver: driver)
        }
        #expect(driver.calls.last == .chipClose)
        #expect(driver.names("requestRelease").isEmpty)
    }

    @Test(arguments: [Step.openLabel, .openLineName, .findLine, .request, .readEdges, .getValues])
    func eintrIsRetried(step: Step) throws {
        let driver = try Self.run(step, failingWith: [EINTR, EINTR, EINTR])
        #expect(driver.names(step.rawValue).count == 4)
    }

    @Test func aReadFailureKeepsTheLinesRequested() throws {
        let driver = ScriptedGPIODriver()
        let inputs = try LinuxDigitalInputs(chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, driver: driver)
        driver.fail("requestGetValues", with: EIO)
        #expect(throws: GPIOError(.other, errno: .ioError)) { try inputs.levels() }
        driver.values = 1
        #expect(try inputs.levels() == 1)
        #expect(driver.names("requestRelease").isEmpty)
    }

    @Test func errnoTableMatchesTheStepDirectly() {
        #expect(GPIOError(gpioErrno: .noSuchFileOrDirectory, during: .openChip).kind == .noChip)
        #expect(GPIOError(gpioErrno: .noSuchFileOrDirectory, during: .findLine).kind == .noLine)
        #expect(GPIOError(gpioErrno: .operationNotSupportedByDevice, during: .io).kind == .noChip)
        #expect(GPIOError(gpioErrno: .invalidArgument, during: .request).kind == .unsupported)
        #expect(GPIOError(gpioErrno: .invalidArgument, during: .io).kind == .other)
        #expect(GPIOError(gpioErrno: .noSuchAddressOrDevice, during: .io).kind == .other)
        #expect(GPIOError(gpioErrno: .resourceBusy, during: .openChip).kind == .busy)
    }
}
#else
import Testing

@Suite struct GPIOErrnoTests {
    @Test(.disabled("built without the Hardware trait")) func requiresTheHardwareTrait() {}
}
#endif
