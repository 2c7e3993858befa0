import Board
import HAL
import HALLinux
import HALSim

/// The board's buttons as one set of input lines, in board-file order (line `i` is
/// `buttons[i]`): real ones requested from the kernel's GPIO character device (through libgpiod
/// 2 where it is installed, else the uAPI v2 directly: `GPIOBackend`), simulated ones on their
/// twin.
///
/// Real lines are requested in groups that share a chip, a bias and a debounce period (one GPIO
/// request and one descriptor each). A group that cannot be requested at start (the chip is not
/// there, the user is not in `gpio`, another process holds the line) is reported once and
/// requested again every `retryInterval`; its buttons do nothing meanwhile, everything else runs.
public final class BoardButtons: DigitalInputs {
    /// One source of lines and where its lines sit in the board's order.
    struct Group {
        enum Source {
            case simulated(SimulatedButtons)
            #if Hardware
            case kernel(LinuxDigitalInputs<SystemGPIODriver>?)
            #endif
        }

        var source: Source
        /// `boardLine[i]` is the board index of the group's line `i`.
        let boardLine: [Int]
        let buttons: [ButtonConfig]
        var lastProblem: String?
        /// The board lines in the current request, in its order (`boardLine` without the lines
        /// not listened to).
        var requested: [Int]
    }

    private var groups: [Group] = []
    public let retryInterval: Duration
    /// When the next failed request is tried again.
    public private(set) var nextRetry: Instant?
    /// Which board lines have their debounce done by the kernel (read back from the request;
    /// none while `asksKernelDebounce` is false).
    public private(set) var kernelDebounced: [Bool]
    private let report: (String) -> Void
    /// A request was lost since the last `retryIfDue`: schedule its retry from then.
    private var lostSinceRetry = false
    /// Every line at rest (released): what a line that is not requested reads as, so a button
    /// the daemon cannot read is never taken for one held down.
    private let resting: UInt32
    /// Each board line's edge numbers, continued across re-requests.
    private var numbers: LineNumbering
    private let configs: [ButtonConfig]
    /// Board lines not listened to (`setListening`): a chattering line, left out of its
    /// group's request until the runtime listens to it again.
    private var muted: [Bool]

    /// `simulated` must have one line per simulated button, in board order.
    public init(
        _ buttons: [ButtonConfig], simulated: SimulatedButtons?, now: Instant, retryInterval: Duration = .seconds(30),
        report: @escaping (String) -> Void
    ) {
        self.retryInterval = retryInterval
        self.report = report
        kernelDebounced = Array(repeating: false, count: buttons.count)
        numbers = LineNumbering(lines: buttons.count)
        configs = buttons
        muted = Array(repeating: false, count: buttons.count)
        resting = buttons.indices.reduce(0) { $0 | (buttons[$1].activeLow ? 1 << UInt32($1) : 0) }
        let twins = buttons.indices.filter { buttons[$0].simulated }
        if let simulated, !twins.isEmpty {
            groups.append(
                Group(source: .simulated(simulated), boardLine: twins, buttons: twins.map { buttons[$0] }, requested: twins))
        }
        let real = buttons.indices.filter { !buttons[$0].simulated }
        guard !real.isEmpty else { return }
        #if Hardware
        // Group by chip, bias and debounce: one request each.
        var keys: [String] = []
        var members: [[Int]] = []
        for index in real {
            let button = buttons[index]
            let key = "\(button.chip ?? "")|\(button.bias.rawValue)|\(button.debounce)"
            if let at = keys.firstIndex(of: key) { members[at].append(index) } else {
                keys.append(key)
                members.append([index])
            }
        }
        for lines in members {
            groups.append(Group(source: .kernel(nil), boardLine: lines, buttons: lines.map { buttons[$0] }, requested: lines))
            request(groups.count - 1, now: now, debounce: Self.asksKernelDebounce)
        }
        #else
        let names = real.map { buttons[$0].name }.joined(separator: ", ")
        report("buttons \(names): this build has no GPIO support (build with --traits Hardware); they do nothing")
        #endif
    }

