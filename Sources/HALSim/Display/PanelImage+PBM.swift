/// A PBM file that cannot be read as a panel image: what is wrong, and at which byte.
public struct PBMParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "PBM byte \(offset): \(message)" }
}

extension PanelImage {
    /// The image as a binary PBM (Netpbm "P4") file, as `corpus/displays/*_expected.pbm` are
    /// written and docs/reference/i2c-log.md#panel-images requires: header `P4\n<width> <height>\n`, then each row packed
    /// eight pixels per byte, most significant bit first, padded to a whole byte. Netpbm's
    /// meaning of a bit is ink on paper: 1 = black = a dark pixel, 0 = white = a lit one.
    public func pbm() -> [UInt8] {
        var bytes = Array("P4\n\(width) \(height)\n".utf8)
        let rowBytes = (width + 7) / 8
        bytes.reserveCapacity(bytes.count + rowBytes * height)
        for y in 0..<height {
            for byteIndex in 0..<rowBytes {
                var packed: UInt8 = 0
                for bit in 0..<8 {
                    let x = byteIndex * 8 + bit
                    // Padding bits beyond the width are written as 0, as netpbm does.
                    if x < width && !self[x, y] { packed |= 0x80 >> UInt8(bit) }
                }
                bytes.append(packed)
            }
        }
        return bytes
    }

    /// Reads a binary PBM ("P4") file: the magic number, white space, optional `#` comments
    /// (to the end of their line) between header fields, the width and height in decimal, one
    /// white-space byte, then the packed rows (bit 1 = black = dark). Bytes after the raster
    /// are ignored (Netpbm allows several images in one file; the first one is read).
    public init(pbm bytes: some Collection<UInt8>) throws(PBMParseError) {
        let data = Array(bytes)
        var reader = PBMHeaderReader(data: data)
        guard data.count >= 2, data[0] == UInt8(ascii: "P"), data[1] == UInt8(ascii: "4") else {
            throw PBMParseError(offset: 0, "not a binary PBM file (expected the magic number P4)")
        }
        reader.position = 2
        let width = try reader.number("width")
        let height = try reader.number("height")
        guard reader.position < data.count, PBMHeaderReader.isSpace(data[reader.position]) else {
            throw PBMParseError(offset: reader.position, "expected one white-space byte before the raster")
        }
        reader.position += 1
        let rowBytes = (width + 7) / 8
        let (needed, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow, data.count - reader.position >= needed else {
            throw PBMParseError(
                offset: data.count,
                "the raster is cut short: \(width)×\(height) needs \(needed) bytes, \(data.count - reader.position) present")
        }
        let start = reader.position
        self.init(width: width, height: height) { x, y in
            let byte = data[start + y * rowBytes + x / 8]
            return byte & (0x80 >> UInt8(x % 8)) == 0
        }
    }
}

/// Reads the decimal fields of a PBM header, skipping white space and `#` comments.
private struct PBMHeaderReader {
    let data: [UInt8]
    var position = 0

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

    mutating func number(_ field: String) throws(PBMParseError) -> Int {
        var sawSeparator = false
        while position < data.count {
            let b = data[position]
            if Self.isSpace(b) {
                sawSeparator = true
                position += 1
            } else if b == UInt8(ascii: "#") {
                sawSeparator = true
                while position < data.count, data[position] != 0x0A, data[position] != 0x0D { position += 1 }
            } else {
                break
            }
        }
        guard sawSeparator else { throw PBMParseError(offset: position, "expected white space before the \(field)") }
        var value = 0
        var digits = 0
        while position < data.count, (0x30...0x39).contains(data[position]) {
            value = value * 10 + Int(data[position] - 0x30)
            guard value <= 1 << 20 else { throw PBMParseError(offset: position, "the \(field) is too large") }
            position += 1
            digits += 1
        }
        guard digits > 0 else { throw PBMParseError(offset: position, "expected the \(field) in decimal") }
        return value
    }
}
