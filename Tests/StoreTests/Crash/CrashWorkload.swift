import HAL
import HALSim
import SystemPackage
@testable import Store

/// The seeded workload of docs/design/decisions.md#crash-tests, C4: single- and multi-key settings changes, added,
/// removed, renamed and moved locations, and changes that change nothing (about one in five),
/// each generated against the state it will apply to, so every change is valid.
struct CrashWorkload {
    static let names = [
        "Zürich", "Genève", "Bern", "Lugano", "Chur", "Sion", "Basel", "Luzern", "St. Gallen", "Neuchâtel",
        "Appenzell", "Scuol", "Zermatt", "Davos", "Locarno", String(repeating: "é", count: 20),
    ]
    static let valueCounts: [SettingKey: Int] = [.time: 2, .units: 2, .temperature: 2, .brightness: 3]

    var random: SplitMix64
    /// Keys the changes may touch; schema 1 knows only the first three.
    var keys = SettingKey.allCases
    /// Locations are added while fewer than this exist: snapshots of about 1 KiB, so a torn
    /// snapshot is cut at 512-byte boundaries too, and still well below half a file.
    var locationTarget = 16

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next(below: UInt64(items.count)))] }

    static let suffixes = ["", " 7", " HB", " Flughafen", " Altstadt Nord", " – Bahnhofplatz 12"]

    /// Names of 4 to 40 bytes, often long, so log entries vary in size and fill the log sooner.
    mutating func name() -> LocationName {
        let base = pick(Self.names)
        return (try? LocationName(base + pick(Self.suffixes))) ?? (try! LocationName(base))
    }

    mutating func value(_ key: SettingKey) -> UInt32 { UInt32(random.next(below: UInt64(Self.valueCounts[key]!))) }

    mutating func nextChange(after state: StoreState) -> StoreChange {
        let roll = random.next(below: 100)
        let count = state.locations.count
        switch roll {
        case 0..<20:  // one key, usually to a new value
            var settings = state.settings
            let key = pick(keys)
            if random.chance(0.85) {
                _ = settings.set(key, to: (settings[key] + 1) % UInt32(Self.valueCounts[key]!))
            }
            return .settings(settings)
        case 20..<32:  // several keys in one atomic commit
            var settings = state.settings
            for key in keys { _ = settings.set(key, to: value(key)) }
            return .settings(settings)
        case 32..<50 where count < locationTarget, 50..<58 where count == 0:
            return add(state)
        case 32..<58:
            return .removeLocation(pick(state.locations).id)
        case 58..<76 where count > 0:
            let location = pick(state.locations)
            return .renameLocation(location.id, random.chance(0.2) ? location.name : name())
        case 76..<88 where count > 0:
            return .moveLocation(pick(state.locations).id, to: Int(random.next(below: UInt64(count))))
        case 88..<100:  // changes nothing: must do no I/O
            if count > 0, random.chance(0.5) {
                let location = pick(state.locations)
                return .renameLocation(location.id, location.name)
            }
            return .settings(state.settings)
        default:
            return add(state)
        }
    }

    mutating func add(_ state: StoreState) -> StoreChange {
        let coordinate = try! Coordinate(
            latitudeE7: Int32(random.next(in: -900_000_000...900_000_000)),
            longitudeE7: Int32(random.next(in: -1_800_000_000...1_800_000_000)))
        return .addLocation(SavedLocation(id: state.nextLocationID, name: name(), coordinate: coordinate))
    }

    /// A change that surely changes something: the harness's "commit one more" after recovery.
    static func nudge(_ state: StoreState) -> StoreChange {
        var settings = state.settings
        settings.units = settings.units == .metric ? .imperial : .metric
        return .settings(settings)
    }
}

/// A store as a schema-1 build left it (C4: migration on open): `store.a` holds a generation-1
/// snapshot in schema 1 followed by a few change records; `store.b` holds zeros, as creation
/// leaves it. The open that migrates writes a schema-2 snapshot into `store.b`.
enum CrashLegacyStore {
    /// Seeds `fs` and returns the model: the state after each sequence number in the file.
    static func seed(_ fs: CrashableFileSystem, workload: inout CrashWorkload) -> [UInt64: StoreState] {
        let size = FileStoreCrashSubject.fileSize
        var file = [UInt8](repeating: 0, count: size)
        let first = UInt64(workload.random.next(in: 1...40))
        var state = StoreState.initial
        let saved = workload.keys
        workload.keys = [.time, .units, .temperature]
        defer { workload.keys = saved }
        for _ in 0..<workload.random.next(in: 1...4) { state.apply(workload.add(state)) }
        for key in workload.keys { _ = state.settings.set(key, to: workload.value(key)) }
        var model: [UInt64: StoreState] = [first: state]
        var offset = file.withUnsafeMutableBytes { raw in
            Record.encodeEntry(into: raw, kind: .snapshot, generation: 1, sequence: first) {
                SnapshotCodec.encodeSchema1(state, into: &$0)
            }
        }
        var sequence = first
        for _ in 0..<workload.random.next(in: 0...5) {
            let change = workload.nextChange(after: state)
            guard (try? state.validate(change)) == true else { continue }
            sequence += 1
            let old = state.settings
            offset += file.withUnsafeMutableBytes { raw in
                Record.encodeEntry(
                    into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...]), kind: .change, generation: 1,
                    sequence: sequence
                ) { ChangeCodec.encode(change, old: old, into: &$0) }
            }
            state.apply(change)
            model[sequence] = state
        }
        fs.seedFile(FileStoreCrashSubject.directory.appending("store.a"), contents: file)
        fs.seedFile(FileStoreCrashSubject.directory.appending("store.b"), contents: [UInt8](repeating: 0, count: size))
        return model
    }
}
