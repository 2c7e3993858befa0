/// gzip (RFC 1952) around deflate's stored blocks (RFC 1951 §3.2.4): a valid gzip stream that
/// any decoder must accept, made without zlib. It does not compress; it lets a test serve any
/// body — a corpus file recorded with `Content-Encoding: gzip` — as gzip, so the client's content
/// decoding runs for real.
public enum GzipStored {
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF]
        out.reserveCapacity(bytes.count + bytes.count / 65535 * 5 + 23)
        var offset = 0
        repeat {
            let length = min(65535, bytes.count - offset)
            let final = offset + length == bytes.count
            out.append(final ? 0x01 : 0x00)  // BFINAL, BTYPE 00 (stored), padding to the byte
            out += littleEndian(UInt16(length)) + littleEndian(~UInt16(length))
            out += bytes[offset..<(offset + length)]
            offset += length
        } while offset < bytes.count
        out += littleEndian(crc32(bytes)) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
        return out
    }

    /// CRC-32 of gzip and zip (reflected polynomial 0xEDB88320).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
