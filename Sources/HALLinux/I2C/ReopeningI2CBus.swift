import HAL
import SystemPackage

/// The board's I²C adapter by its path: opened when a transfer needs it, closed the moment a
/// transfer finds it gone, and opened again by a later transfer once it is back.
///
/// A USB adapter unplugged (or a HAT's bridge reset) leaves a descriptor that fails every call
/// (`.adapterGone`) and, while it stays open, holds the kernel's removal of the adapter and so
/// the enumeration of the adapter plugged back in (measured on kernel 7.3: nothing for 20 s
/// while the descriptor was open, the new adapter 1 s after it was closed). So the failing
/// transfer closes it before it returns, and throws; the caller hears the kind and decides
/// when to come back. The same path covers an adapter missing at start: the open fails with
/// `.adapterGone` (ENOENT) until the node appears.
///
/// Nothing here sleeps or keeps time: each transfer while the adapter is away is one open(2)
/// that fails, and the caller's own backoff (the display's retry, the sensor's minute) sets
/// how often that happens. A reopened adapter is a new bus: the address is selected again, and
/// every device on it is to be initialised from power-on by its driver (the drivers do so after
/// any failed transaction).
public final class ReopeningI2CBus<Calls: SystemCalls>: I2CBus {
    /// What changed, for the log; repeats of the same failure are not told again.
    public enum Event: Equatable, Sendable {
        /// Opened after it had failed to open or had gone.
        case opened
        /// Could not be opened (the first time, or for another reason than the last time).
        /// An adapter still away after `.gone` is not told again.
        case cannotOpen(I2CError)
        /// The open descriptor failed with `.adapterGone`; it is closed.
        case gone(I2CError)
    }

    public let path: FilePath
    let calls: Calls
    let usesSMBusForRegisters: Bool
    private var adapter: LinuxI2CBus<Calls>?
    private var lastOpenError: I2CError?
    /// Whether the next successful open is news (it failed, or the adapter went away).
    private var away = false
    private var wentAway = false
    private let onEvent: (Event) -> Void
    /// open(2) calls made, successful or not (a test counts the tries while the adapter is away).
    public private(set) var openAttempts = 0

    public init(
        path: FilePath, usesSMBusForRegisters: Bool = LinuxI2CBus<Calls>.smbusAvailable, calls: Calls,
        onEvent: @escaping (Event) -> Void = { _ in }
    ) {
        self.path = path
        self.calls = calls
        self.usesSMBusForRegisters = usesSMBusForRegisters
        self.onEvent = onEvent
    }

    /// Whether a descriptor is open now.
    public var isOpen: Bool { adapter != nil }

    /// The open adapter, opening the path if needed; throws the open's error.
    @discardableResult
    public func opened() throws(I2CError) -> LinuxI2CBus<Calls> {
        if let adapter { return adapter }
        openAttempts += 1
        do throws(I2CError) {
            let fresh = try LinuxI2CBus(path: path, usesSMBusForRegisters: usesSMBusForRegisters, calls: calls)
            adapter = fresh
            lastOpenError = nil
            wentAway = false
            if away { onEvent(.opened) }
            away = false
            return fresh
        } catch {
            let repeated = lastOpenError == error || (wentAway && error.kind == .adapterGone)
            lastOpenError = error
            away = true
            if !repeated { onEvent(.cannotOpen(error)) }
            throw error
        }
    }

    public func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        let bus = try opened()
        do {
            try bus.transfer(address: address, write: write, read: read)
        } catch {
            throw failed(error)
        }
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        var bus = try opened()
        do {
            try bus.readRegisters(address: address, register: register, into: buffer)
        } catch {
            throw failed(error)
        }
    }

    /// Closes the descriptor now when the adapter is gone; any other failure leaves it open
    /// (a NACK is the device's, a bus error the wiring's: the adapter is fine).
    private func failed(_ error: I2CError) -> I2CError {
        guard error.kind == .adapterGone, let adapter else { return error }
        adapter.close()
        self.adapter = nil
        away = true
        wentAway = true
        lastOpenError = nil
        onEvent(.gone(error))
        return error
    }
}
