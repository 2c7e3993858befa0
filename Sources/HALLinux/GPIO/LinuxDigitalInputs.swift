#if Hardware
import CLinuxHardware
import Glibc
import HAL
import SystemPackage

/// Which gpiochip holds the lines. Never a chip number: numbers change across kernels (a Pi 5's
/// RP1 was gpiochip4 before Linux 6.6.45 and gpiochip0 after), labels and line names do not.
public enum GPIOChipSelector: Sendable, Equatable {
    /// The chip with this label: "pinctrl-rp1" (Pi 5), "pinctrl-bcm2711" (Pi 4),
    /// "pinctrl-bcm2835" (Pi 3, Zero 2 W).
    case label(String)
    /// The chip device at this path, e.g. a udev symlink that names the board's chip.
    case path(String)
}

/// One line of a request.
public enum GPIOLineSelector: Sendable, Equatable {
    /// The line's name in the device tree ("GPIO17" on a Raspberry Pi).
    case name(String)
    /// The line's offset on its chip (17 for GPIO17 on the Pi's main chip).
    case offset(UInt32)
}

/// Buttons (or any inputs) on Linux GPIO lines through the kernel's GPIO character device,
/// uAPI v2 (Linux 5.10 and later), by way of a `GPIODriver`: libgpiod 2 (`LibgpiodDriver`), the
/// shim's own ioctls (`KernelGPIODriver`), or whichever of the two the process chose
/// (`SystemGPIODriver`, what the daemon uses). All of them mean the same by every call.
///
/// The lines are requested once, as inputs with edge detection on both edges and the given
/// bias, under a consumer name that `gpioinfo` shows: one GPIO_V2_GET_LINE_IOCTL, one
/// descriptor for all lines. The chip is closed right after, which leaves the request alone
/// (gpio-v2-get-line-ioctl.rst). The kernel stamps each edge on CLOCK_MONOTONIC, so `Edge.time`
/// is comparable with `DeviceClock.now()`, and numbers it (`Edge.sequence`), so edges dropped
/// from a full buffer are counted exactly. The event loop polls `pollDescriptor` for POLLIN and
/// then drains with `readEdges(into:)`, which never blocks and allocates nothing. Releasing
/// happens in `close()` or on deinit.
public final class LinuxDigitalInputs<Driver: GPIODriver>: DigitalInputs {
    /// Edges moved per shim call: the shim reads at most this many records per read(2).
    static var batch: Int { Int(TH_GPIO_READ_BATCH) }

    /// The request's descriptor, to poll for POLLIN. Owned by the request: never close it.
    /// nil after `close()`.
    public private(set) var pollDescriptor: FileDescriptor?
    /// How many lines were requested; `Edge.line` and the bits of `levels()` index them.
    public let lineCount: Int
    /// True when the kernel debounces the lines (asked for with `debounce`, and read back from
    /// the lines' info): its edges then arrive already debounced, stamped when the line had been
    /// stable for the period, and software must not debounce them again (Core's
    /// `ButtonTiming.debounce` = 0). False without a period: debounce in software then.
    public let kernelDebounce: Bool

    let driver: Driver
    private var request: OpaquePointer?
    private let scratch: UnsafeMutableBufferPointer<th_gpio_edge>

