import HAL
import HALSim
import SystemPackage
import Testing
@testable import Store

@Suite struct FormatTests {
    @Test func crc32cMatchesTheRFC3720CheckValues() {
        func crc(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { CRC32C.checksum($0) } }
        #expect(crc(Array("123456789".utf8)) == 0xE306_9283)
        #expect(crc([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)  // RFC 3720 §B.4
        #expect(crc([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(crc(Array(0..<32)) == 0x46DD_794E)
    }

    @Test func anEntryIsTheRecordTwiceTheSecondFlaggedAsTheCopy() {
        var buffer = [UInt8](repeating: 0xEE, count: 2 * Record.blockSize)
        let size = buffer.withUnsafeMutableBytes {
            Record.encodeEntry(into: $0, kind: .change, generation: 7, sequence: 0x0102_0304_0506_0708) {
                ChangeCodec.encode(.settings(Settings(units: .imperial)), old: .defaults, into: &$0)
            }
        }
        // header 20 + payload (count 1, op 1, key u16 2, value u32 1) 8 + CRC 4 = 32.
        #expect(size == 64)
        #expect(Array(buffer[0..<20]) == [
            0x54, 0x53, 1, 2, 8, 0, 0, 0, 7, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1,
        ])
        #expect(Array(buffer[20..<28]) == [1, 1, 2, 0, 1, 0, 0, 0])
        #expect(Array(buffer[32..<38]) == Array(buffer[0..<6]) && buffer[38] == 1)
        #expect(Array(buffer[40..<60]) == Array(buffer[8..<28]))
        buffer.withUnsafeBytes { bytes in
            let entry = ParsedEntry(bytes, at: 0)
            #expect(entry?.copies == .bothWhole && entry?.end == 64)
            #expect(ParsedEntry(bytes, at: 32) == nil)  // a lone copy never starts an entry
        }
    }

    @Test func aFlippedBitInEitherCopyIsReadFromTheOther() {
        var buffer = [UInt8](repeating: 0, count: 256)
        _ = buffer.withUnsafeMutableBytes {
            Record.encodeEntry(into: $0, kind: .change, generation: 1, sequence: 1) {
                ChangeCodec.encode(.removeLocation(LocationID(3)), old: .defaults, into: &$0)
            }
        }
        for (byte, expected) in [(5, ParsedEntry.CopyState.firstDamaged), (40, .secondDamaged)] {
            var damaged = buffer
            damaged[byte] ^= 0x10
            damaged.withUnsafeBytes { bytes in
                let entry = ParsedEntry(bytes, at: 0)
                #expect(entry?.copies == expected && entry?.record.sequence == 1 && entry?.end == 64)
            }
        }
    }

    @Test func entriesNeverCrossABlockAndAreFoundAfterTheSkip() throws {
        // Regression: an entry pushed to the next block must not be read as the copy of a
        // damaged entry at the old position.
        let fs = CrashableFileSystem()
        let store = try openStore(fs)
        for i in 0..<120 { try store.addLocation(name: "p\(i % 10)", latitude: 0, longitude: Double(i % 50)); if store.locations.count == 45 { break } }
        for _ in 0..<200 {
            try store.update { $0.units = $0.units == .metric ? .imperial : .metric }
        }
        store.close()
        let reopened = try openStore(fs)
        #expect(reopened.state == store.state && reopened.sequence == store.sequence)
        #expect(reopened.report.damage.isEmpty)
    }
}

