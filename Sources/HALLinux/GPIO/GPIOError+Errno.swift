#if Hardware
import CLinuxHardware
import Glibc
import HAL
import SystemPackage

/// The libgpiod step that failed: the same errno means different things at different steps
/// (ENOENT is "no such chip" when opening one, "no such line" when looking a name up).
enum GPIOStep: Sendable, Equatable {
    case openChip, findLine, request, io
}

extension GPIOError {
    /// Maps an errno from a libgpiod step to a kind. Sources: the kernel's
    /// drivers/gpio/gpiolib-cdev.c and libgpiod's lib/core.c (1.6) and lib/chip.c (2.x).
    ///
    /// - ENOENT, and ENODEV/ENOTTY when opening: no chip at that path (libgpiod says ENOTTY or
    ///   ENODEV for a file that is not a gpiochip); ENOENT when looking up a line: no such name.
    /// - ENODEV on later steps: the chip went away (gpiolib answers ENODEV once a gpio_chip is
    ///   removed), except when requesting, where ENODEV (uAPI v1) and ENXIO (uAPI v2) mean the
    ///   line cannot raise an interrupt, so edge detection is unsupported on it.
    /// - EBUSY: another consumer holds the line. EACCES/EPERM: the `gpio` group is missing.
    /// - EINVAL when requesting with a bias: a kernel before 5.5 rejects the bias flags.
    ///   EOPNOTSUPP when requesting: the chip cannot do what was asked.
    /// - EBADF/EFAULT never get here: `gpioCall` traps on them as programming errors.
    init(libgpiodErrno errno: Errno, during step: GPIOStep, bias: Bias = .asIs) {
        let kind: Kind
        switch (errno, step) {
        case (.resourceBusy, _): kind = .busy
        case (.permissionDenied, _), (.notPermitted, _): kind = .permissionDenied
        case (.noSuchFileOrDirectory, .openChip), (.operationNotSupportedByDevice, .openChip),
             (Errno(rawValue: ENOTTY), .openChip):
            kind = .noChip
        case (.noSuchFileOrDirectory, _): kind = .noLine
        case (.operationNotSupportedByDevice, .request), (.noSuchAddressOrDevice, .request),
             (.notSupported, .request), (.notSupportedOnSocket, .request):
            kind = .unsupported
        case (.invalidArgument, .request) where bias != .asIs: kind = .unsupported
        case (.operationNotSupportedByDevice, _): kind = .noChip
        default: kind = .other
        }
        self.init(kind, errno: errno)
    }
}

/// EBADF and EFAULT mean this program passed a released handle or a bad pointer: a bug to find,
/// not a condition to handle (the sorting NIO's `System.swift` and `systemCall` use).
@inline(__always)
private func trapOnProgrammingError(_ error: Errno) {
    if error == .badFileDescriptor || error == .badAddress {
        preconditionFailure("programming error: a libgpiod call failed with \(error)")
    }
}

/// Runs a shim call that returns -1 and sets errno on failure; EINTR is retried, as
/// swift-system's `valueOrErrno(retryOnInterrupt:)` does.
@inline(__always)
func gpioCall<R: FixedWidthInteger>(
    _ step: GPIOStep, bias: Bias = .asIs, _ call: () -> R
) throws(GPIOError) -> R {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno(rawValue: Glibc.errno)
        if error == .interrupted { continue }
        trapOnProgrammingError(error)
        throw GPIOError(libgpiodErrno: error, during: step, bias: bias)
    }
}

/// Runs a shim call that returns NULL and sets errno on failure; EINTR is retried.
@inline(__always)
func gpioCall(
    _ step: GPIOStep, bias: Bias = .asIs, _ call: () -> OpaquePointer?
) throws(GPIOError) -> OpaquePointer {
    while true {
        if let handle = call() { return handle }
        let error = Errno(rawValue: Glibc.errno)
        if error == .interrupted { continue }
        trapOnProgrammingError(error)
        throw GPIOError(libgpiodErrno: error, during: step, bias: bias)
    }
}

extension Bias {
    /// The shim's constant; the shim turns it into libgpiod's own flag or enum value.
    var shimValue: th_gpio_bias {
        switch self {
        case .asIs: TH_GPIO_BIAS_AS_IS
        case .disabled: TH_GPIO_BIAS_DISABLED
        case .pullUp: TH_GPIO_BIAS_PULL_UP
        case .pullDown: TH_GPIO_BIAS_PULL_DOWN
        }
    }
}
#endif
