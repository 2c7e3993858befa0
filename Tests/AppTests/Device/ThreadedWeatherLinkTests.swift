@testable import App
import Glibc
import HAL
import Testing
import Weather

/// The network edge's worker thread: every reload made a link and stopped the old
/// one, whose thread was joinable and never joined, so its stack stayed mapped (46 reloads, 47
/// stacks); the loop's every turn woke the worker for nothing; a failed `pthread_create` left a
/// link that never answered.
@Suite("Device: the weather worker thread", .serialized)
struct ThreadedWeatherLinkTests {
    static let order = FetchOrder(position: try! Coordinate(latitude: 52.52, longitude: 13.41))
    static let noNetwork = WeatherFetch.Result(outcome: .failure(.transport(TransportError(.hostNotFound, "no network here"))), response: nil, receivedAt: .zero)

    /// Where the worker ran: an address on its stack and its thread id (`/proc/thread-self`).
    final class Probe: @unchecked Sendable {
        var stack: UInt = 0
        var task = ""
        func record() {
            var marker = 0
            stack = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            var link = [CChar](repeating: 0, count: 64)
            let count = readlink("/proc/thread-self", &link, link.count - 1)
            if count > 0 { task = String(decoding: link[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
    }

    /// The address ranges of `/proc/self/maps`.
    static func mappedRanges() -> [Range<UInt>] {
        guard let file = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(file) }
        var ranges: [Range<UInt>] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let bounds = text.prefix { $0 != " " }.split(separator: "-")
            guard bounds.count == 2, let low = UInt(bounds[0], radix: 16), let high = UInt(bounds[1], radix: 16) else { continue }
            ranges.append(low..<high)
        }
        return ranges
    }

    /// Whether the thread (`"<pid>/task/<tid>"`) still exists, waiting up to 2 s for it to end.
    static func outlives(_ task: String) -> Bool {
        for _ in 0..<200 {
            if access("/proc/" + task, F_OK) != 0 { return false }
            usleep(10_000)
        }
        return true
    }

    @Test("64 links made and stopped, as 64 reloads do: every worker ends and its stack is freed for the next")
    func testWeatherLink_CreateStopCycles_NoStackLeft() throws {
        let cycles = 64
        var stacks: Set<UInt> = []
        var lingering = 0
        for _ in 0..<cycles {
            let probe = Probe()
            let link = ThreadedWeatherLink(fetch: { _ in probe.record(); return Self.noNetwork }, wake: {})
            link.send(Self.order, token: 1)
            link.waitForDelivery()
            #expect(link.receive()?.token == 1)
            link.stop()
            stacks.insert(probe.stack & ~0xFFF)
            if Self.outlives(probe.task) { lingering += 1 }
        }
        #expect(lingering == 0, "\(lingering) of \(cycles) workers still running after stop()")
        // A joinable thread nobody joins keeps its stack mapped: one per link. A detached one
        // gives it back when it ends, and glibc hands it to the next thread (its stack cache).
        let mapped = Self.mappedRanges()
        let kept = stacks.filter { address in mapped.contains { $0.contains(address) } }
        #expect(kept.count <= cycles / 4, "\(kept.count) of \(cycles) workers' stacks still mapped (\(stacks.count) distinct)")
    }

    @Test("the loop's every turn (receive, isFetchingForReal) does not wake the worker; an order and stop() do")
    func testWeatherLink_LoopTurns_WorkerSleeps() throws {
        let fetches = DeviceLoopTests.Counter()
        let link = ThreadedWeatherLink(fetch: { _ in fetches.add(); return Self.noNetwork }, wake: {})
        defer { link.stop() }
        link.send(Self.order, token: 7)
        link.waitForDelivery()
        #expect(link.receive()?.token == 7)
        let before = link.idleWakeups
        for _ in 0..<2000 {
            _ = link.receive()
            _ = link.isFetchingForReal
            sched_yield()  // let a woken worker run, as the loop's poll(2) would
        }
        #expect(link.idleWakeups - before == 0, "\(link.idleWakeups - before) wake-ups of the worker in 2000 idle turns")
        link.send(Self.order, token: 8)
        link.waitForDelivery()
        #expect(link.receive()?.token == 8)
        #expect(fetches.value == 2)
    }

    @Test("a worker that cannot be started answers every order at once with one clear line, and is tried again")
    func testWeatherLink_ThreadCreateFails_AnswersWithReason() throws {
        let attempts = DeviceLoopTests.Counter()
        let wakes = DeviceLoopTests.Counter()
        let link = ThreadedWeatherLink(
            fetch: { _ in Self.noNetwork }, wake: { wakes.add() },
            spawn: { _ in attempts.add(); return EAGAIN })
        defer { link.stop() }
        link.send(Self.order, token: 3)
        #expect(!link.isFetchingForReal, "nothing is out: the headless loop must not wait for it")
        link.waitForDelivery()
        let delivery = try #require(link.receive())
        #expect(delivery.token == 3)
        guard case .failure(.transport(let error)) = delivery.result.outcome else {
            Issue.record("expected a transport failure, got \(delivery.result.outcome)")
            return
        }
        #expect(error.detail == "cannot start the weather thread: pthread_create: \(String(cString: strerror(EAGAIN))) (too many threads, or too little memory)")
        #expect(!WeatherError.transport(error).description.contains("\n"))
        #expect(wakes.value == 1, "the loop is woken to read the answer")
        link.send(Self.order, token: 4)
        #expect(link.receive()?.token == 4)
        #expect(attempts.value == 2, "every order tries to start the worker again")
    }

    /// Counts fetches running at once; each waits until `release` is signalled.
    final class Gate: @unchecked Sendable {
        private var lock = pthread_mutex_t()
        private var running = 0
        private(set) var mostAtOnce = 0
        private(set) var started = 0
        private var open = 0
        init() { pthread_mutex_init(&lock, nil) }
        func enter() {
            pthread_mutex_lock(&lock)
            running += 1
            started += 1
            mostAtOnce = max(mostAtOnce, running)
            let ticket = started
            pthread_mutex_unlock(&lock)
            while true {
                pthread_mutex_lock(&lock)
                let go = open >= ticket
                if go { running -= 1 }
                pthread_mutex_unlock(&lock)
                if go { return }
                usleep(1000)
            }
        }
        func release(through ticket: Int) {
            pthread_mutex_lock(&lock)
            open = ticket
            pthread_mutex_unlock(&lock)
        }
        var startedCount: Int {
            pthread_mutex_lock(&lock)
            defer { pthread_mutex_unlock(&lock) }
            return started
        }
    }

    @Test("a reload hands the worker over: the new device's first order waits for the fetch in flight, whose answer is dropped")
    func handOverNeverDoublesAFetch() throws {
        let gate = Gate()
        let link = ThreadedWeatherLink(fetch: { _ in gate.enter(); return Self.noNetwork }, wake: {})
        defer { link.stop() }
        link.send(Self.order, token: 7)  // the old device's order
        for _ in 0..<500 where gate.startedCount == 0 { usleep(1000) }
        #expect(gate.startedCount == 1)
        link.handOver()
        link.send(Self.order, token: 1)  // the new device's first order, while the old one runs
        usleep(20_000)
        #expect(gate.startedCount == 1, "the new order did not start beside the one in flight")
        gate.release(through: 2)
        link.waitForDelivery()
        let delivery = link.receive()
        #expect(delivery?.token == 1, "the old device's answer is dropped; the new one's arrives")
        #expect(gate.mostAtOnce == 1)
        #expect(link.receive() == nil)
    }
}

