import HAL

/// When the loop reads the receiver's tty: as bytes arrive, one wake-up per burst rather than per
/// byte, and never later than the kernel's buffer allows at the line's rate.
///
/// The loop polls the tty for POLLIN while it is quiet, so the first byte of a burst wakes it
/// and nothing does while the line is silent. A read that found bytes starts a hold: POLLIN is
/// off for `holdOff`, the rest of the burst gathers in the kernel, and the hold's end (a
/// deadline on the injected clock) reads it all in one wake-up. A read that found nothing ends
/// the hold. A receiver sending a 1 Hz epoch at 9600 Bd (a burst of ~0.5 s) therefore costs one
/// wake-up a second, where POLLIN alone would wake the loop every few bytes the UART's FIFO
/// hands over (docs/design/measurements.md#targets: ≤ 2 wake-ups a second).
///
/// Why not VMIN/VTIME: in non-canonical mode n_tty's poll reports POLLIN only once VMIN bytes
/// are queued when VTIME is 0 (`input_available_p`, drivers/tty/n_tty.c), so a burst's last
/// bytes below VMIN would wait for the next burst; with VTIME set it reports POLLIN from one
/// byte and coalesces nothing. The port keeps VMIN 1, VTIME 0 (an empty tty answers EAGAIN).
///
/// The bound: N_TTY's read buffer is 4,096 bytes (`N_TTY_BUF_SIZE`). At 10 bits a byte (start,
/// 8 data, stop) it fills in `fillTime` = 4,096 × 10 / baud: 4.3 s at 9600 Bd, 0.36 s at
/// 115,200 Bd. The hold is half of that, and never more than 1 s (a fix is read within a second
/// of its epoch, as the screen refreshes): 1 s up to 19,200 Bd, 0.53 s at 38,400, 0.36 s at
/// 57,600, 0.18 s at 115,200. The other half is the margin for a loop turn that runs late (a
/// frame on the bus, a commit). `budget` bounds the bytes one wake-up reads (one kernel
/// buffer's worth, ~0.1 ms of framing): a flood, such as a pseudo-terminal fed faster than
/// any UART, cannot starve the buttons or the display; the loop comes back at once to read on.
public struct ReadPacing: Sendable, Equatable {
    /// N_TTY's read buffer (drivers/tty/n_tty.c, `N_TTY_BUF_SIZE`).
    public static let kernelBuffer = 4096
    /// The longest hold, whatever the rate.
    public static let longestHold = Duration.seconds(1)

    public var baudRate: BaudRate

    public init(baudRate: BaudRate) { self.baudRate = baudRate }

    /// How long the line takes to fill the kernel's buffer, sending without a pause.
    public var fillTime: Duration {
        .nanoseconds(Int64(Self.kernelBuffer) * 10 * 1_000_000_000 / Int64(baudRate.rawValue))
    }

    /// How long POLLIN stays off after a read that found bytes.
    public var holdOff: Duration { min(Self.longestHold, .nanoseconds(fillTime.nanoseconds / 2)) }

    /// Bytes one wake-up reads at most.
    public var budget: Int { Self.kernelBuffer }
}
