import CorpusTesting
import JSON

/// The BME280 vectors (`../shared/corpus/sensors/bme280-vectors.json`, next to the repository,
/// or `$THUNDERSTORM_CORPUS/sensors/…`): calibration register images with their trimming
/// words, raw ADC values with the data-sheet results. Absent → the suites report SKIPPED; there
/// but unreadable or not a JSON object → every accessor throws and the suites FAIL.
enum BME280Corpus {
    static let relative = "sensors/bme280-vectors.json"

    static var isPresent: Bool { Corpus.exists(relative) }

    struct Damaged: Error, CustomStringConvertible {
        var description: String
    }

    /// The parsed document: empty when the file is absent, an error when it is damaged.
    private static let loaded: Result<[String: JSONValue], Damaged> = {
        guard isPresent else { return .success([:]) }
        let bytes: [UInt8]
        do { bytes = try Corpus.bytes(relative) } catch { return .failure(Damaged(description: "\(error)")) }
        switch JSONValue.parse(bytes) {
        case .success(.object(let root)): return .success(root)
        case .success: return .failure(Damaged(description: "\(Corpus.path(relative)): not a JSON object"))
        case .failure(let error): return .failure(Damaged(description: "\(Corpus.path(relative)): \(error)"))
        }
    }()

    static func document() throws(Damaged) -> [String: JSONValue] { try loaded.get() }

    struct CalibrationImage: Sendable, CustomStringConvertible {
        var id: String
        var description: String { id }
        var block1: [UInt8]
        var block2: [UInt8]
        /// "dig_T1" → value.
        var words: [String: Int]
    }

    struct Vector: Sendable, CustomStringConvertible {
        var id: String
        var calibration: CalibrationImage
        var adcT: Int32, adcP: Int32, adcH: Int32
        var dataRegisters: [UInt8]
        /// expected.datasheet_integer: t_fine, T_centi_degC, P_Q24_8, H_Q22_10.
        var tFine: Int32, temperatureCenti: Int32, pressureQ24_8: UInt32, humidityQ22_10: UInt32
        /// expected.datasheet_double: T_degC, P_Pa, H_pct.
        var temperature: Double, pressure: Double, humidity: Double
        var description: String { id }
    }

    /// tolerances.suggested_test_tolerances.
    struct Tolerances: Sendable {
        var temperature: Double, pressure: Double, humidity: Double
    }

    static func calibrationSets() throws(Damaged) -> [String: CalibrationImage] {
        guard case .object(let sets)? = try document()["calibration_sets"] else { return [:] }
        var result: [String: CalibrationImage] = [:]
        for (id, value) in sets { result[id] = image(id, value, wordsKey: "words") }
        return result
    }

    static func decodingVectors() throws(Damaged) -> [CalibrationImage] {
        guard case .array(let items)? = try document()["calibration_decoding_vectors"] else { return [] }
        return items.compactMap { item in
            guard case .string(let id)? = item["id"] else { return nil }
            return image(id, item, wordsKey: "expected_words")
        }
    }

    static func compensationVectors() throws(Damaged) -> [Vector] {
        guard case .array(let items)? = try document()["compensation_vectors"] else { return [] }
        let calibrationSets = try calibrationSets()
        return items.compactMap { item in
            guard case .string(let id)? = item["id"], case .string(let set)? = item["calibration"],
                let calibration = calibrationSets[set],
                let raw = item["raw"], let expected = item["expected"],
                let integer = expected["datasheet_integer"], let double = expected["datasheet_double"],
                case .string(let data)? = item["data_regs_0xF7_0xFE_hex"],
                let adcT = raw["adc_T"]?.integer, let adcP = raw["adc_P"]?.integer, let adcH = raw["adc_H"]?.integer,
                let tFine = integer["t_fine"]?.integer, let t = integer["T_centi_degC"]?.integer,
                let p = integer["P_Q24_8"]?.integer, let h = integer["H_Q22_10"]?.integer,
                case .number(let td)? = double["T_degC"], case .number(let pd)? = double["P_Pa"],
                case .number(let hd)? = double["H_pct"]
            else { return nil }
            return Vector(
                id: id, calibration: calibration, adcT: Int32(adcT), adcP: Int32(adcP), adcH: Int32(adcH),
                dataRegisters: hexBytes(data), tFine: Int32(tFine), temperatureCenti: Int32(t),
                pressureQ24_8: UInt32(p), humidityQ22_10: UInt32(h), temperature: td, pressure: pd, humidity: hd)
        }
    }

    static func tolerances() throws(Damaged) -> Tolerances? {
        guard let t = try document()["tolerances"]?["suggested_test_tolerances"],
            case .number(let temperature)? = t["T_degC"], case .number(let pressure)? = t["P_Pa"],
            case .number(let humidity)? = t["H_pct"]
        else { return nil }
        return Tolerances(temperature: temperature, pressure: pressure, humidity: humidity)
    }

    /// How many vectors the file lists, parsed or not (so a vector that fails to parse fails
    /// a test instead of vanishing).
    static func listed(_ key: String) throws(Damaged) -> Int {
        guard case .array(let items)? = try document()[key] else { return 0 }
        return items.count
    }

    private static func image(_ id: String, _ value: JSONValue, wordsKey: String) -> CalibrationImage? {
        guard case .string(let b1)? = value["regs_0x88_0xA1_hex"], case .string(let b2)? = value["regs_0xE1_0xE7_hex"],
            case .object(let words)? = value[wordsKey]
        else { return nil }
        return CalibrationImage(
            id: id, block1: hexBytes(b1), block2: hexBytes(b2), words: words.compactMapValues { $0.integer })
    }

    static func hexBytes(_ text: String) -> [UInt8] {
        text.split(separator: " ").compactMap { UInt8($0, radix: 16) }
    }
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
