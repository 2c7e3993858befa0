import HAL

/// The payloads of snapshots and change records, and the schema versions they follow.
///
/// Schema 1 (the first layout): the three settings of the original settings screen as three
/// fixed bytes. Schema 2 (current): settings as (key, value) pairs, so keys can be added, and
/// the brightness policy. Change records have the same layout in both.
enum Schema {
    static let current: UInt16 = 2
    static let oldestReadable: UInt16 = 1
}

/// Operation tags inside a change record. Raw values are the file format.
private enum Operation: UInt8 {
    case setting = 1
    case add = 2
    case remove = 3
    case rename = 4
    case move = 5
}

enum SnapshotCodec {
    enum Decoded {
        case state(StoreState, schema: UInt16)
        /// Written by a newer build; `state` is what this build could read of it, if anything.
        case newer(schema: UInt16, state: StoreState?)
        case malformed(String)
    }

    /// Schema 2.
    static func encode(_ state: StoreState, into writer: inout ByteWriter) {
        writer.write(Schema.current)
        writer.write(state.nextLocationID.rawValue)
        writer.write(UInt8(SettingKey.allCases.count))
        for key in SettingKey.allCases {
            writer.write(key.rawValue)
            writer.write(state.settings[key])
        }
        writer.write(UInt8(state.locations.count))
        for location in state.locations { encode(location, into: &writer) }
    }

    /// Schema 1, kept to test the migration; nothing writes it any more.
    static func encodeSchema1(_ state: StoreState, into writer: inout ByteWriter) {
        writer.write(UInt16(1))
        writer.write(UInt8(state.settings.time.rawValue))
        writer.write(UInt8(state.settings.units.rawValue))
        writer.write(UInt8(state.settings.temperature.rawValue))
        writer.write(state.nextLocationID.rawValue)
        writer.write(UInt8(state.locations.count))
        for location in state.locations { encode(location, into: &writer) }
    }

    static func decode(_ payload: UnsafeRawBufferPointer) -> Decoded {
        var reader = ByteReader(payload)
        guard let schema = reader.read(UInt16.self) else { return .malformed("snapshot without a schema") }
        switch schema {
        case 1: return decodeSchema1(&reader)
        case 2: return decodeSchema2(&reader, strict: true)
        case 0: return .malformed("schema 0")
        default:
            // A newer build may only have added keys: read what this build understands.
            if case .state(let state, _) = decodeSchema2(&reader, strict: false) {
                return .newer(schema: schema, state: state)
            }
            return .newer(schema: schema, state: nil)
        }
    }

    private static func decodeSchema1(_ reader: inout ByteReader) -> Decoded {
        var settings = Settings.defaults
        for key in [SettingKey.time, .units, .temperature] {
            guard let value = reader.read(UInt8.self) else { return .malformed("schema 1 settings cut short") }
            guard settings.set(key, to: UInt32(value)) else { return .malformed("schema 1 \(key) = \(value)") }
        }
        guard let id = reader.read(UInt32.self) else { return .malformed("snapshot cut short") }
        return decodeLocations(&reader, settings: settings, schema: 1, nextID: LocationID(id))
    }

    private static func decodeSchema2(_ reader: inout ByteReader, strict: Bool) -> Decoded {
        guard let id = reader.read(UInt32.self), let count = reader.read(UInt8.self) else {
            return .malformed("snapshot header cut short")
        }
        var settings = Settings.defaults
        for _ in 0..<count {
            guard let raw = reader.read(UInt16.self), let value = reader.read(UInt32.self) else {
                return .malformed("settings cut short")
            }
            guard let key = SettingKey(rawValue: raw), settings.set(key, to: value) else {
                if strict { return .malformed("unknown setting \(raw) = \(value)") }
                continue
            }
        }
        return decodeLocations(&reader, settings: settings, schema: 2, nextID: LocationID(id))
    }

    private static func decodeLocations(
        _ reader: inout ByteReader, settings: Settings, schema: UInt16, nextID next: LocationID
    ) -> Decoded {
        guard let count = reader.read(UInt8.self), count <= StoreState.maximumLocations else {
            return .malformed("bad location count")
        }
        var locations: [SavedLocation] = []
        for _ in 0..<count {
            guard let location = decodeLocation(&reader) else { return .malformed("location cut short or invalid") }
            guard location.id < next, !locations.contains(where: { $0.id == location.id }) else {
                return .malformed("location id \(location.id) repeated or not below the next id")
            }
            locations.append(location)
        }
        guard reader.isAtEnd else { return .malformed("bytes after the last location") }
        return .state(StoreState(settings: settings, locations: locations, nextLocationID: next), schema: schema)
    }

