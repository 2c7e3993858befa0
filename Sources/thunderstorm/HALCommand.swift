import ArgumentParser
import HALLinux

struct HALCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hal",
        abstract: "Inspect the hardware this machine offers.",
        subcommands: [Probe.self]
    )

    struct Probe: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say how GPIO is reached; list the GPIO chips (labels and line names), I²C buses and serial ports."
        )

        @Option(help: ArgumentHelp("Scan this directory instead of /.", visibility: .hidden))
        var root = "/"

        @Flag(help: "Print every line name of every GPIO chip.")
        var lines = false

        func run() {
            let inventory = HardwareInventory.scan(root: root, calls: LiveSystemCalls())
            print("GPIO: \(GPIOAccess.summary)")
            print(ProbeReport(inventory: inventory, allLines: lines).text, terminator: "")
        }
    }
}

/// The text `hal probe` prints: what was found, and for each kind found missing, the one thing
/// to check on a Raspberry Pi.
struct ProbeReport {
    var inventory: HardwareInventory
    var allLines: Bool

    var text: String {
        var out = "GPIO chips:\n"
        if inventory.gpioChips.isEmpty {
            out += "  none found (no /dev/gpiochip*: not a board with GPIO, or no access to /dev)\n"
        }
        for chip in inventory.gpioChips {
            if let problem = chip.problem {
                out += "  \(chip.path): \(problem)\n"
                continue
            }
            out += "  \(chip.path): \(chip.name) label \"\(chip.label)\", \(chip.lineNames.count) lines\n"
            let named = chip.lineNames.enumerated().filter { !$0.element.isEmpty }
            let shown = allLines ? named[...] : named.prefix(8)
            if !shown.isEmpty {
                out += "    " + shown.map { "\($0.offset)=\($0.element)" }.joined(separator: " ")
                out += named.count > shown.count ? " … (--lines for all \(named.count))\n" : "\n"
            }
        }
        out += "I²C buses:\n"
        if inventory.i2cAdapters.isEmpty {
            out += "  none found (no /dev/i2c-*; on a Raspberry Pi: raspi-config → Interface Options → I2C)\n"
        }
        for adapter in inventory.i2cAdapters {
            out += "  \(adapter.path)" + (adapter.name.map { ": \($0)" } ?? "") + "\n"
        }
        out += "Serial ports:\n"
        if inventory.serialPorts.isEmpty {
            out += "  none found (no UART or USB serial device; on a Raspberry Pi: raspi-config → Serial Port, login shell off, hardware on)\n"
        }
        for port in inventory.serialPorts {
            out += "  \(port.path)" + (port.target.map { " → \($0)" } ?? "") + "\n"
        }
        return out
    }
}
