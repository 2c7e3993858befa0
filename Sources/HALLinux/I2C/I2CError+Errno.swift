import Glibc
import HAL
import SystemPackage

extension I2CError {
    /// Maps an errno from an i2c-dev transfer to its kind, as the kernel's
    /// Documentation/i2c/fault-codes.rst defines them (and as linux-embedded-hal maps them).
    ///
    /// EREMOTEIO is not in that table but is what the Raspberry Pi's i2c-bcm2835 returns for any
    /// NACK, address or data, so it is a no-acknowledge of unknown source.
    ///
    /// The adapter itself gone is its own kind, because the answer to it is not a retry on the
    /// same descriptor but closing it and opening the path again:
    /// - EOPNOTSUPP: drivers/i2c/i2c-dev.c (`i2cdev_write`, `i2cdev_read`, `i2cdev_ioctl_rdwr`)
    ///   refuses a transfer when `i2c_check_functionality(adapter, I2C_FUNC_I2C)` is false, and
    ///   asks the adapter's driver afresh each time. i2c-tiny-usb's `usb_func` asks the USB device
    ///   and answers 0 when that fails ("failure reading functionality"), so every transfer on a
    ///   descriptor still open on an unplugged adapter fails so (measured on kernel 7.3). An
    ///   adapter that really cannot do plain I²C (SMBus-only: i2c-stub, i801) answers the same;
    ///   `LinuxI2CBus` tells the two apart by asking `I2C_FUNCS`.
    /// - ENODEV: what USB core returns for a disconnected device, passed through by USB adapter
    ///   drivers; also `i2cdev_open`'s answer for a node whose adapter is being deleted.
    /// - ESHUTDOWN: USB core's answer once the host controller is gone, and
    ///   `__i2c_check_suspended` (i2c-core-base.c) for an adapter marked suspended.
    public init(transferErrno errno: Errno) {
        switch errno {
        case .noSuchAddressOrDevice: self.init(.noAcknowledge(.address), errno: errno)  // ENXIO
        case Errno(rawValue: EREMOTEIO): self.init(.noAcknowledge(.unknown), errno: errno)      // EREMOTEIO
        case .resourceTemporarilyUnavailable: self.init(.arbitrationLoss, errno: errno)   // EAGAIN
        case .timedOut: self.init(.timeout, errno: errno)                                 // ETIMEDOUT
        case .ioError, .resourceBusy: self.init(.bus, errno: errno)                       // EIO EBUSY
        case Errno(rawValue: EOPNOTSUPP), .operationNotSupportedByDevice, Errno(rawValue: ESHUTDOWN):  // … ENODEV …
            self.init(.adapterGone, errno: errno)
        default: self.init(.other, errno: errno)                  // EPROTO EBADMSG EINVAL …
        }
    }

    /// Maps an errno from opening `/dev/i2c-N`: no node (ENOENT: I²C not enabled, or the adapter
    /// not there yet), a node with no adapter behind it (ENODEV from `i2cdev_open` while the
    /// adapter is deleted; ENXIO from `chrdev_open` when no driver has the minor) is the adapter
    /// not being there; anything else (EACCES, EPERM) is a configuration problem.
    public init(openErrno errno: Errno) {
        switch errno {
        case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice:
            self.init(.adapterGone, errno: errno)
        default:
            self.init(.other, errno: errno)
        }
    }
}
