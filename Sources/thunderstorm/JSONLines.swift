import Weather
import GPS

/// Writes the `gps decode` objects, one per line, with gpsd's names and number formats.
///
/// gpsd prints lat/lon with 9 decimals, altitudes with 4 and speeds/tracks with 3; the same
/// rounding is used here so a line can be compared with gpsd's by eye.
struct JSONLines {
    func tpv(_ fix: Fix) {
        var line = #"{"class":"TPV""#
        if let time = fix.time { line += #","time":"\#(time)""# }
        line += #","mode":\#(fix.mode.rawValue)"#
        if let lat = fix.latitude { line += #","lat":\#(Self.fixed(lat.degrees, 9))"# }
        if let lon = fix.longitude { line += #","lon":\#(Self.fixed(lon.degrees, 9))"# }
        if let alt = fix.altitudeMSL { line += #","altMSL":\#(alt)"# }
        if let speed = fix.speedMetresPerSecond { line += #","speed":\#(Self.fixed(speed, 3))"# }
        if let track = fix.track { line += #","track":\#(track)"# }
        print(line + "}")
    }

    func sentence(_ bytes: UnsafeRawBufferPointer) {
        // A framed sentence is printable ASCII; only `"` and `\` need escaping in JSON.
        var text = ""
        text.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { text.append("\\") }
            text.unicodeScalars.append(Unicode.Scalar(byte))
        }
        print(#"{"class":"NMEA","sentence":"\#(text)"}"#)
    }

    func stats(_ s: NMEAStatistics) {
        print(
            #"{"class":"STATS","accepted":\#(s.accepted),"decoded":\#(s.decoded),"unknown":\#(s.unknown),"#
                + #""malformed":\#(s.malformed),"badChecksum":\#(s.badChecksum),"missingChecksum":\#(s.missingChecksum),"#
                + #""overlong":\#(s.overlong),"garbage":\#(s.garbage),"ignoredBytes":\#(s.ignoredBytes)}"#)
    }

    /// `value` rounded to `digits` decimals, trailing zeros removed (gpsd's `%.9f` then trimmed
    /// by its JSON writer).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        decimalText(value, places: digits, trimmingZeros: true)
    }
}

/// `value` rounded to `places` decimals without Foundation's formatter; with `trimmingZeros`,
/// trailing zeros (and a bare point) are dropped.
func decimalText(_ value: Double, places: Int, trimmingZeros: Bool = false) -> String {
    DecimalText.text(value, places: places, trimmingZeros: trimmingZeros)
}
