import HAL

/// An `I2CBus` with device models at 7-bit addresses, fault injection and a transaction log.
///
/// One `transfer` is one transaction: the address is acknowledged only if an attached,
/// present device is there (otherwise `.noAcknowledge(.address)`, as ENXIO from i2c-dev),
/// then the model sees the write phase and the read phase. Every transaction is recorded in
/// `log` (see `I2CTransactionLog`): the write phase as a transaction line, the read phase as a
/// `# AA: read N -> …` comment, and a failed transaction as a comment naming the error, with
/// the time from the clock when the bus has one.
///
/// Faults are injected per address or bus-wide, for the next N transactions or until cleared.
/// A faulted transaction never reaches the device (nothing it sent is applied), which is what
/// a driver can rely on least and must survive best. Address faults are checked before
/// bus-wide ones; a fault counts down only on the transactions it fails.
///
/// `reportsNoAcknowledgeSource = false` reports every NACK as `.noAcknowledge(.unknown)`, as
/// the Raspberry Pi's i2c-bcm2835 adapter does (EREMOTEIO for both).
///
/// The adapter itself can be unplugged (`unplugAdapter`): every transaction then fails with
/// `.adapterGone` before reaching any device, as i2c-dev fails a descriptor left open on an
/// unplugged USB adapter, until `plugAdapterIn` brings it back with its devices reset.
///
/// Errors carry no errno: there is no kernel here, and drivers act on the kind alone.
public final class SimulatedI2CBus: I2CBus {
    private struct Slot {
        var device: any I2CDeviceModel
        var present: Bool
    }

    private let clock: VirtualClock?
    private var slots: [UInt8: Slot] = [:]
    private var addressFaults: [UInt8: I2CFault] = [:]
    private var busFault: I2CFault?

    /// Everything that went over the bus.
    public var log = I2CTransactionLog()
    /// Whether to record transactions in `log` (a long simulation may turn it off).
    public var isLogging = true
    /// Whether a reattached device comes back in its power-on state (it lost power).
    public var resetsOnReattach = true
    public var reportsNoAcknowledgeSource = true
    /// Transactions attempted, and how many of them failed.
    public private(set) var transactionCount = 0
    public private(set) var failedTransactionCount = 0

    /// Whether the adapter is there (plugged in); see `unplugAdapter`.
    public private(set) var isAdapterPresent = true

    public init(clock: VirtualClock? = nil) { self.clock = clock }

    /// The adapter goes away (a USB adapter unplugged, a HAT's bridge reset): nothing reaches
    /// any device until `plugAdapterIn`.
    public func unplugAdapter() {
        isAdapterPresent = false
        if isLogging { log.appendComment("adapter unplugged") }
    }

    /// The adapter is back. Its devices were powered through it, so they come back in their
    /// power-on state unless `resetting` is false (a bridge reset that kept them powered).
    public func plugAdapterIn(resetting: Bool = true) {
        isAdapterPresent = true
        if resetting { for slot in slots.values { slot.device.powerOnReset() } }
        if isLogging { log.appendComment(resetting ? "adapter plugged in (devices at power-on)" : "adapter plugged in") }
    }

    /// Puts `device` at `address` (replacing any other), present.
    public func attach(_ device: any I2CDeviceModel, at address: UInt8) {
        precondition(address <= 0x7F, "7-bit address")
        slots[address] = Slot(device: device, present: true)
    }

    /// Removes the device at `address` for good.
    public func remove(at address: UInt8) { slots[address] = nil }

    /// The device at `address` goes away (a loose cable): transactions to it are not
    /// acknowledged until `reattach`.
    public func detach(_ address: UInt8) {
        guard slots[address] != nil else { return }
        slots[address]?.present = false
        comment(address, "detached")
    }

