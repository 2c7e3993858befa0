extension PanelImage {
    /// The image as a PNG file (docs/reference/i2c-log.md#panel-images), for people to look at: 8-bit greyscale, each
    /// panel pixel drawn as a `scale` × `scale` square, lit pixels `lit` (white by default, as
    /// an OLED glows) and dark ones `dark` (black).
    ///
    /// Written by hand so the simulated HAL needs no zlib (PNG spec, W3C 2003 / ISO 15948):
    /// `IHDR` (colour type 0, bit depth 8, no interlace), one `IDAT` holding a zlib stream
    /// (RFC 1950: header `78 01`, Adler-32 trailer) made of *stored* deflate blocks (RFC 1951
    /// §3.2.4: BTYPE 00, LEN/NLEN, ≤ 65,535 raw bytes each) over the rows, each row prefixed with
    /// filter type 0, and `IEND`; every chunk closed by its CRC-32 (ISO 3309 polynomial). A
    /// 128×64 panel at scale 1 is about 8.3 KB.
    public func png(scale: Int = 1, lit: UInt8 = 0xFF, dark: UInt8 = 0x00) -> [UInt8] {
        precondition(scale >= 1, "scale is a whole factor of at least 1")
        let outWidth = width * scale
        let outHeight = height * scale
        var raw: [UInt8] = []
        raw.reserveCapacity((outWidth + 1) * outHeight)
        var row = [UInt8](repeating: 0, count: outWidth)
        for y in 0..<height {
            for x in 0..<width {
                let value = self[x, y] ? lit : dark
                for i in 0..<scale { row[x * scale + i] = value }
            }
            for _ in 0..<scale {
                raw.append(0)  // filter type None
                raw.append(contentsOf: row)
            }
        }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        PNGWriter.appendBigEndian(UInt32(outWidth), to: &header)
        PNGWriter.appendBigEndian(UInt32(outHeight), to: &header)
        header += [8, 0, 0, 0, 0]  // bit depth 8, greyscale, deflate, adaptive filtering, no interlace
        PNGWriter.appendChunk("IHDR", header, to: &png)
        PNGWriter.appendChunk("IDAT", PNGWriter.zlibStored(raw), to: &png)
        PNGWriter.appendChunk("IEND", [], to: &png)
        return png
    }
}

/// The checksums and framing the PNG encoder needs; internal so tests can check them against
/// published values.
enum PNGWriter {
    /// CRC-32 as PNG and zlib's `crc32` compute it (reflected polynomial 0xEDB88320, initial
    /// value and final XOR 0xFFFFFFFF). `crc32("123456789") == 0xCBF43926`.
    static func crc32(_ bytes: some Sequence<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Adler-32 (RFC 1950 §8.2). `adler32("Wikipedia") == 0x11E60398`.
    static func adler32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]  // CM 8 (deflate), 32 KiB window; FCHECK makes 0x7801 % 31 == 0
        out.reserveCapacity(data.count + data.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out.append(final)  // BFINAL, BTYPE 00 (stored); the rest of the byte is padding
            out.append(UInt8(count & 0xFF))
            out.append(UInt8(count >> 8))
            out.append(UInt8(~count & 0xFF))
            out.append(UInt8((~count >> 8) & 0xFF))
            out.append(contentsOf: data[offset..<offset + count])
            offset += count
        } while offset < data.count
        appendBigEndian(adler32(data), to: &out)
        return out
    }

    /// Length, type, data, CRC-32 over type and data.
    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        appendBigEndian(UInt32(data.count), to: &png)
        png += typeBytes
        png += data
        appendBigEndian(crc32(data, continuing: crc32(typeBytes)), to: &png)
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
