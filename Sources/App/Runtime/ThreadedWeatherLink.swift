import Glibc
import HAL
import Synchronization
import Weather

/// The network edge on a real network (ARCHITECTURE §4): one worker thread runs each fetch
/// (name lookup, TLS, the body, the decoding) and hands the delivery back through a mutex;
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

    private let mailbox = Mutex(Mailbox())
    /// Wakes the worker (an order) and the waiter (a delivery); guarded by `lock`.
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

    /// Stops the worker after the fetch in flight, if any.
    public func stop() {
        pthread_mutex_lock(lock)
        mailbox.withLock { $0.stopping = true }
        pthread_cond_broadcast(signal)
        pthread_mutex_unlock(lock)
    }

    public func send(_ order: FetchOrder, token: UInt64) {
        pthread_mutex_lock(lock)
        mailbox.withLock {
            $0.order = (order, token)
            $0.busy = true
        }
        pthread_cond_broadcast(signal)
        pthread_mutex_unlock(lock)
    }

    public func receive() -> WeatherDelivery? {
        mailbox.withLock { box in
            defer { box.delivery = nil }
            return box.delivery
        }
    }

    public var nextDelivery: Instant? { nil }

    public var isFetchingForReal: Bool { mailbox.withLock { $0.busy } }

    public func waitForDelivery() {
        pthread_mutex_lock(lock)
        while mailbox.withLock({ $0.busy && $0.delivery == nil }) { pthread_cond_wait(signal, lock) }
        pthread_mutex_unlock(lock)
    }

    private func work() {
        while true {
            pthread_mutex_lock(lock)
            var next: (order: FetchOrder, token: UInt64)?
            while true {
                let (taken, stopping) = mailbox.withLock { box in
                    defer { box.order = nil }
                    return (box.order, box.stopping)
                }
                if stopping {
                    pthread_mutex_unlock(lock)
                    return
                }
                if let taken {
                    next = taken
                    break
                }
                pthread_cond_wait(signal, lock)
            }
            pthread_mutex_unlock(lock)
            guard let next else { continue }
            let result = fetch(next.order)
            pthread_mutex_lock(lock)
            mailbox.withLock {
                $0.delivery = WeatherDelivery(token: next.token, order: next.order, result: result)
                $0.busy = false
            }
            pthread_cond_broadcast(signal)
            pthread_mutex_unlock(lock)
            wake()
        }
    }
}
