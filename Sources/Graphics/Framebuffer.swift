/// A 1-bit image in the RAM layout of the SSD1306 and SH1106 (SSD1306 data sheet §8.7,
/// "Graphic Display Data RAM"): the rows are grouped in pages of 8, a page is `width` bytes
/// from left to right, and bit 0 of a byte is the topmost pixel of its page. A flush is then a
/// copy of byte runs, never a repack of pixels.
///
/// Storage is allocated once, in `init`; drawing mutates it in place. Everything outside the
/// image is clipped, so a drawing call never traps on its coordinates.
public struct Framebuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `pages × width` bytes, page-major: byte `page * width + x` holds rows `8·page … 8·page+7`
    /// of column `x`, the top row in bit 0.
    public private(set) var bytes: [UInt8]

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a framebuffer has at least one pixel")
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0, count: width * ((height + 7) / 8))
    }

    /// Pages of 8 rows; the last one is partly used when `height` is not a multiple of 8.
    public var pages: Int { (height + 7) / 8 }

    /// Whether the pixel is lit; `false` outside the image. Setting outside the image does
    /// nothing.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            guard contains(x: x, y: y) else { return false }
            return bytes[(y >> 3) * width + x] & (1 << (y & 7)) != 0
        }
        set {
            guard contains(x: x, y: y) else { return }
            let index = (y >> 3) * width + x
            let bit: UInt8 = 1 << UInt8(y & 7)
            if newValue { bytes[index] |= bit } else { bytes[index] &= ~bit }
        }
    }

    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && x < width && y >= 0 && y < height
    }

    /// Turns every pixel off.
    public mutating func clear() {
        for index in bytes.indices { bytes[index] = 0 }
    }

    /// The byte at `column` of `page` (for drivers and fast paths).
    public func byte(page: Int, column: Int) -> UInt8 { bytes[page * width + column] }

    /// Read access to the page-major bytes without a copy.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(E) -> R in try body(raw) } }
        return try result.get()
    }

    /// Write access to the page-major bytes, for blits that are byte copies.
    public mutating func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let result = bytes.withUnsafeMutableBytes { raw in Result { () throws(E) -> R in try body(raw) } }
        return try result.get()
    }
}

/// `Framebuffer` as a `DrawTarget`, with the two fast paths the contract allows.
///
/// Both work on whole bytes of the page-major layout: a filled rectangle is one OR (or AND) of
/// a row mask per page and column, and a bitmap is one byte per page and column, shifted into
/// place when its top is not on a page boundary (a byte copy when it is). Each must light
/// exactly the pixels of the generic `setPixel` version in `DrawTarget.swift`; the property
/// test `fastPathsMatchTheGenericPath` draws random shapes both ways and compares the bytes.
extension Framebuffer: DrawTarget {
    public mutating func setPixel(x: Int, y: Int, on: Bool) {
        self[x, y] = on
    }

    public mutating func fillRect(x: Int, y: Int, width: Int, height: Int, on: Bool) {
        guard let columns = Clip.span(x, width, within: self.width),
              let rows = Clip.span(y, height, within: self.height) else { return }
        let stride = self.width
        bytes.withUnsafeMutableBufferPointer { buffer in
            for page in (rows.lowerBound >> 3) ... ((rows.upperBound - 1) >> 3) {
                let mask = Clip.pageMask(page, rows: rows)
                let start = page * stride
                if on {
                    for column in columns { buffer[start + column] |= mask }
                } else {
                    let keep = ~mask
                    for column in columns { buffer[start + column] &= keep }
                }
            }
        }
    }

    public mutating func draw(_ bitmap: Bitmap, x: Int, y: Int, mode: BitmapMode) {
        guard let columns = Clip.span(x, bitmap.width, within: self.width),
              let rows = Clip.span(y, bitmap.height, within: self.height) else { return }
        // Both spans are non-empty, so x and y are within a bitmap's size of the framebuffer
        // and the differences below cannot overflow.
        let stride = self.width
        let source = bitmap.storage
        bytes.withUnsafeMutableBufferPointer { target in
            source.withUnsafeBufferPointer { source in
                for page in (rows.lowerBound >> 3) ... ((rows.upperBound - 1) >> 3) {
                    // The bits of this page that the bitmap covers, inside the framebuffer.
                    let cover = Clip.pageMask(page, rows: rows)
                    // Bitmap row at bit 0 of this page (may be negative): it sits in bitmap
                    // page `upper` at bit `shift`; the rest of the byte comes from `upper + 1`.
                    let top = (page << 3) - y
                    let upper = top >> 3, shift = top & 7
                    let upperBits = bitmap.validBits(page: upper), lowerBits = bitmap.validBits(page: upper + 1)
                    let upperStart = bitmap.base + upper * bitmap.stride - x
                    let lowerStart = upperStart + bitmap.stride
                    let start = page * stride
                    for column in columns {
                        var value: UInt8
                        if shift == 0 {
                            value = upperBits == 0 ? 0 : source[upperStart + column] & upperBits
                        } else {
                            let high = upperBits == 0 ? 0 : source[upperStart + column] & upperBits
                            let low = lowerBits == 0 ? 0 : source[lowerStart + column] & lowerBits
                            value = (high &>> UInt8(shift)) | (low &<< UInt8(8 - shift))
                        }
                        value &= cover
                        switch mode {
                        case .overlay: target[start + column] |= value
                        case .copy: target[start + column] = (target[start + column] & ~cover) | value
                        case .erase: target[start + column] &= ~value
                        }
                    }
                }
            }
        }
    }
}
