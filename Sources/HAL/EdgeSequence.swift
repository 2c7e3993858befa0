/// The kernel's numbers for one edge (uAPI v2, `struct gpio_v2_line_event` in <linux/gpio.h>).
///
/// The kernel numbers an edge when it detects it: `line` counts the edges of that line, `request`
/// the edges of every line of the request, both from 1 when the lines are requested
/// (drivers/gpio/gpiolib-cdev.c: `line_seqno++` in edge_irq_thread and debounce_work_func,
/// `atomic_inc_return(&lr->seqno)`; a one-line request reuses the line's number). When the
/// request's event buffer is full it drops the *oldest* record to make room (linereq_put_event),
/// so the numbers read jump: "Overflow can be detected from userspace by monitoring the event
/// sequence numbers" (Documentation/userspace-api/gpio/gpio-v2-line-event-read.rst).
///
/// Losses are counted from `line`: the kernel numbers a line's edges in one thread (or one
/// debounce worker) and queues them in that order, so a line's numbers never arrive out of
/// order, and a gap is exactly the edges of that line it dropped. The request's number is
/// taken in the interrupt handler and queued later by each line's own thread, so two lines
/// moving at once may queue theirs swapped.
public struct EdgeSequence: Equatable, Sendable {
    /// `seqno`: the edge's number among all edges of its request.
    public var request: UInt32
    /// `line_seqno`: the edge's number among the edges of its line.
    public var line: UInt32

    public init(request: UInt32, line: UInt32) {
        self.request = request
        self.line = line
    }

    /// How many numbers were skipped between `previous` and `next`: the edges dropped in
    /// between. Numbers are 32-bit and wrap (the kernel's are `u32`), so the distance is taken
    /// modulo 2³². A number that does not move forward (the same one again, or one from a new
    /// request that numbers from 1 again) skips nothing.
    public static func skipped(from previous: UInt32, to next: UInt32) -> UInt32 {
        let step = next &- previous
        return step == 0 || step > UInt32.max / 2 ? 0 : step - 1
    }
}
