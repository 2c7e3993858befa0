import Glibc
import HAL
import Weather

/// The network edge on a real network (docs/design/architecture.md#the-loop): one worker thread runs each fetch
/// (name lookup, TLS, the body, the decoding) and hands the delivery back through one mutex;
/// `wake` then tells the loop (on Linux, an eventfd in its poll set). The loop never waits on
/// the network; the headless simulation does, through `waitForDelivery()`, because virtual
/// time must not run on while a real answer is out.
///
/// The worker starts with the first order and is detached: `stop()` lets it end after the
/// fetch in flight without the loop waiting for it, and its stack goes back to the C library
/// when it ends (a joinable thread that nobody joins keeps its stack mapped for the life of
/// the process, pthread_join(3): one leaked stack per reload). A worker that cannot
/// be started answers the order at once with the reason, and the next order tries again.
public final class ThreadedWeatherLink: WeatherLink, @unchecked Sendable {
    /// Runs one fetch to the end; called on the worker thread only.
    public typealias Fetch = @Sendable (FetchOrder) -> WeatherFetch.Result
    /// Runs `body` on a new thread that nobody joins; 0, or the error number of
    /// `pthread_create(3)`. A seam, so that a test can refuse the thread.
    public typealias Spawn = (_ body: @escaping @Sendable () -> Void) -> Int32

    private struct Mailbox {
        var order: (order: FetchOrder, token: UInt64)?
        var delivery: WeatherDelivery?
        var busy = false
        var stopping = false
        var started = false
        /// The answer to the fetch in flight belongs to a device that handed the link over.
        var dropInFlight = false
        /// Times the worker woke with neither an order nor a stop to act on.
        var idleWakeups = 0
    }

    /// Guarded by `lock`. Each condition has one waiter, woken only for what it waits for:
    /// `orderPosted` the worker (an order, a stop), `deliveryPosted` `waitForDelivery()`. The
    /// loop's every turn (`receive()`, `isFetchingForReal`) wakes nobody.
    private var mailbox = Mailbox()
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let orderPosted = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let deliveryPosted = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let fetch: Fetch
    private let wake: @Sendable () -> Void
    private let spawn: Spawn

    public init(fetch: @escaping Fetch, wake: @escaping @Sendable () -> Void, spawn: @escaping Spawn = ThreadedWeatherLink.detachedThread) {
        self.fetch = fetch
        self.wake = wake
        self.spawn = spawn
        pthread_mutex_init(lock, nil)
        pthread_cond_init(orderPosted, nil)
        pthread_cond_init(deliveryPosted, nil)
    }

    deinit {
        pthread_cond_destroy(deliveryPosted)
        pthread_cond_destroy(orderPosted)
        pthread_mutex_destroy(lock)
        deliveryPosted.deallocate()
        orderPosted.deallocate()
        lock.deallocate()
    }

    /// Stops the worker after the fetch in flight, if any; does not wait for it.
    public func stop() {
        locked {
            $0.stopping = true
            pthread_cond_signal(orderPosted)
        }
    }

    public func send(_ order: FetchOrder, token: UInt64) {
        let start = locked { box -> Bool? in
            guard !box.stopping else { return nil }
            return !box.started
        }
        guard let start else { return }
        if start {
            // The worker holds the link until it ends.
            let error = spawn { [self] in work() }
            guard error == 0 else {
                deliver(WeatherDelivery(token: token, order: order, result: Self.cannotStart(error, at: order.time?.anchor ?? .zero)))
                wake()
                return
            }
            locked { $0.started = true }
        }
        locked {
            $0.order = (order, token)
            $0.busy = true
            pthread_cond_signal(orderPosted)
        }
    }

    /// The link passes to another device (a reload that kept the weather settings): the worker,
    /// its connection and its queue stay, so a fetch never runs beside another; an answer not
    /// yet received, or still on its way, was for the old device's order and is dropped.
    public func handOver() {
        locked { box in
            box.delivery = nil
            box.dropInFlight = box.busy
        }
    }

    public func receive() -> WeatherDelivery? {
        locked { box in
            defer { box.delivery = nil }
            return box.delivery
        }
    }

    public var nextDelivery: Instant? { nil }

    public var isFetchingForReal: Bool { locked { $0.busy } }

    public func waitForDelivery() {
        pthread_mutex_lock(lock)
        while mailbox.busy && mailbox.delivery == nil { pthread_cond_wait(deliveryPosted, lock) }
        pthread_mutex_unlock(lock)
    }

    /// How often the worker woke for nothing (for the tests: the loop must not wake it).
    var idleWakeups: Int { locked { $0.idleWakeups } }

    private func locked<T>(_ body: (inout Mailbox) -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body(&mailbox)
    }

    private func deliver(_ delivery: WeatherDelivery) {
        locked {
            if $0.dropInFlight {
                $0.dropInFlight = false
                $0.busy = $0.order != nil
                return
            }
            $0.delivery = delivery
            $0.busy = false
            pthread_cond_signal(deliveryPosted)
        }
    }

    private func work() {
        while true {
            pthread_mutex_lock(lock)
            while mailbox.order == nil && !mailbox.stopping {
                pthread_cond_wait(orderPosted, lock)
                if mailbox.order == nil && !mailbox.stopping { mailbox.idleWakeups += 1 }
            }
            let next = mailbox.order
            let stopping = mailbox.stopping
            mailbox.order = nil
            pthread_mutex_unlock(lock)
            guard !stopping, let next else { return }
            deliver(WeatherDelivery(token: next.token, order: next.order, result: fetch(next.order)))
            wake()
        }
    }

    /// The answer to an order when the worker cannot start: a transport failure, so the
    /// repository logs it as one line and backs off like any other, and the next order tries
    /// again. EAGAIN is pthread_create(3)'s "insufficient resources or a thread limit".
    /// `at`: the order's instant (the answer is at once).
    static func cannotStart(_ error: Int32, at instant: Instant) -> WeatherFetch.Result {
        let hint = error == EAGAIN ? " (too many threads, or too little memory)" : ""
        let detail = "cannot start the weather thread: pthread_create: \(String(cString: strerror(error)))\(hint)"
        return WeatherFetch.Result(outcome: .failure(.transport(TransportError(.other, detail))), response: nil, receivedAt: instant)
    }

    /// `pthread_create(3)` with `PTHREAD_CREATE_DETACHED`: the thread's resources, its stack
    /// first, are released when it ends (pthread_attr_setdetachstate(3)).
    public static func detachedThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
        var attributes = pthread_attr_t()
        var result = pthread_attr_init(&attributes)
        guard result == 0 else { return result }
        defer { pthread_attr_destroy(&attributes) }
        result = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        guard result == 0 else { return result }
        let box = Unmanaged.passRetained(ThreadBody(body))
        var thread = pthread_t()
        result = pthread_create(&thread, &attributes, { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        if result != 0 { box.release() }
        return result
    }
}

/// A thread's closure, passed through `pthread_create`'s one pointer.
private final class ThreadBody: @unchecked Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
