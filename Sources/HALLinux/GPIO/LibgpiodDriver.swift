#if Hardware
import CLinuxHardware
import Glibc

/// The GPIO shim's calls through libgpiod 2 (libgpiod.so.3), loaded at run time: the same
/// contract as `KernelGPIODriver` — the same requests, edges, numbers, stamps and errno — with
/// libgpiod making the ioctls (CLinuxHardwareLibgpiod.h).
///
/// Its handles are the libgpiod shim's own (`th_gpiod_chip`, `th_gpiod_request`); never pass
/// them to another driver.
public struct LibgpiodDriver: GPIODriver, @unchecked Sendable {
    /// What was opened: the bound library is immutable and shared by every thread (libgpiod's
    /// objects are not, but each chip and request belongs to the one that made it).
    let library: OpaquePointer
    /// The file name or path it was opened by.
    public let libraryName: String
    /// libgpiod's own version, `gpiod_api_version()`: "2.2.1".
    public let version: String

    /// Opens libgpiod (`libraryName`: a soname for the dynamic linker's search, or a path).
    /// - Throws: one line: "libgpiod.so.3 not found: apt install libgpiod3", or why the library
    ///   is not a libgpiod 2.
    public init(libraryName: String = TH_LIBGPIOD_SONAME) throws(LibgpiodUnavailable) {
        var error = [CChar](repeating: 0, count: 256)
        let opened = error.withUnsafeMutableBufferPointer { th_gpiod_open(libraryName, $0.baseAddress, $0.count) }
        guard let library = opened else {
            let line = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw LibgpiodUnavailable(reason: String(decoding: line, as: UTF8.self))
        }
        self.library = library
        self.libraryName = libraryName
        self.version = String(cString: th_gpiod_version(library))
    }

    public func chipOpenPath(_ path: UnsafePointer<CChar>) -> OpaquePointer? {
        th_gpiod_chip_open_path(library, path)
    }
    public func chipOpenLabel(_ directory: UnsafePointer<CChar>, _ label: UnsafePointer<CChar>) -> OpaquePointer? {
        th_gpiod_chip_open_label(library, directory, label)
    }
    public func chipOpenLineName(
        _ directory: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>,
        _ offset: UnsafeMutablePointer<CUnsignedInt>
    ) -> OpaquePointer? {
        th_gpiod_chip_open_line_name(library, directory, name, offset)
    }
    public func chipLineCount(_ chip: OpaquePointer) -> CUnsignedInt { th_gpiod_chip_line_count(chip) }
    public func chipFindLine(_ chip: OpaquePointer, _ name: UnsafePointer<CChar>) -> CInt {
        th_gpiod_chip_find_line(chip, name)
    }
    public func chipClose(_ chip: OpaquePointer) { th_gpiod_chip_close(chip) }
    public func requestInputs(
        _ chip: OpaquePointer, _ offsets: UnsafePointer<CUnsignedInt>, _ count: Int,
        _ bias: th_gpio_bias, _ debounceMicroseconds: UInt32, _ consumer: UnsafePointer<CChar>
    ) -> OpaquePointer? {
        th_gpiod_request_inputs(chip, offsets, count, bias, debounceMicroseconds, consumer)
    }
    public func requestDebounce(_ request: OpaquePointer) -> UInt32 { th_gpiod_request_debounce_us(request) }
    public func requestDescriptor(_ request: OpaquePointer) -> CInt { th_gpiod_request_fd(request) }
    public func requestReadEdges(
        _ request: OpaquePointer, _ edges: UnsafeMutablePointer<th_gpio_edge>, _ capacity: Int
    ) -> Int {
        th_gpiod_request_read_edges(request, edges, capacity)
    }
    public func requestGetValues(_ request: OpaquePointer, _ mask: UnsafeMutablePointer<UInt32>) -> CInt {
        th_gpiod_request_get_values(request, mask)
    }
    public func requestRelease(_ request: OpaquePointer) { th_gpiod_request_release(request) }
}

/// Why libgpiod 2 cannot be used: one line, from the loader.
public struct LibgpiodUnavailable: Error, Sendable, Equatable {
    public var reason: String
}
#endif