    /// Requests `lines` (1 to 32, all on one chip) as inputs with both-edge detection.
    ///
    /// - Parameters:
    ///   - chip: where the lines are; nil to find the chip by the first line's name, which must
    ///     then be a `.name`; every other line must be on the same chip.
    ///   - bias: the pull resistor (ignored by chips without one).
    ///   - debounce: a period for the kernel to debounce every line by (a
    ///     GPIO_V2_LINE_ATTR_ID_DEBOUNCE attribute; whole microseconds, up to `UInt32.max`); zero
    ///     for none. See `kernelDebounce` for whether it was applied.
    ///   - consumer: the label other tools show for the lines (the kernel keeps 31 bytes).
    ///   - deviceDirectory: where to look for gpiochip devices by label or line name.
    /// - Throws: `.noChip`, `.noLine` (unknown name, offset past the chip's end), `.busy` (in
    ///   use, or a line given twice), `.permissionDenied`, `.unsupported` (edge detection on this
    ///   line, or a kernel before 5.10), `.other`.
    public init(
        chip selector: GPIOChipSelector?, lines: [GPIOLineSelector], bias: Bias, debounce: Duration = .zero,
        consumer: String = "thunderstorm", deviceDirectory: String = "/dev", driver: Driver
    ) throws(GPIOError) {
        guard (1...Int(TH_GPIO_MAX_LINES)).contains(lines.count) else {
            throw GPIOError(.unsupported, errno: .invalidArgument)
        }
        // The kernel keeps the period as u32 microseconds.
        let debounceMicroseconds = UInt32(clamping: max(debounce.nanoseconds / 1000, 0))
        var firstOffset: CUnsignedInt?
        let chip: OpaquePointer
        switch selector {
        case .label(let label):
            chip = try gpioCall(.openChip) {
                deviceDirectory.withCString { dir in label.withCString { driver.chipOpenLabel(dir, $0) } }
            }
        case .path(let path):
            chip = try gpioCall(.openChip) { path.withCString { driver.chipOpenPath($0) } }
        case nil:
            guard case .name(let name) = lines[0] else { throw GPIOError(.noChip) }
            var offset: CUnsignedInt = 0
            chip = try gpioCall(.findLine) {
                deviceDirectory.withCString { dir in name.withCString { driver.chipOpenLineName(dir, $0, &offset) } }
            }
            firstOffset = offset
        }
        let request: OpaquePointer
        do throws(GPIOError) {
            var offsets: [CUnsignedInt] = []
            offsets.reserveCapacity(lines.count)
            let available = driver.chipLineCount(chip)
            for line in lines {
                switch line {
                case .name(let name):
                    if offsets.isEmpty, let firstOffset {
                        offsets.append(firstOffset)
                    } else {
                        let found = try gpioCall(.findLine) { name.withCString { driver.chipFindLine(chip, $0) } }
                        offsets.append(CUnsignedInt(found))
                    }
                case .offset(let offset):
                    guard offset < available else { throw GPIOError(.noLine) }
                    offsets.append(offset)
                }
            }
            request = try gpioCall(.request) {
                offsets.withUnsafeBufferPointer { o in
                    consumer.withCString {
                        driver.requestInputs(chip, o.baseAddress!, o.count, bias.shimValue, debounceMicroseconds, $0)
                    }
                }
            }
        } catch {
            driver.chipClose(chip)
            throw error
        }
        driver.chipClose(chip)
        self.driver = driver
        self.request = request
        self.lineCount = lines.count
        self.kernelDebounce = debounceMicroseconds > 0 && driver.requestDebounce(request) > 0
        self.pollDescriptor = FileDescriptor(rawValue: driver.requestDescriptor(request))
        self.scratch = .allocate(capacity: Self.batch)
    }

    deinit {
        close()
        scratch.deallocate()
    }

    /// Releases the lines (closes the request's descriptor). Idempotent; after it, reading is a
    /// programming error.
    public func close() {
        if let request { driver.requestRelease(request) }
        request = nil
        pollDescriptor = nil
    }

    public func readEdges(into buffer: UnsafeMutableBufferPointer<Edge>) throws(GPIOError) -> Int {
        let request = requested()
        var filled = 0
        while filled < buffer.count {
            let want = min(scratch.count, buffer.count - filled)
            let got = try gpioCall(.io) { driver.requestReadEdges(request, scratch.baseAddress!, want) }
            for i in 0..<got { buffer[filled + i] = decode(scratch[i]) }
            filled += got
            if got < want { break }
        }
        return filled
    }

    public func levels() throws(GPIOError) -> UInt32 {
        let request = requested()
        var mask: UInt32 = 0
        _ = try gpioCall(.io) { withUnsafeMutablePointer(to: &mask) { driver.requestGetValues(request, $0) } }
        return mask
    }

    private func requested() -> OpaquePointer {
        guard let request else { preconditionFailure("LinuxDigitalInputs used after close()") }
        return request
    }

    /// The shim's record to the HAL's `Edge`. A line index or type outside what the shim
    /// promises is a bug in the shim, not an input condition.
    private func decode(_ raw: th_gpio_edge) -> Edge {
        precondition(Int(raw.line) < lineCount, "shim reported line \(raw.line) of \(lineCount)")
        let direction: Edge.Direction
        switch Int(raw.type) {
        case TH_GPIO_EDGE_RISING: direction = .rising
        case TH_GPIO_EDGE_FALLING: direction = .falling
        default: preconditionFailure("shim reported edge type \(raw.type)")
        }
        return Edge(
            line: Int(raw.line), direction: direction,
            time: Instant(nanoseconds: Int64(truncatingIfNeeded: raw.timestamp_ns)),
            sequence: EdgeSequence(request: raw.seqno, line: raw.line_seqno))
    }
}

extension LinuxDigitalInputs where Driver == KernelGPIODriver {
    /// Requests the lines through the kernel's GPIO character device.
    public convenience init(
        chip: GPIOChipSelector?, lines: [GPIOLineSelector], bias: Bias, debounce: Duration = .zero,
        consumer: String = "thunderstorm", deviceDirectory: String = "/dev"
    ) throws(GPIOError) {
        try self.init(
            chip: chip, lines: lines, bias: bias, debounce: debounce, consumer: consumer,
            deviceDirectory: deviceDirectory, driver: KernelGPIODriver())
    }
}
#endif
