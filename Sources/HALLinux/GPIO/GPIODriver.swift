#if Hardware
import CLinuxHardware
import Glibc

/// Every call `LinuxDigitalInputs` makes into the GPIO shim, one requirement per shim function of
/// `CLinuxHardware.h`, with the shim's C signature.
///
/// This is the seam swift-system tests its syscalls through: production code is generic over
/// the driver and uses `SystemGPIODriver` (libgpiod 2 where it is installed, else
/// `KernelGPIODriver`); tests pass a scripted driver that records each call
/// with its arguments and fails it with any errno. A generic parameter, never a global, because
/// Swift Testing runs tests in parallel. Failures return nil or -1 and leave the reason in
/// `errno` (thread-local), exactly as the shim does. Handles are the shim's opaque pointers; a
/// scripted driver may hand out any non-nil bit pattern, since only the driver dereferences them.
public protocol GPIODriver {
    /// `th_gpio_chip_open_path`: the gpiochip device at `path`.
    func chipOpenPath(_ path: UnsafePointer<CChar>) -> OpaquePointer?
    /// `th_gpio_chip_open_label`: the chip in `directory` labelled `label`.
    func chipOpenLabel(_ directory: UnsafePointer<CChar>, _ label: UnsafePointer<CChar>) -> OpaquePointer?
    /// `th_gpio_chip_open_line_name`: the chip in `directory` with a line called `name`.
    func chipOpenLineName(
        _ directory: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>,
        _ offset: UnsafeMutablePointer<CUnsignedInt>
    ) -> OpaquePointer?
    /// `th_gpio_chip_line_count`.
    func chipLineCount(_ chip: OpaquePointer) -> CUnsignedInt
    /// `th_gpio_chip_find_line`: the offset of the line called `name`, or -1.
    func chipFindLine(_ chip: OpaquePointer, _ name: UnsafePointer<CChar>) -> CInt
    /// `th_gpio_chip_close`.
    func chipClose(_ chip: OpaquePointer)
    /// `th_gpio_request_inputs`: inputs with both-edge detection, `bias`, a kernel debounce
    /// period in microseconds (0 for none), labelled `consumer`.
    func requestInputs(
        _ chip: OpaquePointer, _ offsets: UnsafePointer<CUnsignedInt>, _ count: Int,
        _ bias: th_gpio_bias, _ debounceMicroseconds: UInt32, _ consumer: UnsafePointer<CChar>
    ) -> OpaquePointer?
    /// `th_gpio_request_debounce_us`: the period the kernel applies, 0 when it does not debounce.
    func requestDebounce(_ request: OpaquePointer) -> UInt32
    /// `th_gpio_request_fd`: the request's one descriptor.
    func requestDescriptor(_ request: OpaquePointer) -> CInt
    /// `th_gpio_request_read_edges`: up to `capacity` pending edges, 0 if none, or -1.
    func requestReadEdges(
        _ request: OpaquePointer, _ edges: UnsafeMutablePointer<th_gpio_edge>, _ capacity: Int
    ) -> Int
    /// `th_gpio_request_get_values`: bit i = line i.
    func requestGetValues(_ request: OpaquePointer, _ mask: UnsafeMutablePointer<UInt32>) -> CInt
    /// `th_gpio_request_release`.
    func requestRelease(_ request: OpaquePointer)
}

/// The kernel's GPIO character device through the shim's uAPI v2 ioctls: no library, so the
/// same binary runs on any kernel since 5.10, with or without the deprecated v1 uAPI.
public struct KernelGPIODriver: GPIODriver, Sendable {
    public init() {}

    public func chipOpenPath(_ path: UnsafePointer<CChar>) -> OpaquePointer? {
        th_gpio_chip_open_path(path)
    }
    public func chipOpenLabel(_ directory: UnsafePointer<CChar>, _ label: UnsafePointer<CChar>) -> OpaquePointer? {
        th_gpio_chip_open_label(directory, label)
    }
    public func chipOpenLineName(
        _ directory: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>,
        _ offset: UnsafeMutablePointer<CUnsignedInt>
    ) -> OpaquePointer? {
        th_gpio_chip_open_line_name(directory, name, offset)
    }
    public func chipLineCount(_ chip: OpaquePointer) -> CUnsignedInt { th_gpio_chip_line_count(chip) }
    public func chipFindLine(_ chip: OpaquePointer, _ name: UnsafePointer<CChar>) -> CInt {
        th_gpio_chip_find_line(chip, name)
    }
    public func chipClose(_ chip: OpaquePointer) { th_gpio_chip_close(chip) }
    public func requestInputs(
        _ chip: OpaquePointer, _ offsets: UnsafePointer<CUnsignedInt>, _ count: Int,
        _ bias: th_gpio_bias, _ debounceMicroseconds: UInt32, _ consumer: UnsafePointer<CChar>
    ) -> OpaquePointer? {
        th_gpio_request_inputs(chip, offsets, count, bias, debounceMicroseconds, consumer)
    }
    public func requestDebounce(_ request: OpaquePointer) -> UInt32 { th_gpio_request_debounce_us(request) }
    public func requestDescriptor(_ request: OpaquePointer) -> CInt { th_gpio_request_fd(request) }
    public func requestReadEdges(
        _ request: OpaquePointer, _ edges: UnsafeMutablePointer<th_gpio_edge>, _ capacity: Int
    ) -> Int {
        th_gpio_request_read_edges(request, edges, capacity)
    }
    public func requestGetValues(_ request: OpaquePointer, _ mask: UnsafeMutablePointer<UInt32>) -> CInt {
        th_gpio_request_get_values(request, mask)
    }
    public func requestRelease(_ request: OpaquePointer) { th_gpio_request_release(request) }
}
#endif
