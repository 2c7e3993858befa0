import Glibc
import HAL
import SystemPackage

extension I2CError {
    /// Maps an errno from an i2c-dev transfer to its kind, as the kernel's
    /// Documentation/i2c/fault-codes.rst defines them (and as linux-embedded-hal maps them).
    ///
    /// EREMOTEIO is not in that table but is what the Raspberry Pi's i2c-bcm2835 returns for any
    /// NACK, address or data, so it is a no-acknowledge of unknown source.
    public init(transferErrno errno: Errno) {
        switch errno {
        case .noSuchAddressOrDevice: self.init(.noAcknowledge(.address), errno: errno)  // ENXIO
        case Errno(rawValue: EREMOTEIO): self.init(.noAcknowledge(.unknown), errno: errno)      // EREMOTEIO
        case .resourceTemporarilyUnavailable: self.init(.arbitrationLoss, errno: errno)   // EAGAIN
        case .timedOut: self.init(.timeout, errno: errno)                                 // ETIMEDOUT
        case .ioError, .resourceBusy, .operationNotSupportedByDevice, Errno(rawValue: ESHUTDOWN):                // EIO EBUSY ENODEV ESHUTDOWN
            self.init(.bus, errno: errno)
        default: self.init(.other, errno: errno)                  // EPROTO EBADMSG EINVAL EOPNOTSUPP …
        }
    }
}
