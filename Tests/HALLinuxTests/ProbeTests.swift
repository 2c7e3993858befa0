import CLinuxHAL
import Glibc
@testable import HALLinux
import Testing

@Suite struct ProbeTests {
    @Test func readsChipLabelAndLineNamesThroughTheSeam() {
        let calls = ScriptedSystemCalls()
        calls.directories["/dev"] = ["gpiochip0", "i2c-1", "null", "serial0", "ttyAMA0", "ttyS0", "ttyS0x"]
        calls.directories["/dev/serial/by-id"] = ["usb-u-blox_AG_GNSS_receiver-if00"]
        calls.links["/dev/serial0"] = "/dev/ttyAMA0"
        calls.links["/dev/serial/by-id/usb-u-blox_AG_GNSS_receiver-if00"] = "/dev/ttyACM0"
        calls.uartType = 0  // ttyS0 with no UART behind it, as on most PCs
        calls.ioctlBehaviour = { request, argument in
            guard let argument else { return }
            if request == TH_GPIO_GET_CHIPINFO {
                let info = argument.assumingMemoryBound(to: th_gpiochip_info.self)
                set(&info.pointee.name, "gpiochip0")
                set(&info.pointee.label, "pinctrl-bcm2711")
                info.pointee.lines = 3
            } else if request == TH_GPIO_V2_GET_LINEINFO {
                let line = argument.assumingMemoryBound(to: th_gpio_v2_line_info.self)
                set(&line.pointee.name, ["ID_SDA", "", "GPIO2"][Int(line.pointee.offset)])
            }
        }
        let inventory = HardwareInventory.scan(root: "/", calls: calls)
        #expect(inventory.gpioChips == [
            .init(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711",
                  lineNames: ["ID_SDA", "", "GPIO2"], problem: nil)
        ])
        #expect(inventory.i2cAdapters.map(\.path) == ["/dev/i2c-1"])
        #expect(inventory.serialPorts == [
            .init(path: "/dev/serial0", target: "/dev/ttyAMA0"),
            .init(path: "/dev/ttyAMA0", target: nil),
            .init(path: "/dev/serial/by-id/usb-u-blox_AG_GNSS_receiver-if00", target: "/dev/ttyACM0"),
        ])
        #expect(calls.names("serialPortType").count == 1)  // only ttyS* is asked
    }

    /// Kernels built without CONFIG_GPIO_CDEV_V1 (Debian's 7.x) answer every v1 ioctl with
    /// EINVAL: the probe asks only GPIO_GET_CHIPINFO_IOCTL, common to both versions, and
    /// GPIO_V2_GET_LINEINFO_IOCTL, with the padding the kernel checks left zero.
    @Test func linesAreReadThroughTheV2Ioctl() {
        #expect(TH_GPIO_GET_CHIPINFO == 0x8044_B401)  // _IOR(0xB4, 0x01, struct gpiochip_info)
        #expect(TH_GPIO_V2_GET_LINEINFO == 0xC100_B405)  // _IOWR(0xB4, 0x05, struct gpio_v2_line_info)
        let calls = ScriptedSystemCalls()
        calls.directories["/dev"] = ["gpiochip0"]
        var paddingZero = true
        calls.ioctlBehaviour = { request, argument in
            guard let argument else { return }
            if request == TH_GPIO_GET_CHIPINFO {
                argument.assumingMemoryBound(to: th_gpiochip_info.self).pointee.lines = 2
            } else if request == TH_GPIO_V2_GET_LINEINFO {
                let line = argument.assumingMemoryBound(to: th_gpio_v2_line_info.self)
                paddingZero = paddingZero && withUnsafeBytes(of: line.pointee.padding) { $0.allSatisfy { $0 == 0 } }
                set(&line.pointee.name, "GPIO\(line.pointee.offset)")
            }
        }
        let chip = HardwareInventory.scan(root: "/", calls: calls).gpioChips.first
        #expect(chip?.lineNames == ["GPIO0", "GPIO1"])
        let requests = calls.names("ioctl").compactMap { call -> UInt? in
            if case .ioctl(_, let request, _) = call { request } else { nil }
        }
        #expect(requests == [TH_GPIO_GET_CHIPINFO, TH_GPIO_V2_GET_LINEINFO, TH_GPIO_V2_GET_LINEINFO])
        #expect(paddingZero)
    }

    @Test func aFileThatIsNotAChipIsReportedNotFatal() throws {
        let dir = try TemporaryDirectory()
        mkdir(dir.path + "/dev", 0o755)
        let fd = open(dir.path + "/dev/gpiochip0", O_CREAT | O_WRONLY, 0o644)
        close(fd)
        let inventory = HardwareInventory.scan(root: dir.path, calls: LiveSystemCalls())
        #expect(inventory.gpioChips.count == 1)
        #expect(inventory.gpioChips.first?.problem?.hasPrefix("not a GPIO character device") == true)
        unlink(dir.path + "/dev/gpiochip0")
        rmdir(dir.path + "/dev")
    }

    @Test func serialCandidatesByName() {
        #expect(HardwareInventory.isSerialCandidate("ttyACM0"))
        #expect(HardwareInventory.isSerialCandidate("serial0"))
        #expect(!HardwareInventory.isSerialCandidate("ttyS0x"))
        #expect(!HardwareInventory.isSerialCandidate("tty1"))
        #expect(!HardwareInventory.isSerialCandidate("ttyprintk"))
    }
}

private func set<T>(_ field: inout T, _ text: String) {
    withUnsafeMutableBytes(of: &field) { raw in
        raw.initializeMemory(as: UInt8.self, repeating: 0)
        for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
}
