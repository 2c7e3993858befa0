import HAL
import HALLinux
import HALSim
import SystemPackage

/// One I²C bus of the board as the daemon drives it: the kernel's i2c-dev adapter, or the
/// simulated bus with the board's twins on it (`"simulated": true` in the board file).
///
/// The kernel's adapter is a `ReopeningI2CBus`: one that cannot be opened (I²C not enabled yet,
/// a USB adapter not plugged in, a permission missing) or that goes away while open (unplugged,
/// reset) is not fatal. The failing transfer throws its kind (`.adapterGone` for an adapter that
/// is not there), the descriptor of a gone adapter is closed before the transfer returns, the
/// device shows the problem and retries on its own clock (the display's backoff, the sensor's
/// minute), and the next transfer opens the path again. So a display plugged in after
/// `raspi-config`, or a USB adapter plugged back, needs no restart of the daemon.
public final class BoardBus: I2CBus {
    enum Backend {
        case kernel(ReopeningI2CBus<LiveSystemCalls>)
        case simulated(SimulatedI2CBus)
    }

    private let backend: Backend

    /// `report` is told one line when the adapter cannot be opened, goes away, or opens again
    /// (the daemon's log).
    public init(kernelAdapter path: FilePath, report: @escaping (String) -> Void) {
        let bus = ReopeningI2CBus(path: path, calls: LiveSystemCalls()) { event in report(BoardBus.line(event, path: path)) }
        backend = .kernel(bus)
        _ = try? bus.opened()  // say at start what is wrong, before the first frame
    }

    public init(simulated bus: SimulatedI2CBus) {
        backend = .simulated(bus)
    }

    /// The log line for `event` on `path`.
    static func line(_ event: ReopeningI2CBus<LiveSystemCalls>.Event, path: FilePath) -> String {
        switch event {
        case .opened:
            "\(path): adapter opened"
        case .cannotOpen(let error):
            "\(path): cannot open (\(error.errno.map { "\($0)" } ?? "\(error)")); \(advice(error)), retrying"
        case .gone(let error):
            "\(path): adapter gone (\(error.errno.map { "\($0)" } ?? "\(error)")); descriptor closed, opening it again when it is back"
        }
    }

    static func advice(_ error: I2CError) -> String {
        switch error.errno {
        case .noSuchFileOrDirectory?: "enable I²C (sudo raspi-config nonint do_i2c 0, or scripts/setup-pi.sh) or plug the adapter in"
        case .permissionDenied?: "add the service's user to the i2c group"
        default: "check the board file's bus"
        }
    }

    public func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        switch backend {
        case .simulated(let bus): try bus.transfer(address: address, write: write, read: read)
        case .kernel(let bus): try bus.transfer(address: address, write: write, read: read)
        }
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        switch backend {
        case .simulated(var bus): try bus.readRegisters(address: address, register: register, into: buffer)
        case .kernel(let bus): try bus.readRegisters(address: address, register: register, into: buffer)
        }
    }
}
