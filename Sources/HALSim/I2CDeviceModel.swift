import HAL

/// A simulated I²C target that `SimulatedI2CBus` routes transactions to.
///
/// The bus has already acknowledged the address when it calls the model; the model then sees
/// the write phase (if any) and the read phase (if any) of one transaction, in that order, as
/// the controller on the wire would. Models implement the data sheet of a part, not what a
/// driver happens to send (docs/design/architecture.md#layers).
///
/// A class protocol, because the bus and the test share one model: the test inspects and
/// drives it (the PCF8574's input pins, a sensor's measurement registers) while a driver uses
/// the bus.
public protocol I2CDeviceModel: AnyObject {
    /// The write phase: the bytes after the address, in order (never empty). Throw
    /// `.noAcknowledge(.data)` to refuse a byte; the bytes before it count as received, so a
    /// model applies them before throwing.
    func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError)

    /// The read phase: fill all of `buffer` (never empty). The controller acknowledges every
    /// byte but the last, so a target cannot refuse here; throwing (e.g. `.timeout` for a
    /// clock held low too long) aborts the transaction.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError)

    /// Back to the power-on state, as after the supply came back (a reattached device, a
    /// `!reset` in a log).
    func powerOnReset()
}

/// A fault the simulated bus injects instead of performing a transaction.
public struct I2CFault: Sendable, Equatable {
    /// What the transaction fails with: `.noAcknowledge(.address)` (nothing answers),
    /// `.noAcknowledge(.data)`, `.bus` (EIO: a stuck line, a misplaced STOP), `.timeout`,
    /// `.arbitrationLoss`, `.other`.
    public var kind: I2CError.Kind
    /// How many more transactions it fails; `nil` until cleared.
    public var remaining: Int?

    public init(_ kind: I2CError.Kind, count: Int? = nil) {
        self.kind = kind
        remaining = count
    }
}
