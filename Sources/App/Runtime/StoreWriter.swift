import Glibc
import HAL
import Store
import SystemPackage
import Weather

/// The card as the loop sees it (docs/design/architecture.md#the-loop: the card off the loop). Every write under the
/// state directory (a store commit, a store retry, the weather cache, the barograph's history) is a job handed over
/// here; the loop never waits for one. What the store holds afterwards comes back as a
/// snapshot the loop picks up with `receive`, so a setting is shown once it is durable (or
/// kept in memory by a degraded store), and meanwhile the loop keeps reading buttons, the GPS
/// and drawing frames. SD cards hang more often than they fail: an `fdatasync` that takes
/// 10 s must cost the device 10 s of "saving…", not 10 s of a frozen panel and, after the
/// watchdog's 30 s, a restart that loses what was in memory.
///
/// Two ways to run the same jobs, the same code: `inline` does each job inside `submit`
/// (simulation and tests: deterministic, virtual time); `threaded` does them on one writer
/// thread that wakes the loop when a batch is done (the daemon). The store is touched only
/// by whoever runs the jobs: after `threaded` starts, only by the writer thread.
public final class StoreWriter<Files: FileSystem, Clock: DeviceClock>: @unchecked Sendable {
    public enum Job {
        case commit(StoreChange)
        /// A degraded store's retry, if its backoff has run out.
        case retry
        /// A degraded store's retry now, whatever the backoff (the last one before exit).
        case retryNow
        case saveCache(WeatherCache)
        /// The barograph's history, encoded on the loop (`BarographFile.encode`).
        case saveHistory([UInt8])
    }

    /// What a job has to say besides the store's new content.
    public enum Answer {
        case refused(StoreChange, StoreError)
        case cacheNotSaved(WeatherCache.CacheError)
        case historyNotSaved(BarographFile.FileError)
        /// The files opened after the device started on memory; `kept` changes were committed.
        case reopened(kept: Int)
        /// Opening again cannot help any more (the files became unreadable): memory it stays.
        case reopenAbandoned(StoreOpenError)
    }

    /// The store after the last finished job.
    struct Snapshot {
        var state: StoreState
        var health: StoreHealth
        var sequence: UInt64
        var nextRetry: Instant?
    }

    /// Shared between the loop and the writer thread, under `lock`.
    private struct Mailbox {
        var jobs: [Job] = []
        var answers: [Answer] = []
        var snapshot: Snapshot
        /// Jobs finished since the loop last looked.
        var finished = 0
        var stopping = false
    }

    // The loop's side: what it last received.
    public private(set) var state: StoreState
    public private(set) var health: StoreHealth
    /// The number of the last durable commit.
    public private(set) var sequence: UInt64
    /// When a degraded store wants to retry; nil while a job is out (its answer brings the next).
    public var nextRetry: Instant? { waiting == 0 ? retryAt : nil }
    /// Jobs handed over and not yet finished.
    public private(set) var waiting = 0
    /// When the oldest unfinished job was handed over (or the one before it finished).
    public private(set) var waitingSince: Instant?
    private var retryAt: Instant?
    private var received: [Answer] = []

    // The writer's side.
    private var backing: DeviceStore<Files, Clock>
    /// While the device runs on memory because the files did not open at start.
    private var reopen: StoreOpening<Files, Clock>.Reopen?
    private var files: Files
    private let directory: FilePath
    private var batch: [Job] = []
    private var batchAnswers: [Answer] = []

