import Glibc
import HAL
import SystemPackage

/// The loop's one blocking call: `poll(2)` over a fixed set of descriptors (the GPS tty, the
/// GPIO line-event fds, the timerfd, the eventfd, the signalfd).
///
/// The `pollfd` array is allocated once at `init`; `wait` allocates nothing.
public final class Poller<Calls: SystemCalls> {
    public typealias Slot = Int

    private let calls: Calls
    private let descriptors: UnsafeMutableBufferPointer<pollfd>
    public private(set) var count = 0

    public init(capacity: Int = 16, calls: Calls) {
        self.calls = calls
        descriptors = .allocate(capacity: capacity)
        descriptors.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0))
    }

    deinit { descriptors.deallocate() }

    public var capacity: Int { descriptors.count }

    /// Watches `fd` for readability (POLLIN; hang-ups and errors are always reported).
    /// Returns the slot to read `revents(_:)` from.
    public func add(_ fd: CInt, events: CShort = CShort(POLLIN)) -> Slot {
        precondition(count < descriptors.count, "Poller capacity \(descriptors.count) exceeded")
        descriptors[count] = pollfd(fd: fd, events: events, revents: 0)
        count += 1
        return count - 1
    }

    /// Forgets every descriptor (a loop starting over with other parts).
    public func removeAll() {
        for i in 0..<count { descriptors[i] = pollfd(fd: -1, events: 0, revents: 0) }
        count = 0
    }

    /// Replaces the descriptor in `slot` (after a device was reopened); -1 ignores the slot.
    /// `events`, when given, replaces what the slot waits for (0: only the hang-ups and errors
    /// poll(2) always reports).
    public func replace(_ slot: Slot, with fd: CInt, events: CShort? = nil) {
        descriptors[slot].fd = fd
        if let events { descriptors[slot].events = events }
        descriptors[slot].revents = 0
    }

    /// What happened to the descriptor in `slot` during the last `wait`.
    public func revents(_ slot: Slot) -> CShort { descriptors[slot].revents }

    public func isReadable(_ slot: Slot) -> Bool { revents(slot) & CShort(POLLIN) != 0 }

    /// Waits until a descriptor is ready or `timeout` passes (`nil`: until a descriptor is
    /// ready; the timerfd is how deadlines are usually met). Returns how many are ready.
    ///
    /// A signal interrupting the wait returns 0 rather than waiting again with a stale timeout:
    /// the loop recomputes its deadlines from the clock on every turn anyway.
    public func wait(timeout: Duration?) throws(Errno) -> Int {
        let milliseconds: CInt
        if let timeout {
            // Round up, so a deadline 0.4 ms away does not turn into a busy loop of 0 ms polls.
            let ms = (max(timeout.nanoseconds, 0) + 999_999) / 1_000_000
            milliseconds = CInt(clamping: ms)
        } else {
            milliseconds = -1
        }
        switch systemCall(retryOnInterrupt: false, { calls.poll(descriptors.baseAddress, nfds_t(count), milliseconds) }) {
        case .success(let ready): return Int(ready)
        case .failure(.interrupted): return 0
        case .failure(let e): throw e
        }
    }
}

extension Poller where Calls == LiveSystemCalls {
    public convenience init(capacity: Int = 16) { self.init(capacity: capacity, calls: LiveSystemCalls()) }
}
