import CLinuxHAL
import Core
import Glibc
import HAL
import JSON
import Store
import Weather

/// What `simulate --headless --report FILE` writes: one JSON object with the settings, the
/// places, what the store cost the medium, what the display cost the bus and the glass, how
/// often the loop woke, the CPU it took, and the timeline of what the device logged.
public struct SimulationReport {
    public var board: SimulatedBoard
    public var endedByPowerCut: Bool
    /// The process at the end of each simulated day (the soak's figures).
    public var daily: [ProcessSample] = []
    /// Where the timeline went instead of `board.timeline` (a headless run's spool).
    public var spool: TimelineSpool?

    public init(board: SimulatedBoard, endedByPowerCut: Bool) {
        self.board = board
        self.endedByPowerCut = endedByPowerCut
    }

    public var json: String {
        let device = board.device
        let state = device.state
        let now = board.clock.now()
        let seconds = Double((now - board.startInstant).nanoseconds) / 1e9
        var w = JSONWriter()
        w.open()
        w.key("duration_seconds"); w.number(seconds, places: 3)
        w.key("ended_by_power_cut"); w.bool(endedByPowerCut)
        w.key("settings"); w.open()
        let settings = state.store.settings
        w.key("temperature"); w.string(settings.temperature.name)
        w.key("units"); w.string(settings.units.name)
        w.key("time"); w.string(settings.time.name)
        w.key("brightness"); w.string(settings.brightness.name)
        w.close()
        w.key("places"); w.openArray()
        w.element(); w.open()
        w.key("name"); w.string("GPS position (first entry)")
        w.close()
        for location in state.store.locations {
            w.element(); w.open()
            w.key("id"); w.number(Int(location.id.rawValue))
            w.key("name"); w.string(location.name.value)
            w.key("latitude"); w.number(location.coordinate.latitude, places: 7)
            w.key("longitude"); w.number(location.coordinate.longitude, places: 7)
            w.close()
        }
        w.closeArray()
        w.key("shown"); w.open()
        w.key("place"); w.string(state.model.place.name)
        w.key("screen"); w.string(state.screen.rawValue)
        w.close()
        w.key("store"); w.open()
        w.key("health"); w.string(state.storeHealth.description)
        w.key("sequence"); w.number(Int(device.store.sequence))
        w.key("bytes_written"); w.number(board.setup.disk.bytesWritten)
        w.key("syncs"); w.number(
            board.setup.disk.count(of: .synchronizeData) + board.setup.disk.count(of: .synchronize)
                + board.setup.disk.count(of: .synchronizeDirectory))
        w.key("directory_syncs"); w.number(board.setup.disk.count(of: .synchronizeDirectory))
        // Per file, a replaced file's temporary name (`NAME.new`) counted as the file's.
        w.key("files"); w.open()
        for name in StateDirectory.fileNames {
            let disk = board.setup.disk
            w.key(name); w.open()
            w.key("bytes_written"); w.number(disk.bytesWrittenByName[name, default: 0] + disk.bytesWrittenByName[name + ".new", default: 0])
            w.key("syncs"); w.number(disk.syncsByName[name, default: 0] + disk.syncsByName[name + ".new", default: 0])
            w.close()
        }
        w.close()
        w.close()
        w.key("display"); w.open()
        w.key("frames"); w.number(device.counters.frames)
        w.key("bus_transactions"); w.number(device.counters.busTransactions)
        w.key("bus_payload_bytes"); w.number(device.counters.busPayloadBytes)
        w.key("flush_failures"); w.number(device.counters.flushFailures)
        w.key("largest_frame_payload_bytes"); w.number(device.counters.largestFlushPayloadBytes)
        w.key("last_frame_payload_bytes"); w.number(device.counters.lastFlushPayloadBytes)
        // I²C at 400 kHz: 9 bit times per byte (8 data + ACK) plus START, address and STOP.
        w.key("last_frame_wire_microseconds_400khz"); w.number(Double(device.counters.lastFlushBitTimes) / 0.4, places: 1)
        if let meter = board.litMeter {
            var final = meter
            final.close(at: now)
            let highest = final.highest(until: now)
            w.key("max_pixel_lit_fraction"); w.number(highest.fraction, places: 4)
            w.key("max_pixel"); w.openArray()
            w.element(); w.number(highest.x)
            w.element(); w.number(highest.y)
            w.closeArray()
            w.key("mean_lit_fraction"); w.number(final.mean(until: now), places: 4)
        } else {
            w.key("max_pixel_lit_fraction"); w.null()
        }
        w.key("orbit"); w.bool(state.options.orbit)
        w.key("model_errors"); w.number(board.panelErrors.count)
        w.close()
        w.key("gps"); w.string(state.model.gps == .fix ? "fix" : "\(state.gps.kind)")
        w.key("weather"); w.open()
        w.key("fetches"); w.number(device.counters.fetches)
        w.key("state"); w.string(Self.describe(state.weather.state))
        w.close()
        w.key("gestures"); w.number(device.counters.gestures)
        w.key("commits"); w.number(device.counters.commits)
        w.key("wakeups"); w.number(device.counters.wakeups)
        w.key("wakeups_per_second"); w.number(seconds > 0 ? Double(device.counters.wakeups) / seconds : 0, places: 3)
        w.key("cpu_seconds"); w.number(Self.cpuSeconds(), places: 3)
        w.key("device_cpu_seconds"); w.number(Double(board.deviceCPUNanoseconds) / 1e9, places: 3)
        w.key("daily"); w.openArray()
        for sample in daily {
            w.element(); w.open()
            w.key("day"); w.number(sample.day)
            w.key("rss_kb"); w.number(sample.residentKilobytes)
            w.key("descriptors"); w.number(sample.descriptors)
            w.key("heap_kb"); w.number(sample.heapInUseKilobytes)
            w.key("heap_free_kb"); w.number(sample.heapFreeKilobytes)
            w.close()
        }
        w.closeArray()
        w.key("timeline"); w.openArray()
        func entry(_ seconds: Double, _ text: String) {
            w.element(); w.open()
            w.key("t"); w.number(seconds, places: 3)
            w.key("event"); w.string(text)
            w.close()
        }
        if let spool {
            spool.forEach(entry)
            if let failure = spool.failure { entry(seconds, "timeline cut here: the temporary file could not be written (\(failure))") }
        } else {
            for line in board.timeline { entry(line.seconds, line.text) }
        }
        w.closeArray()
        w.close()
        return w.text
    }