@Suite struct SchemaTests {
    /// A store as the schema-1 layout left it: a snapshot and one change record.
    static func schema1Store(_ state: StoreState, fileSize: Int = 16384) -> CrashableFileSystem {
        var file = [UInt8](repeating: 0, count: fileSize)
        let size = file.withUnsafeMutableBytes {
            Record.encodeEntry(into: $0, kind: .snapshot, generation: 3, sequence: 9) {
                SnapshotCodec.encodeSchema1(state, into: &$0)
            }
        }
        _ = file.withUnsafeMutableBytes {
            Record.encodeEntry(into: UnsafeMutableRawBufferPointer(rebasing: $0[size...]), kind: .change, generation: 3, sequence: 10) {
                var settings = state.settings
                settings.time = .twelveHour
                ChangeCodec.encode(.settings(settings), old: state.settings, into: &$0)
            }
        }
        let fs = CrashableFileSystem()
        fs.seedFile("/store/store.a", contents: file)
        fs.seedFile("/store/store.b", contents: [UInt8](repeating: 0, count: fileSize))
        return fs
    }

    /// A GPS position is finer than the file's 10⁻⁷°: the location keeps it at the file's
    /// resolution from the start, so what is saved is what is read back, bit for bit.
    @Test func aGPSPositionIsKeptAtTheFilesResolution() throws {
        let fix = try Coordinate(
            latitude: GeoAngle(degrees: 44, minutes: 4, nanominutesFraction: 140_630_123),
            longitude: GeoAngle(degrees: 121, minutes: 18, nanominutesFraction: 854_780_001, negative: true))
        var location = SavedLocation(id: LocationID(1), name: try LocationName("Bend"), coordinate: fix)
        #expect(location.coordinate != fix && location.coordinate == fix.rounded(places: 7))
        location.coordinate = fix
        #expect(location.coordinate == fix.rounded(places: 7))
        var buffer = [UInt8](repeating: 0, count: 64)
        let decoded = buffer.withUnsafeMutableBytes { raw -> SavedLocation? in
            var writer = ByteWriter(raw)
            SnapshotCodec.encode(location, into: &writer)
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: raw[..<writer.count]))
            return SnapshotCodec.decodeLocation(&reader)
        }
        #expect(decoded == location)
    }

    @Test func schema1IsMigratedByWritingANewGeneration() throws {
        let old = StoreState(
            settings: Settings(temperature: .fahrenheit),
            locations: [SavedLocation(id: LocationID(4), name: try LocationName("Oslo"), coordinate: try Coordinate(latitude: 59.91, longitude: 10.75))])
        let fs = Self.schema1Store(old)
        let store = try openStore(fs)
        #expect(store.report.migratedFrom == 1)
        #expect(store.sequence == 10 && store.settings == Settings(time: .twelveHour, temperature: .fahrenheit))
        #expect(store.state.nextLocationID == LocationID(5))
        #expect(store.active == 1 && store.generation == 4)
        store.close()
        fs.crash()
        let again = try openStore(fs)
        #expect(again.report.migratedFrom == nil && again.report.files[1].schema == 2)
        #expect(again.state == store.state)
    }

    @Test func aNewerSchemaOpensReadOnlyAndIsNeverWritten() throws {
        let fs = CrashableFileSystem()
        var file = [UInt8](repeating: 0, count: 16384)
        _ = file.withUnsafeMutableBytes {
            Record.encodeEntry(into: $0, kind: .snapshot, generation: 1, sequence: 5) {
                $0.write(UInt16(3))  // schema 3
                $0.write(UInt32(1))
                $0.write(UInt8(2))
                $0.write(UInt16(2)); $0.write(UInt32(1))  // units imperial
                $0.write(UInt16(99)); $0.write(UInt32(7))  // a key this build does not know
                $0.write(UInt8(0))
            }
        }
        fs.seedFile("/store/store.a", contents: file)
        fs.seedFile("/store/store.b", contents: [UInt8](repeating: 0, count: 16384))
        let store = try openStore(fs)
        guard case .readOnly(let why) = store.health else { Issue.record("\(store.health)"); return }
        #expect(why.contains("newer") && why.contains("schema 3"))
        #expect(store.settings.units == .imperial)
        let writes = fs.count(of: .write)
        #expect(throws: StoreError.readOnly(why)) { try store.update { $0.units = .metric } }
        #expect(fs.count(of: .write) == writes && fs.contents(of: "/store/store.a") == file)
    }
}
