import CLinuxHAL
import Glibc
import SystemPackage

/// What `thunderstorm hal probe` finds: the gpiochips (label and line names, read with the GPIO
/// character device's GPIO_GET_CHIPINFO_IOCTL and uAPI v2 GPIO_V2_GET_LINEINFO_IOCTL, Linux 5.10+,
/// which kernels without the deprecated v1 uAPI still answer), the I²C adapters and the serial
/// ports that have something behind them.
public struct HardwareInventory: Sendable {
    public struct GPIOChip: Sendable, Equatable {
        public var path: String
        public var name: String
        public var label: String
        /// Line names by offset; "" for an unnamed line.
        public var lineNames: [String]
        /// Why the chip could not be read, if it could not.
        public var problem: String?
    }

    public struct I2CAdapter: Sendable, Equatable {
        public var path: String
        /// The adapter's name from sysfs (e.g. "bcm2835 (i2c@7e804000)").
        public var name: String?
    }

    public struct SerialDevice: Sendable, Equatable {
        public var path: String
        /// Where a symlink such as /dev/serial0 or a /dev/serial/by-id name points.
        public var target: String?
    }

    public var gpioChips: [GPIOChip] = []
    public var i2cAdapters: [I2CAdapter] = []
    public var serialPorts: [SerialDevice] = []

    /// Scans `root` (normally "/"; tests pass a directory tree of their own).
    public static func scan<Calls: SystemCalls>(root: String = "/", calls: Calls) -> HardwareInventory {
        var inventory = HardwareInventory()
        let dev = join(root, "dev")
        let names = entries(dev, calls)
        for name in names where name.hasPrefix("gpiochip") {
            inventory.gpioChips.append(readChip(join(dev, name), calls))
        }
        for name in names where name.hasPrefix("i2c-") {
            let sysName = readText(join(root, "sys/class/i2c-dev/\(name)/name"), calls)
            inventory.i2cAdapters.append(I2CAdapter(path: join(dev, name), name: sysName))
        }
        for name in names where isSerialCandidate(name) {
            let path = join(dev, name)
            if name.hasPrefix("serial") || hasUART(path, calls) {
                inventory.serialPorts.append(SerialDevice(path: path, target: resolve(path, calls)))
            }
        }
        for name in entries(join(dev, "serial/by-id"), calls) {
            let path = join(dev, "serial/by-id/\(name)")
            inventory.serialPorts.append(SerialDevice(path: path, target: resolve(path, calls)))
        }
        return inventory
    }

    static func isSerialCandidate(_ name: String) -> Bool {
        if name == "serial0" || name == "serial1" { return true }
        return ["ttyAMA", "ttyS", "ttyUSB", "ttyACM"].contains { prefix in
            name.hasPrefix(prefix) && name.dropFirst(prefix.count).allSatisfy(\.isNumber)
        }
    }

    /// ttyS0…ttyS31 exist on most PCs whether or not a UART is there; TIOCGSERIAL says which.
    static func hasUART<Calls: SystemCalls>(_ path: String, _ calls: Calls) -> Bool {
        guard !path.contains("ttyS") else {
            let fd = path.withCString { calls.open($0, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0) }
            guard fd >= 0 else { return false }
            defer { _ = calls.close(fd) }
            return calls.serialPortType(fd) > 0
        }
        return true
    }

    static func readChip<Calls: SystemCalls>(_ path: String, _ calls: Calls) -> GPIOChip {
        var chip = GPIOChip(path: path, name: "", label: "", lineNames: [], problem: nil)
        let fd = path.withCString { calls.open($0, O_RDONLY | O_CLOEXEC, 0) }
        guard fd >= 0 else {
            chip.problem = "cannot open: \(Errno(rawValue: Glibc.errno))"
            return chip
        }
        defer { _ = calls.close(fd) }
        var info = th_gpiochip_info()
        guard calls.ioctl(fd, TH_GPIO_GET_CHIPINFO, &info) == 0 else {
            chip.problem = "not a GPIO character device: \(Errno(rawValue: Glibc.errno))"
            return chip
        }
        chip.name = cString(info.name)
        chip.label = cString(info.label)
        for offset in 0..<info.lines {
            // Zeroed, padding included: the kernel refuses non-zero padding with EINVAL.
            var line = th_gpio_v2_line_info()
            line.offset = offset
            guard calls.ioctl(fd, TH_GPIO_V2_GET_LINEINFO, &line) == 0 else {
                chip.problem = "line \(offset): \(Errno(rawValue: Glibc.errno))"
                break
            }
            chip.lineNames.append(cString(line.name))
        }
        return chip
    }

    private static func entries<Calls: SystemCalls>(_ path: String, _ calls: Calls) -> [String] {
        path.withCString { calls.directoryEntries($0) } ?? []
    }

    private static func readText<Calls: SystemCalls>(_ path: String, _ calls: Calls) -> String? {
        let fd = path.withCString { calls.open($0, O_RDONLY | O_CLOEXEC, 0) }
        guard fd >= 0 else { return nil }
        defer { _ = calls.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { calls.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self).trimmingTrailingNewlines()
    }

    private static func resolve<Calls: SystemCalls>(_ path: String, _ calls: Calls) -> String? {
        guard let target = path.withCString({ calls.resolvedPath($0) }) else { return nil }
        return target == path ? nil : target
    }

    private static func join(_ a: String, _ b: String) -> String {
        a.hasSuffix("/") ? a + b : a + "/" + b
    }

    private static func cString<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == " " { s = s.dropLast() }
        return String(s)
    }
}