    static func describe(_ state: LoadingState<WeatherReport, WeatherError>) -> String {
        switch state {
        case .idle: "idle"
        case .loading: "loading"
        case .success: "ok"
        case .failure(let error, _): "failed: \(error.shortText)"
        }
    }

    /// User and system CPU time of this process so far (getrusage).
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// What the process holds at one moment of a run: resident memory, open descriptors, and the
/// heap as glibc's allocator counts it (so a soak can tell a leak from fragmentation).
public struct ProcessSample: Sendable, Equatable {
    public var day: Int
    public var residentKilobytes: Int
    public var descriptors: Int
    /// Bytes malloc has handed out and not had back (mallinfo2's uordblks + hblkhd), in KiB.
    public var heapInUseKilobytes: Int = 0
    /// Free bytes the allocator keeps inside its arenas (mallinfo2's fordblks), in KiB.
    public var heapFreeKilobytes: Int = 0

    /// This process now, from /proc/self/statm (resident pages), /proc/self/fd and mallinfo2(3).
    public static func now(day: Int) -> ProcessSample {
        var inUse = 0, free = 0
        th_heap_usage(&inUse, &free)
        return ProcessSample(
            day: day, residentKilobytes: residentKilobytes(), descriptors: descriptors(),
            heapInUseKilobytes: inUse / 1024, heapFreeKilobytes: free / 1024)
    }

    static func residentKilobytes() -> Int {
        let file = open("/proc/self/statm", O_RDONLY)
        guard file >= 0 else { return -1 }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let n = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard n > 0 else { return -1 }
        // "size resident shared …" in pages.
        let fields = bytes[..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return -1 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    static func descriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count - 1  // the descriptor opendir holds
    }
}

/// A minimal JSON writer: objects, arrays, strings with escapes, numbers without Foundation.
struct JSONWriter {
    private(set) var text = ""
    private var needsComma = [false]

    mutating func open() {
        text += "{"
        needsComma.append(false)
    }

    mutating func close() {
        text += "}"
        needsComma.removeLast()
    }

    mutating func openArray() {
        text += "["
        needsComma.append(false)
    }

    mutating func closeArray() {
        text += "]"
        needsComma.removeLast()
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    mutating func key(_ name: String) {
        separate()
        text += "\"\(name)\":"
    }

    mutating func element() { separate() }

    mutating func string(_ value: String) { text += JSONText.quoted(value) }

    mutating func number(_ value: Int) { text += String(value) }
    mutating func number(_ value: Double, places: Int) {
        text += value.isFinite ? DecimalText.text(value, places: places, trimmingZeros: true) : "null"
    }
    mutating func bool(_ value: Bool) { text += value ? "true" : "false" }
    mutating func null() { text += "null" }
}