    /// Requests every group that failed, when their retry is due.
    public func retryIfDue(now: Instant) {
        if lostSinceRetry {
            lostSinceRetry = false
            nextRetry = Instant.earliest(nextRetry, now + retryInterval)
        }
        guard let due = nextRetry, due <= now else { return }
        nextRetry = nil
        #if Hardware
        for index in groups.indices {
            if case .kernel(nil) = groups[index].source, groups[index].boardLine.contains(where: { !muted[$0] }) {
                request(index, now: now, debounce: Self.kernelDebounceAgain(groups[index].boardLine, kernelDebounced))
            }
        }
        #endif
    }

    /// Whether the lines are requested with the kernel's debounce: no, they are debounced in
    /// software (`ButtonLine`, the same rule), so that `LineNoise` sees every edge. The kernel's
    /// debounce (gpiolib-cdev.c, `debounce_irq_handler` re-arms a delayed work on each edge;
    /// `debounce_work_func` reports only a level that stayed put for the period) hides a noisy
    /// line: toggling faster than the period it reports nothing, so the line is never found
    /// noisy; toggling at random (a floating input) it passes the levels that happen to last a
    /// period as presses. On the virtual board (gpio-sim, 20 ms), a line pulled at random gaps
    /// of mean 10 ms for 4 s made 11 setting changes or more and no fault. The cost is a
    /// wake-up for a press's bounce edges, a few per press.
    static let asksKernelDebounce = false

    /// Whether a group requested again asks the kernel to debounce: exactly when it did before.
    /// The device's `ButtonTiming` was fixed at start — no software debounce for a line the
    /// kernel debounced — so a re-request after a read error without the kernel's debounce left
    /// that line with none at all, and a bouncing press made several gestures. A line
    /// first requested late (its chip was missing at start) is debounced in software, as its
    /// timing says.
    static func kernelDebounceAgain(_ lines: [Int], _ kernelDebounced: [Bool]) -> Bool {
        lines.contains { kernelDebounced.indices.contains($0) && kernelDebounced[$0] }
    }

    #if Hardware
    /// `now` nil: a failure is retried `retryInterval` after the next `retryIfDue`.
    private func request(_ index: Int, now: Instant?, debounce: Bool) {
        var group = groups[index]
        group.requested = group.boardLine.filter { !muted[$0] }
        groups[index].requested = group.requested
        guard !group.requested.isEmpty else { return }
        let first = group.buttons[0]
        let lines = group.requested.map { configs[$0] }.map { button -> GPIOLineSelector in
            switch button.line {
            case .name(let name): .name(name)
            case .offset(let offset): .offset(UInt32(offset))
            case .simulated: preconditionFailure("a simulated button in a GPIO request")
            }
        }
        let names = group.buttons.map { "\($0.name) (\($0.line))" }.joined(separator: ", ")
        do throws(GPIOError) {
            let inputs = try LinuxDigitalInputs(
                chip: first.chip.map { .label($0) }, lines: lines, bias: first.bias,
                debounce: debounce ? first.debounce : .zero, driver: SystemGPIODriver())
            groups[index].source = .kernel(inputs)
            for line in group.requested {
                kernelDebounced[line] = inputs.kernelDebounce
                numbers.restart(line)
            }
            if group.lastProblem != nil { report("buttons \(names): requested") }
            groups[index].lastProblem = nil
        } catch {
            let problem = "\(error)"
            if group.lastProblem != problem {
                report("buttons \(names): cannot request the lines: \(problem); retrying every \(retryInterval.components.seconds) s")
            }
            groups[index].lastProblem = problem
            if let now { nextRetry = Instant.earliest(nextRetry, now + retryInterval) } else { lostSinceRetry = true }
        }
    }
    #endif

    /// The descriptors to poll, at most one per line; -1 past the end.
    public var descriptorSlots: Int { groups.reduce(0) { $0 + $1.boardLine.count } }

    public func descriptor(_ slot: Int) -> CInt {
        #if Hardware
        var remaining = slot
        for group in groups {
            guard case .kernel(let inputs?) = group.source, let fd = inputs.pollDescriptor else { continue }
            if remaining == 0 { return fd.rawValue }
            remaining -= 1
        }
        #endif
        return -1
    }