    static func encode(_ location: SavedLocation, into writer: inout ByteWriter) {
        writer.write(location.id.rawValue)
        writer.write(location.coordinate.latitudeE7)
        writer.write(location.coordinate.longitudeE7)
        encode(location.name, into: &writer)
    }

    static func encode(_ name: LocationName, into writer: inout ByteWriter) {
        writer.write(UInt8(name.value.utf8.count))
        writer.write(name.value.utf8)
    }

    static func decodeLocation(_ reader: inout ByteReader) -> SavedLocation? {
        guard let id = reader.read(UInt32.self), let lat = reader.read(Int32.self), let lon = reader.read(Int32.self),
            let name = decodeName(&reader),
            let coordinate = try? Coordinate(latitudeE7: lat, longitudeE7: lon)
        else { return nil }
        return SavedLocation(id: LocationID(id), name: name, coordinate: coordinate)
    }

    static func decodeName(_ reader: inout ByteReader) -> LocationName? {
        guard let length = reader.read(UInt8.self), let bytes = reader.read(count: Int(length)) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return nil }  // not valid UTF-8
        return try? LocationName(text)
    }
}

enum ChangeCodec {
    /// Encodes `change` as it applies to a store whose settings are `old`: a settings change
    /// writes only the keys that differ.
    static func encode(_ change: StoreChange, old: Settings, into writer: inout ByteWriter) {
        switch change {
        case .settings(let new):
            // `allCases` builds a new array on every call, and an unoptimised `for … in` over an
            // array allocates per element: the stored list, walked by index, keeps a commit
            // free of allocation in debug builds too (AppTests counts it).
            let keys = SettingKey.all
            var changed = 0
            for index in 0..<keys.count where new[keys[index]] != old[keys[index]] { changed += 1 }
            writer.write(UInt8(changed))
            for index in 0..<keys.count where new[keys[index]] != old[keys[index]] {
                let key = keys[index]
                writer.write(Operation.setting.rawValue)
                writer.write(key.rawValue)
                writer.write(new[key])
            }
        case .addLocation(let location):
            writer.write(UInt8(1))
            writer.write(Operation.add.rawValue)
            SnapshotCodec.encode(location, into: &writer)
        case .removeLocation(let id):
            writer.write(UInt8(1))
            writer.write(Operation.remove.rawValue)
            writer.write(id.rawValue)
        case .renameLocation(let id, let name):
            writer.write(UInt8(1))
            writer.write(Operation.rename.rawValue)
            writer.write(id.rawValue)
            SnapshotCodec.encode(name, into: &writer)
        case .moveLocation(let id, let index):
            writer.write(UInt8(1))
            writer.write(Operation.move.rawValue)
            writer.write(id.rawValue)
            writer.write(UInt16(index))
        }
    }

    /// The change a record holds, read against the state it applies to; nil if the payload is
    /// not one this build writes (a checksummed record that fails here is from a newer build
    /// or a bug, never a torn write).
    static func decode(_ payload: UnsafeRawBufferPointer, applyingTo state: StoreState) -> StoreChange? {
        var reader = ByteReader(payload)
        guard let count = reader.read(UInt8.self), count > 0, let first = reader.read(UInt8.self) else { return nil }
        let change: StoreChange
        switch Operation(rawValue: first) {
        case .setting:
            var settings = state.settings
            var tag: UInt8? = first
            for index in 0..<Int(count) {
                if index > 0 { tag = reader.read(UInt8.self) }
                guard tag == Operation.setting.rawValue, let raw = reader.read(UInt16.self),
                    let value = reader.read(UInt32.self), let key = SettingKey(rawValue: raw),
                    settings.set(key, to: value)
                else { return nil }
            }
            change = .settings(settings)
        case .add:
            guard count == 1, let location = SnapshotCodec.decodeLocation(&reader) else { return nil }
            change = .addLocation(location)
        case .remove:
            guard count == 1, let id = reader.read(UInt32.self) else { return nil }
            change = .removeLocation(LocationID(id))
        case .rename:
            guard count == 1, let id = reader.read(UInt32.self), let name = SnapshotCodec.decodeName(&reader) else {
                return nil
            }
            change = .renameLocation(LocationID(id), name)
        case .move:
            guard count == 1, let id = reader.read(UInt32.self), let index = reader.read(UInt16.self) else { return nil }
            change = .moveLocation(LocationID(id), to: Int(index))
        case nil:
            return nil
        }
        guard reader.isAtEnd, (try? state.validate(change)) == true else { return nil }
        return change
    }
}