    /// The device at `address` is back; it is reset to its power-on state when `resetting`
    /// (by default `resetsOnReattach`).
    public func reattach(_ address: UInt8, resetting: Bool? = nil) {
        guard var slot = slots[address] else { return }
        slot.present = true
        slots[address] = slot
        let reset = resetting ?? resetsOnReattach
        if reset { slot.device.powerOnReset() }
        comment(address, reset ? "reattached (power-on reset)" : "reattached")
    }

    public func device(at address: UInt8) -> (any I2CDeviceModel)? { slots[address]?.device }

    /// Whether a device answers at `address` now.
    public func isPresent(_ address: UInt8) -> Bool { slots[address]?.present ?? false }

    /// Fails the next `count` transactions to `address` (or to any address, when `nil`) with
    /// `kind`; every one until cleared when `count` is `nil`. Replaces a fault already there.
    public func injectFault(_ kind: I2CError.Kind, at address: UInt8? = nil, count: Int? = nil) {
        let fault = I2CFault(kind, count: count)
        if let address { addressFaults[address] = fault } else { busFault = fault }
    }

    /// The fault pending at `address` (or bus-wide, when `nil`).
    public func fault(at address: UInt8? = nil) -> I2CFault? {
        if let address { return addressFaults[address] }
        return busFault
    }

    /// Clears the fault at `address` (or the bus-wide one, when `nil`).
    public func clearFault(at address: UInt8? = nil) {
        if let address { addressFaults[address] = nil } else { busFault = nil }
    }

    public func clearAllFaults() {
        addressFaults.removeAll()
        busFault = nil
    }

    public func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        transactionCount += 1
        let time = clock?.now()
        do throws(I2CError) {
            guard address <= 0x7F else { throw I2CError(.other) }
            guard !(write.isEmpty && read.isEmpty) else { throw I2CError(.other) }
            guard isAdapterPresent else { throw I2CError(.adapterGone) }
            if let kind = takeFault(at: address) { throw I2CError(kind) }
            guard let slot = slots[address], slot.present else { throw I2CError(.noAcknowledge(.address)) }
            if !write.isEmpty { try slot.device.write(write) }
            if !read.isEmpty { try slot.device.read(into: read) }
        } catch {
            failedTransactionCount += 1
            var reported = error
            if !reportsNoAcknowledgeSource, case .noAcknowledge = error.kind { reported = I2CError(.noAcknowledge(.unknown)) }
            if isLogging { logFailure(address: address, write: write, readCount: read.count, error: reported, time: time) }
            throw reported
        }
        guard isLogging else { return }
        if !write.isEmpty { log.appendWrite(address: address, write, time: time) }
        if !read.isEmpty { log.appendRead(address: address, UnsafeRawBufferPointer(read), time: time) }
    }

    private func takeFault(at address: UInt8) -> I2CError.Kind? {
        if let fault = addressFaults[address] {
            addressFaults[address] = countDown(fault)
            return fault.kind
        }
        if let fault = busFault {
            busFault = countDown(fault)
            return fault.kind
        }
        return nil
    }

    private func countDown(_ fault: I2CFault) -> I2CFault? {
        guard let remaining = fault.remaining else { return fault }
        return remaining > 1 ? I2CFault(fault.kind, count: remaining - 1) : nil
    }

    private func comment(_ address: UInt8, _ text: String) {
        guard isLogging else { return }
        var line = ""
        I2CTransactionLog.appendHex(address, to: &line)
        log.appendComment(line + ": " + text)
    }

    /// `# [t=…] AA: BB … [read N] failed: <error>`.
    private func logFailure(
        address: UInt8, write: UnsafeRawBufferPointer, readCount: Int, error: I2CError, time: Instant?
    ) {
        var line = ""
        if let time { I2CTransactionLog.appendTime(time, to: &line) }
        I2CTransactionLog.appendHex(address, to: &line)
        line.append(":")
        for byte in write {
            line.append(" ")
            I2CTransactionLog.appendHex(byte, to: &line)
        }
        if readCount > 0 { line.append(" read \(readCount)") }
        line.append(" failed: \(error)")
        log.appendComment(line)
    }
}