    public func readEdges(into buffer: UnsafeMutableBufferPointer<Edge>) throws(GPIOError) -> Int {
        var filled = 0
        for index in groups.indices where filled < buffer.count {
            let rest = UnsafeMutableBufferPointer(rebasing: buffer[filled...])
            let got: Int
            switch groups[index].source {
            case .simulated(let buttons):
                got = try buttons.readEdges(into: rest)
            #if Hardware
            case .kernel(nil):
                got = 0
            case .kernel(let inputs?):
                do throws(GPIOError) {
                    got = try inputs.readEdges(into: rest)
                } catch {
                    lost(index, error)
                    got = 0
                }
            #endif
            }
            for i in 0..<got {
                let line = groups[index].requested[rest[i].line]
                rest[i].line = line
                if let number = rest[i].sequence?.line { rest[i].sequence?.line = numbers.carry(number, line: line) }
            }
            filled += got
        }
        return filled
    }

    public func levels() throws(GPIOError) -> UInt32 {
        var mask = resting
        for group in groups {
            let local: UInt32
            switch group.source {
            case .simulated(let buttons): local = try buttons.levels()
            #if Hardware
            case .kernel(nil): continue
            case .kernel(let inputs?): local = try inputs.levels()
            #endif
            }
            for (i, line) in group.requested.enumerated() {
                mask = local & (1 << i) != 0 ? mask | (1 << line) : mask & ~(1 << line)
            }
        }
        return mask
    }

    #if Hardware
    /// A request that stopped working (the chip went away): released and requested again later.
    private func lost(_ index: Int, _ error: GPIOError) {
        guard case .kernel(let inputs?) = groups[index].source else { return }
        inputs.close()
        groups[index].source = .kernel(nil)
        groups[index].lastProblem = "\(error)"
        report("buttons: reading the lines failed: \(error); requesting them again in \(retryInterval.components.seconds) s")
        lostSinceRetry = true
    }
    #endif

    /// A twin's line is told directly; a kernel line is left out of its group's request, which
    /// is released and made again without it (with the debounce it had), or with it again when
    /// `listening`. Its neighbours miss the edges of that instant, not their levels.
    public func setListening(_ listening: Bool, line: Int) -> Bool {
        guard let index = groups.firstIndex(where: { $0.boardLine.contains(line) }),
            let local = groups[index].boardLine.firstIndex(of: line)
        else { return false }
        switch groups[index].source {
        case .simulated(let twin):
            return twin.setListening(listening, line: local)
        #if Hardware
        case .kernel(let inputs):
            guard muted[line] == listening else { return true }
            muted[line] = !listening
            let debounce = kernelDebounced[line]
            inputs?.close()
            groups[index].source = .kernel(nil)
            request(index, now: nil, debounce: debounce)
            return true
        #endif
        }
    }

    public func describeLine(_ line: Int) -> (name: String, wire: String) {
        (configs[line].name, configs[line].simulated ? "its twin" : "\(configs[line].line)")
    }

    /// Releases every request (before a reload requests the lines again).
    public func close() {
        #if Hardware
        for group in groups { if case .kernel(let inputs?) = group.source { inputs.close() } }
        #endif
    }
}

/// The kernel's per-line edge numbers (`EdgeSequence.line`), continued across requests.
///
/// A new request numbers its lines' edges from 1 again (gpiolib-cdev.c: a new `struct line`,
/// `line_seqno` 0). The edges a released request still held, and those of the time no request
/// was held, were never the kernel's to drop, so the numbers of a board line carry on from the
/// last one passed on: the reader then counts as dropped only the gaps inside one request.
struct LineNumbering {
    /// Per board line: the number of the last edge passed on, and what is added to the
    /// numbers of the line's current request.
    private var last: [UInt32]
    private var base: [UInt32]

    init(lines: Int) {
        last = Array(repeating: 0, count: lines)
        base = Array(repeating: 0, count: lines)
    }

    /// `line` has just been requested again: its next edges are numbered from 1.
    mutating func restart(_ line: Int) { base[line] = last[line] }

    /// The number to pass on for an edge of `line` that its request numbered `number`.
    mutating func carry(_ number: UInt32, line: Int) -> UInt32 {
        last[line] = base[line] &+ number
        return last[line]
    }
}
