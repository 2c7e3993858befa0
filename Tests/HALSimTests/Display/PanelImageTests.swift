@testable import HALSim
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite struct PanelImageTests {
    static let glider = PanelImage(art: """
        .#.........
        ..#........
        ###.......#
        """)

    @Test func testPanelImage_Art_ParsesAndRenders() {
        let image = Self.glider
        #expect(image.width == 11 && image.height == 3)
        #expect(image[1, 0] && image[10, 2] && !image[0, 0])
        #expect(!image[-1, 0] && !image[11, 0], "outside the image is dark")
        #expect(image.litCount == 6)
        #expect(image.asciiArt() == ".#.........\n..#........\n###.......#\n")
    }

    @Test func testPanelImage_DifferingPixels_CountsAndSizeMismatch() {
        var other = Self.glider
        other[0, 0] = true
        other[1, 0] = false
        #expect(other.differingPixels(from: Self.glider) == 2)
        #expect(Self.glider.differingPixels(from: Self.glider) == 0)
        let wider = PanelImage(width: 12, height: 3)
        #expect(wider.differingPixels(from: PanelImage(width: 11, height: 3)) == 3, "the extra column counts")
        let art = PanelImage.differenceArt(expected: Self.glider, actual: other)
        #expect(art == "  0 +-.........\n")
    }

    @Test func testPanelImage_PBM_RoundTripsOddWidths() throws {
        let pbm = Self.glider.pbm()
        #expect(Array(pbm.prefix(9)) == Array("P4\n11 3\n".utf8) + [pbm[8]])
        #expect(pbm.count == 8 + 3 * 2)
        // Row 0 `.#.........`: 1 = dark, so 1011 1111 111(0 0000 padding).
        #expect(pbm[8] == 0b1011_1111 && pbm[9] == 0b1110_0000)
        #expect(try PanelImage(pbm: pbm) == Self.glider)
    }

    @Test func testPanelImage_PBM_ReadsCommentsAndWhiteSpace() throws {
        let header = Array("P4\n# made by hand\n 8\t2\n".utf8)
        let image = try PanelImage(pbm: header + [0x00, 0xFE])
        #expect(image.width == 8 && image.height == 2)
        #expect(image.litCount == 9, "row 0 all lit, row 1 only the last pixel")
    }

    @Test func testPanelImage_PBM_RejectsWhatIsNotP4() {
        #expect(throws: PBMParseError.self) { try PanelImage(pbm: Array("P1\n1 1\n0".utf8)) }
        #expect(throws: PBMParseError.self) { try PanelImage(pbm: Array("P4\n16 2\n".utf8) + [0, 0, 0]) }
        #expect(throws: PBMParseError.self) { try PanelImage(pbm: Array("P4\nx 2\n".utf8)) }
    }

    @Test func testPanelImage_Checksums_MatchPublishedValues() {
        #expect(PNGWriter.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGWriter.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(PNGWriter.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func testPanelImage_PNG_StructureAndStoredBlocks() throws {
        let png = Self.glider.png(scale: 3)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var chunks: [(String, [UInt8])] = []
        var offset = 8
        while offset < png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(png[offset + 8..<offset + 8 + length])
            let crc = png[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(crc == PNGWriter.crc32(Array(png[offset + 4..<offset + 8 + length])), "\(type) CRC")
            chunks.append((type, data))
            offset += 12 + length
        }
        #expect(chunks.map(\.0) == ["IHDR", "IDAT", "IEND"])
        #expect(chunks[0].1 == [0, 0, 0, 33, 0, 0, 0, 9, 8, 0, 0, 0, 0])
        // One stored block: 78 01, BFINAL|BTYPE 00, LEN, NLEN, 9 rows × (1 + 33) bytes, Adler-32.
        let z = chunks[1].1
        #expect(Array(z.prefix(3)) == [0x78, 0x01, 0x01])
        let raw = Array(z[7..<z.count - 4])
        #expect(raw.count == 9 * 34 && Int(z[3]) | Int(z[4]) << 8 == raw.count && z[5] == ~z[3] && z[6] == ~z[4])
        #expect(z.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } == PNGWriter.adler32(raw))
        for y in 0..<9 {
            #expect(raw[y * 34] == 0, "filter None")
            for x in 0..<33 { #expect((raw[y * 34 + 1 + x] == 0xFF) == Self.glider[x / 3, y / 3]) }
        }
    }

    @Test func testPanelImage_PNG_LargeImageSplitsIntoBlocks() {
        let z = PNGWriter.zlibStored([UInt8](repeating: 7, count: 70_000))
        #expect(z[2] == 0x00 && z[3] == 0xFF && z[4] == 0xFF, "a first, non-final block of 65,535 bytes")
        #expect(z[2 + 5 + 65535] == 0x01, "then the final block")
        #expect(z.count == 2 + 5 + 65535 + 5 + 4465 + 4)
    }

    static let pythonZlib = system("python3 -c 'import zlib' >/dev/null 2>&1") == 0

    /// Python's zlib is a known-good inflater with CRC and Adler checks; skipped without python3.
    @Test(.enabled(if: pythonZlib, "python3 with zlib is not installed"))
    func testPanelImage_PNG_DecodesWithPythonZlib() throws {
        var image = PanelImage(width: 128, height: 64) { x, y in (x * 7 + y * 3) % 5 == 0 }
        image[127, 63] = true
        let path = "/tmp/thunderstorm-panel-\(getpid())"
        defer {
            unlink(path + ".png")
            unlink(path + ".py")
        }
        let script = """
            import struct, sys, zlib
            d = open(sys.argv[1], 'rb').read(); assert d[:8] == b'\\x89PNG\\r\\n\\x1a\\n'; i = 8; idat = b''
            while i < len(d):
                n, t = struct.unpack('>I4s', d[i:i+8]); body = d[i+8:i+8+n]
                assert struct.unpack('>I', d[i+8+n:i+12+n])[0] == zlib.crc32(t + body), t
                if t == b'IHDR': w, h, depth, kind = struct.unpack('>IIBB', body[:10])
                if t == b'IDAT': idat += body
                i += 12 + n
            raw = zlib.decompress(idat); assert (w, h, depth, kind) == (256, 128, 8, 0)
            rows = [raw[r*(w+1):(r+1)*(w+1)] for r in range(h)]
            assert all(r[0] == 0 for r in rows)
            ok = all((rows[y][1+x] == 255) == (((x//2)*7 + (y//2)*3) % 5 == 0 or (x//2, y//2) == (127, 63)) for y in range(h) for x in range(w))
            sys.exit(0 if ok else 3)
            """
        try Self.save(image.png(scale: 2), to: path + ".png")
        try Self.save(Array(script.utf8), to: path + ".py")
        let status = system("python3 \(path).py \(path).png")
        #expect(status == 0, "python3 zlib rejected the PNG (status \(status))")
    }

    static func save(_ bytes: [UInt8], to path: String) throws {
        let file = try #require(fopen(path, "wb"))
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
}
