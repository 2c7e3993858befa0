import Glibc
import HAL
import Weather

/// The network edge on a real network (ARCHITECTURE §4): one worker thread runs each fetch
/// (name lookup, TLS, the body, the decoding) and hands the delivery back through one mutex;
/// `wake` then tells the loop (on Linux, an eventfd in its poll set). The loop never waits on
/// the network; the headless simulation does, through `waitForDelivery()`, because virtual
/// time must not run on while a real answer is out.
public final class ThreadedWeatherLink: WeatherLink, @unchecked Sendable {
    /// Runs one fetch to the end; called on the worker thread only.
    public typealias Fetch = @Sendable (FetchOrder) -> WeatherFetch.Result

    private struct Mailbox {
        var order: (order: FetchOrder, token: UInt64)?
        var delivery: WeatherDelivery?
        var busy = false
        var stopping = false
    }

    /// Guarded by `lock`; `signal` wakes the worker (an order) and the waiter (a delivery).
    private var mailbox = Mailbox()
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let signal = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let fetch: Fetch
    private let wake: @Sendable () -> Void
    private var thread = pthread_t()

    public init(fetch: @escaping Fetch, wake: @escaping @Sendable () -> Void) {
        self.fetch = fetch
        self.wake = wake
        pthread_mutex_init(lock, nil)
        pthread_cond_init(signal, nil)
        let box = Unmanaged.passRetained(self)
        pthread_create(&thread, nil, { raw in
            let link = Unmanaged<ThreadedWeatherLink>.fromOpaque(raw!).takeRetainedValue()
            link.work()
            return nil
        }, box.toOpaque())
    }

    deinit {
        pthread_cond_destroy(signal)
        pthread_mutex_destroy(lock)
        signal.deallocate()
        lock.deallocate()
    }

    /// Stops the worker after the fetch in flight, if any.
    public func stop() {
        locked { $0.stopping = true }
    }

    public func send(_ order: FetchOrder, token: UInt64) {
        locked {
            $0.order = (order, token)
            $0.busy = true
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
        while mailbox.busy && mailbox.delivery == nil { pthread_cond_wait(signal, lock) }
        pthread_mutex_unlock(lock)
    }

    /// Changes the mailbox under the lock and wakes whoever waits on it.
    private func locked<T>(_ body: (inout Mailbox) -> T) -> T {
        pthread_mutex_lock(lock)
        defer {
            pthread_cond_broadcast(signal)
            pthread_mutex_unlock(lock)
        }
        return body(&mailbox)
    }

    private func work() {
        while true {
            pthread_mutex_lock(lock)
            while mailbox.order == nil && !mailbox.stopping { pthread_cond_wait(signal, lock) }
            let next = mailbox.order
            let stopping = mailbox.stopping
            mailbox.order = nil
            pthread_mutex_unlock(lock)
            guard !stopping, let next else { return }
            let result = fetch(next.order)
            locked {
                $0.delivery = WeatherDelivery(token: next.token, order: next.order, result: result)
                $0.busy = false
            }
            wake()
        }
    }
}
