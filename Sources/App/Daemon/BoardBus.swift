import HAL
import HALLinux
import HALSim
import SystemPackage

/// One I²C bus of the board as the daemon drives it: the kernel's i2c-dev adapter, or the
/// simulated bus with the board's twins on it (`"simulated": true` in the board file).
///
/// An adapter that cannot be opened (I²C not enabled yet, a permission missing) is not fatal:
/// the transfer fails with the open's error, which the device treats as any bus failure (the
/// display retries with backoff, the sensor a minute later), and the next transfer tries to
/// open it again. So a display plugged in after `raspi-config` needs no restart of the daemon.
public final class BoardBus: I2CBus {
    enum Backend {
        case kernel(path: FilePath, adapter: LinuxI2CBus<LiveSystemCalls>?)
        case simulated(SimulatedI2CBus)
    }

    private var backend: Backend
    /// Told when opening the adapter fails and when it succeeds after failing (the daemon's log).
    private let report: (String) -> Void
    private var lastOpenError: I2CError?

    public init(kernelAdapter path: FilePath, report: @escaping (String) -> Void) {
        backend = .kernel(path: path, adapter: nil)
        self.report = report
        _ = adapter()
    }

    public init(simulated bus: SimulatedI2CBus) {
        backend = .simulated(bus)
        report = { _ in }
    }

    /// The open adapter, opening it if needed; throws the open's error.
    private func adapter() -> Result<LinuxI2CBus<LiveSystemCalls>, I2CError> {
        guard case .kernel(let path, let open) = backend else { preconditionFailure("not a kernel adapter") }
        if let open { return .success(open) }
        do throws(I2CError) {
            let opened = try LinuxI2CBus(path: path)
            backend = .kernel(path: path, adapter: opened)
            if lastOpenError != nil { report("\(path): opened") }
            lastOpenError = nil
            return .success(opened)
        } catch {
            if lastOpenError != error {
                report("\(path): cannot open (\(error.errno.map { "\($0)" } ?? "\(error)")); \(Self.advice(error)), retrying")
            }
            lastOpenError = error
            // A bus that is not there is a bus failure to the device: transient, retried.
            return .failure(I2CError(.bus, errno: error.errno))
        }
    }

    static func advice(_ error: I2CError) -> String {
        switch error.errno {
        case .noSuchFileOrDirectory?: "enable I²C (sudo raspi-config nonint do_i2c 0, or scripts/setup-pi.sh)"
        case .permissionDenied?: "add the service's user to the i2c group"
        default: "check the board file's bus"
        }
    }

    public func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        switch backend {
        case .simulated(let bus):
            try bus.transfer(address: address, write: write, read: read)
        case .kernel:
            try adapter().get().transfer(address: address, write: write, read: read)
        }
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        switch backend {
        case .simulated(var bus):
            try bus.readRegisters(address: address, register: register, into: buffer)
        case .kernel:
            var open = try adapter().get()
            try open.readRegisters(address: address, register: register, into: buffer)
        }
    }
}