    private var mailbox: Mailbox
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let signal = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Tells the loop a batch is done (the daemon's eventfd); nil when inline.
    private let wake: (@Sendable () -> Void)?
    private var thread: pthread_t?
    private static var room: Int { 16 }

    /// Jobs run inside `submit`, on the caller's thread.
    public convenience init(
        inline store: DeviceStore<Files, Clock>, directory: FilePath, files: Files,
        reopen: StoreOpening<Files, Clock>.Reopen? = nil
    ) {
        self.init(store, directory: directory, files: files, reopen: reopen, wake: nil)
    }

    /// Jobs run on a writer thread; `wake` is called from it after every batch.
    public static func threaded(
        _ store: DeviceStore<Files, Clock>, directory: FilePath, files: Files,
        reopen: StoreOpening<Files, Clock>.Reopen? = nil, wake: @escaping @Sendable () -> Void
    ) -> StoreWriter {
        let writer = StoreWriter(store, directory: directory, files: files, reopen: reopen, wake: wake)
        writer.startThread()
        return writer
    }

    private init(
        _ store: DeviceStore<Files, Clock>, directory: FilePath, files: Files,
        reopen: StoreOpening<Files, Clock>.Reopen?, wake: (@Sendable () -> Void)?
    ) {
        backing = store
        self.reopen = reopen
        self.files = files
        self.directory = directory
        self.wake = wake
        let snapshot = Self.snapshot(of: store, reopen: reopen)
        mailbox = Mailbox(snapshot: snapshot)
        state = snapshot.state
        health = snapshot.health
        sequence = snapshot.sequence
        retryAt = snapshot.nextRetry
        // Room for a burst of presses and retries without growing, on either side (the
        // arrays are swapped, never copied, so each keeps its buffer).
        mailbox.jobs.reserveCapacity(Self.room)
        mailbox.answers.reserveCapacity(Self.room)
        batch.reserveCapacity(Self.room)
        batchAnswers.reserveCapacity(Self.room)
        received.reserveCapacity(Self.room)
        pthread_mutex_init(lock, nil)
        // Timed waits on the monotonic clock: a CLOCK_REALTIME deadline moves with a step of
        // the wall clock, and NTP stepping it back by days during shutdown would stretch a
        // 50 ms wait by as much (pthread_condattr_setclock(3)).
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(signal, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(signal)
        pthread_mutex_destroy(lock)
        signal.deallocate()
        lock.deallocate()
    }

    /// Whether jobs run on a thread of their own.
    public var isThreaded: Bool { thread != nil }

    /// The in-memory store the device started on, with the reason; nil for the file store.
    /// Read it before the first job: afterwards the writer may have opened the files.
    public var fallbackReason: (reason: String, reopening: Bool)? {
        if case .memory(_, let reason) = backing { return (reason, reopen != nil) }
        return nil
    }

    // MARK: The loop's side

    /// Hands `job` over; never waits for the card. Inline, the job is done before this returns
    /// and its answer waits for `receive`.
    public func submit(_ job: Job, now: Instant) {
        if waiting == 0 { waitingSince = now }
        waiting += 1
        if thread == nil {
            run(job)
            finishBatch(count: 1)
            return
        }
        pthread_mutex_lock(lock)
        mailbox.jobs.append(job)
        pthread_cond_broadcast(signal)
        pthread_mutex_unlock(lock)
    }

    /// Asks a degraded store to retry once its backoff has run out (on the store's clock).
    public func retryIfDue(now: Instant) {
        guard let due = nextRetry, now >= due else { return }
        submit(.retry, now: now)
    }

    /// Takes what the writer finished since the last call: the store's new content (now in
    /// `state`, `health`, `sequence`) and each answer, oldest first. Returns whether any job
    /// finished.
    @discardableResult
    public func receive(now: Instant, _ answer: (Answer) -> Void) -> Bool {
        pthread_mutex_lock(lock)
        let finished = mailbox.finished
        mailbox.finished = 0
        let snapshot = mailbox.snapshot
        swap(&received, &mailbox.answers)
        pthread_mutex_unlock(lock)
        guard finished > 0 else { return false }
        waiting -= finished
        waitingSince = waiting == 0 ? nil : now
        state = snapshot.state
        health = snapshot.health
        sequence = snapshot.sequence
        retryAt = snapshot.nextRetry
        for index in 0..<received.count { answer(received[index]) }
        received.removeAll(keepingCapacity: true)
        return true
    }

    /// Waits up to `limit` (on the loop's clock) for every job handed over, then one last retry
    /// of what a degraded store keeps in memory. Returns false if the card did not answer in
    /// time: the jobs still out are lost with the process. Only for shutdown.
    public func finish(within limit: Duration, clock: some DeviceClock) -> Bool {
        submit(.retryNow, now: clock.now())
        let deadline = clock.now() + limit
        guard thread != nil else { return true }
        pthread_mutex_lock(lock)
        var done = false
        while true {
            done = mailbox.jobs.isEmpty && mailbox.finished == waiting
            if done || clock.now() >= deadline { break }
            var until = timespec()
            clock_gettime(CLOCK_MONOTONIC, &until)
            until.tv_nsec += 50_000_000  // look again in 50 ms: the loop's clock decides the end
            if until.tv_nsec >= 1_000_000_000 {
                until.tv_sec += 1
                until.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(signal, lock, &until)
        }
        mailbox.stopping = true
        pthread_cond_broadcast(signal)
        pthread_mutex_unlock(lock)
        return done
    }

    // MARK: The writer's side

    private func startThread() {
        // The writer holds itself for the thread's life; a C entry point cannot name a generic
        // class, so a non-generic box carries the call.
        if let started = DetachedThread.start({ self.work() }) {
            thread = started
        }
        // No thread (out of memory or a process limit): the jobs run on the loop, as they did
        // before the writer existed; slower under a hanging card, never lost.
    }

    private func work() {
        while true {
            pthread_mutex_lock(lock)
            while mailbox.jobs.isEmpty && !mailbox.stopping { pthread_cond_wait(signal, lock) }
            if mailbox.jobs.isEmpty {
                pthread_mutex_unlock(lock)
                return
            }
            swap(&batch, &mailbox.jobs)
            pthread_mutex_unlock(lock)
            for index in 0..<batch.count { run(batch[index]) }
            let count = batch.count
            batch.removeAll(keepingCapacity: true)
            finishBatch(count: count)
            wake?()
        }
    }

    /// Does one job against the store or the disk; what it has to say goes to `batchAnswers`.
    private func run(_ job: Job) {
        switch job {
        case .commit(let change):
            do throws(StoreError) {
                let outcome = try backing.store.commit(change)
                if reopen != nil, outcome != .unchanged { reopen!.unsaved.append(change) }
            } catch {
                batchAnswers.append(.refused(change, error))
            }
        case .retry:
            if let due = reopen?.nextAttempt {
                if reopen!.opening.clock.now() >= due { openAgain() }
            } else if case .file(let store) = backing {
                store.retryIfDue()
            }
        case .retryNow:
            if reopen != nil {
                openAgain()
            } else if case .file(let store) = backing {
                store.retry()
            }
        case .saveCache(let cache):
            if case .failure(let error) = cache.save(in: directory, files: &files) {
                batchAnswers.append(.cacheNotSaved(error))
            }
        case .saveHistory(let bytes):
            if case .failure(let error) = BarographFile.save(bytes, in: directory, files: &files) {
                batchAnswers.append(.historyNotSaved(error))
            }
        }
    }

    /// Opens the files the device could not open at start; on success commits the changes
    /// kept in memory meanwhile, in order, and writes to the files from then on.
    private func openAgain() {
        guard var pending = reopen else { return }
        switch pending.opening.open() {
        case .success(let file):
            for change in pending.unsaved {
                do throws(StoreError) {
                    _ = try file.commit(change)
                } catch {
                    batchAnswers.append(.refused(change, error))
                }
            }
            backing = .file(file)
            reopen = nil
            batchAnswers.append(.reopened(kept: pending.unsaved.count))
        case .failure(.io(let error, _, _)):
            pending.failed(error, now: pending.opening.clock.now())
            reopen = pending
        case .failure(let error):
            reopen = nil
            batchAnswers.append(.reopenAbandoned(error))
        }
    }

    /// Publishes the store's content after `count` jobs and their answers.
    private func finishBatch(count: Int) {
        let snapshot = Self.snapshot(of: backing, reopen: reopen)
        pthread_mutex_lock(lock)
        mailbox.snapshot = snapshot
        mailbox.finished += count
        mailbox.answers.append(contentsOf: batchAnswers)
        pthread_cond_broadcast(signal)
        pthread_mutex_unlock(lock)
        batchAnswers.removeAll(keepingCapacity: true)
    }

    /// A device on memory that will try the files again is degraded, not read-only: its
    /// changes are kept and will be written.
    private static func snapshot(of store: DeviceStore<Files, Clock>, reopen: StoreOpening<Files, Clock>.Reopen?) -> Snapshot {
        let backing = store.store
        guard let reopen else {
            return Snapshot(state: backing.state, health: store.health, sequence: backing.sequence, nextRetry: store.nextRetry)
        }
        return Snapshot(
            state: backing.state, health: .degraded(reopen.failure, pendingChanges: reopen.unsaved.count),
            sequence: 0, nextRetry: reopen.nextAttempt)
    }
}

/// One detached pthread running a closure: the entry point `pthread_create` takes is a C
/// function, which cannot capture a generic context.
enum DetachedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread; nil if the thread could not be created.
    static func start(_ body: @escaping () -> Void) -> pthread_t? {
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            return nil
        }
        pthread_detach(thread)
        return thread
    }
}
