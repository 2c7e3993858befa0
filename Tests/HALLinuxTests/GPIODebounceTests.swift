#if Hardware
import CLinuxHardware
import HAL
@testable import HALLinux
import Testing

/// Kernel debounce: the period goes into the request in microseconds, and `kernelDebounce` says
/// whether the kernel took it (the shim reads it back from the lines' info), so that the runtime
/// debounces in software only when it did not.
@Suite struct GPIODebounceTests {
    static func request(debounce: Duration, kernelDebounces: Bool = true) throws -> (LinuxDigitalInputs<ScriptedGPIODriver>, ScriptedGPIODriver) {
        let driver = ScriptedGPIODriver()
        driver.kernelDebounces = kernelDebounces
        let inputs = try LinuxDigitalInputs(
            chip: .label("pinctrl-rp1"), lines: [.offset(17), .offset(27)], bias: .pullUp, debounce: debounce, driver: driver)
        return (inputs, driver)
    }

    @Test func withoutADebounceNothingIsAskedOfTheKernel() throws {
        let (inputs, driver) = try Self.request(debounce: .zero)
        #expect(driver.names("requestInputs") == [
            .requestInputs(offsets: [17, 27], bias: TH_GPIO_BIAS_PULL_UP, debounceMicroseconds: 0, consumer: "thunderstorm"),
        ])
        #expect(driver.names("requestDebounce").isEmpty)
        #expect(!inputs.kernelDebounce)
    }

    @Test(arguments: [
        (Duration.milliseconds(20), UInt32(20_000)), (.microseconds(1500), 1500), (.nanoseconds(999), 0),
        (.milliseconds(-5), 0), (.seconds(10_000), UInt32.max),
    ])
    func thePeriodGoesToTheKernelInMicroseconds(debounce: Duration, microseconds: UInt32) throws {
        let (inputs, driver) = try Self.request(debounce: debounce)
        #expect(driver.names("requestInputs") == [
            .requestInputs(offsets: [17, 27], bias: TH_GPIO_BIAS_PULL_UP, debounceMicroseconds: microseconds, consumer: "thunderstorm"),
        ])
        #expect(inputs.kernelDebounce == (microseconds > 0))
    }

    /// The lines' info shows no debounce attribute after the request: software debounces.
    @Test func aPeriodTheKernelDoesNotReportIsLeftToSoftware() throws {
        let (inputs, driver) = try Self.request(debounce: .milliseconds(20), kernelDebounces: false)
        #expect(driver.names("requestDebounce") == [.requestDebounce])
        #expect(!inputs.kernelDebounce)
    }
}
#endif
