#if Hardware
import CLinuxHardware
import Glibc
import HAL
import SystemPackage

/// The GPIO step that failed: the same errno means different things at different steps
/// (ENOENT is "no such chip" when opening one, "no such line" when looking a name up).
enum GPIOStep: Sendable, Equatable {
    case openChip, findLine, request, io
}

extension GPIOError {
    /// Maps an errno from a step of the GPIO character device (uAPI v2) to a kind. Sources: the
    /// kernel's Documentation/userspace-api/gpio/error-codes.rst and gpio-v2-get-line-ioctl.rst,
    /// and drivers/gpio/gpiolib-cdev.c for which errno comes back when.
    ///
    /// - ENOENT, ENOTTY, ENODEV or ENXIO when opening: no chip there (ENOTTY: the file answers
    ///   no GPIO ioctl, it is not a gpiochip; ENXIO: a device node with no device behind it).
    ///   ENOENT when looking up a line: no line of that name.
    /// - ENODEV on later steps: the chip went away ("Device not found or was removed"; gpiolib
    ///   answers every ioctl and read of a removed chip so).
    /// - ENXIO when requesting: the line cannot raise an interrupt, so no edge detection
    ///   (edge_detector_setup). EINVAL when requesting: the offsets are checked against the chip
    ///   and the configuration follows the documented rules, so it is the kernel refusing what
    ///   it cannot do: one before 5.10 has no GPIO_V2_GET_LINE_IOCTL at all, and a line the chip
    ///   marks invalid is refused the same way. EOPNOTSUPP likewise.
    /// - EBUSY: another consumer holds the line. EACCES/EPERM: the `gpio` group is missing.
    /// - EBADF/EFAULT never get here: `gpioCall` traps on them as programming errors.
    init(gpioErrno errno: Errno, during step: GPIOStep) {
        let kind: Kind
        switch (errno, step) {
        case (.resourceBusy, _): kind = .busy
        case (.permissionDenied, _), (.notPermitted, _): kind = .permissionDenied
        case (.noSuchFileOrDirectory, .openChip), (.operationNotSupportedByDevice, .openChip),
             (.noSuchAddressOrDevice, .openChip), (Errno(rawValue: ENOTTY), .openChip):
            kind = .noChip
        case (.noSuchFileOrDirectory, _): kind = .noLine
        case (.noSuchAddressOrDevice, .request), (.invalidArgument, .request),
             (.notSupported, .request), (.notSupportedOnSocket, .request):
            kind = .unsupported
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
        preconditionFailure("programming error: a GPIO call failed with \(error)")
    }
}

/// Runs a shim call that returns -1 and sets errno on failure; EINTR is retried, as
/// swift-system's `valueOrErrno(retryOnInterrupt:)` does.
@inline(__always)
func gpioCall<R: FixedWidthInteger>(_ step: GPIOStep, _ call: () -> R) throws(GPIOError) -> R {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno(rawValue: Glibc.errno)
        if error == .interrupted { continue }
        trapOnProgrammingError(error)
        throw GPIOError(gpioErrno: error, during: step)
    }
}

/// Runs a shim call that returns NULL and sets errno on failure; EINTR is retried.
@inline(__always)
func gpioCall(_ step: GPIOStep, _ call: () -> OpaquePointer?) throws(GPIOError) -> OpaquePointer {
    while true {
        if let handle = call() { return handle }
        let error = Errno(rawValue: Glibc.errno)
        if error == .interrupted { continue }
        trapOnProgrammingError(error)
        throw GPIOError(gpioErrno: error, during: step)
    }
}

extension Bias {
    /// The shim's constant; the shim turns it into a GPIO_V2_LINE_FLAG_BIAS_* flag.
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
