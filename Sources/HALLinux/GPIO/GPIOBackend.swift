#if Hardware
import CLinuxHardware
import Glibc
#endif

/// How this process reaches GPIO lines, in one line for the daemon's log at start and for
/// `thunderstorm hal probe`: "libgpiod 2.2.1 (libgpiod.so.3)", "the kernel's uAPI v2
/// (libgpiod.so.3 not found: apt install libgpiod3 to use libgpiod)", or, in a build without the
/// Hardware trait, that there is no GPIO at all.
public enum GPIOAccess {
    public static var summary: String {
        #if Hardware
        GPIOBackend.process.summary
        #else
        "none (this build has no GPIO support: build with --traits Hardware)"
        #endif
    }
}

#if Hardware
/// The two ways to the kernel's GPIO character device, chosen once per process: libgpiod 2
/// (libgpiod.so.3, the design's hardware library) wherever it is installed — Debian 13,
/// Raspberry Pi OS trixie, Ubuntu 24.04 and later — and otherwise the shim's own uAPI v2 calls.
/// Debian 12's libgpiod 1.6 (libgpiod.so.2) is never used: it speaks the v1 uAPI, which has no
/// sequence numbers and no debounce, and which kernels built without CONFIG_GPIO_CDEV_V1 refuse.
public enum GPIOBackend: Sendable {
    case libgpiod(LibgpiodDriver)
    /// `reason`: why not libgpiod.
    case uapi(reason: String)

    /// `THUNDERSTORM_GPIO=uapi` in the environment forces the uAPI path (tests, or to compare
    /// the two on one board); unset or any other value chooses libgpiod 2 when it loads.
    public static let environmentVariable = "THUNDERSTORM_GPIO"

    /// This process's choice, made on first use from the environment (which loads libgpiod then).
    public static let process: GPIOBackend = choose(setting: getenv(environmentVariable).map { String(cString: $0) })

    /// libgpiod from `libraryName` unless `setting` is "uapi" or it cannot be loaded.
    public static func choose(setting: String?, libraryName: String = TH_LIBGPIOD_SONAME) -> GPIOBackend {
        if setting == "uapi" { return .uapi(reason: "\(environmentVariable)=uapi") }
        do throws(LibgpiodUnavailable) {
            return .libgpiod(try LibgpiodDriver(libraryName: libraryName))
        } catch {
            return .uapi(reason: error.reason + (error.reason.contains("apt install") ? " to use libgpiod" : ""))
        }
    }

    public var summary: String {
        switch self {
        case .libgpiod(let driver): "libgpiod \(driver.version) (\(driver.libraryName))"
        case .uapi(let reason): "the kernel's uAPI v2 (\(reason))"
        }
    }

    public var usesLibgpiod: Bool {
        if case .libgpiod = self { true } else { false }
    }
}

/// The driver of the process's `GPIOBackend`: each call goes to libgpiod or to the uAPI shim,
/// by a switch on a value fixed at init (no allocation, no existential).
public struct SystemGPIODriver: GPIODriver, Sendable {
    let backend: GPIOBackend
    let kernel = KernelGPIODriver()

    public init(_ backend: GPIOBackend = .process) { self.backend = backend }

    public func chipOpenPath(_ path: UnsafePointer<CChar>) -> OpaquePointer? {
        if case .libgpiod(let d) = backend { d.chipOpenPath(path) } else { kernel.chipOpenPath(path) }
    }
    public func chipOpenLabel(_ directory: UnsafePointer<CChar>, _ label: UnsafePointer<CChar>) -> OpaquePointer? {
        if case .libgpiod(let d) = backend {
            d.chipOpenLabel(directory, label)
        } else {
            kernel.chipOpenLabel(directory, label)
        }
    }
    public func chipOpenLineName(
        _ directory: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>,
        _ offset: UnsafeMutablePointer<CUnsignedInt>
    ) -> OpaquePointer? {
        if case .libgpiod(let d) = backend {
            d.chipOpenLineName(directory, name, offset)
        } else {
            kernel.chipOpenLineName(directory, name, offset)
        }
    }
    public func chipLineCount(_ chip: OpaquePointer) -> CUnsignedInt {
        if case .libgpiod(let d) = backend { d.chipLineCount(chip) } else { kernel.chipLineCount(chip) }
    }
    public func chipFindLine(_ chip: OpaquePointer, _ name: UnsafePointer<CChar>) -> CInt {
        if case .libgpiod(let d) = backend { d.chipFindLine(chip, name) } else { kernel.chipFindLine(chip, name) }
    }
    public func chipClose(_ chip: OpaquePointer) {
        if case .libgpiod(let d) = backend { d.chipClose(chip) } else { kernel.chipClose(chip) }
    }
    public func requestInputs(
        _ chip: OpaquePointer, _ offsets: UnsafePointer<CUnsignedInt>, _ count: Int,
        _ bias: th_gpio_bias, _ debounceMicroseconds: UInt32, _ consumer: UnsafePointer<CChar>
    ) -> OpaquePointer? {
        if case .libgpiod(let d) = backend {
            d.requestInputs(chip, offsets, count, bias, debounceMicroseconds, consumer)
        } else {
            kernel.requestInputs(chip, offsets, count, bias, debounceMicroseconds, consumer)
        }
    }
    public func requestDebounce(_ request: OpaquePointer) -> UInt32 {
        if case .libgpiod(let d) = backend { d.requestDebounce(request) } else { kernel.requestDebounce(request) }
    }
    public func requestDescriptor(_ request: OpaquePointer) -> CInt {
        if case .libgpiod(let d) = backend { d.requestDescriptor(request) } else { kernel.requestDescriptor(request) }
    }
    public func requestReadEdges(
        _ request: OpaquePointer, _ edges: UnsafeMutablePointer<th_gpio_edge>, _ capacity: Int
    ) -> Int {
        if case .libgpiod(let d) = backend {
            d.requestReadEdges(request, edges, capacity)
        } else {
            kernel.requestReadEdges(request, edges, capacity)
        }
    }
    public func requestGetValues(_ request: OpaquePointer, _ mask: UnsafeMutablePointer<UInt32>) -> CInt {
        if case .libgpiod(let d) = backend { d.requestGetValues(request, mask) } else { kernel.requestGetValues(request, mask) }
    }
    public func requestRelease(_ request: OpaquePointer) {
        if case .libgpiod(let d) = backend { d.requestRelease(request) } else { kernel.requestRelease(request) }
    }
}
#endif
