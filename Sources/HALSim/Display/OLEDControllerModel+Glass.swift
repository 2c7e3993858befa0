extension OLEDControllerModel {
    /// What the glass shows now, computed from the RAM and the registers.
    ///
    /// - Dark: the display is off (`AE`, SSD1306 §10.1.12), or the module runs on internal VCC
    ///   with the charge pump / DC-DC off (nothing drives the OLEDs).
    /// - Rows (SSD1306 §8.4–8.6, §10.1.6/11/14/15/18; the SH1106 has the same chain): scanned
    ///   row k (0 ≤ k < multiplex ratio N) shows RAM row (k + start line) mod 64. Row k drives COM
    ///   (k − offset) mod 64 with the normal scan (`C0`), COM (N − 1 − k − offset) mod 64 with
    ///   the reversed scan (`C8`, "from COM[N-1] to COM0"): the offset moves the picture towards
    ///   COM0. The COM pin configuration (`DA`, Table 10-3) then maps that COM to a pad:
    ///   sequential COM c → pad c; alternative → pad c/2 for even c and 32 + c/2 for odd c (the
    ///   rows alternate between the chip's two sides); left/right remap swaps the halves. A pad
    ///   no scanned row drives stays dark.
    /// - The module's wiring ties each glass row to a pad. "Upright" is what every library
    ///   sends and the corpus images show: `A1` + `C8`, offset 0, start line 0, N = panel
    ///   height, `DA` as the module needs. Glass row y is therefore wired to the pad that setting
    ///   drives with RAM row y — so a wrong `DA` interleaves rows, a wrong N or offset moves them.
    /// - Columns: under `A1` column address c lands on SEG (RAM columns − 1 − c), and the glass
    ///   shows columns `columnOffset`… upright, so glass column x is wired to SEG
    ///   (RAM columns − 1 − columnOffset − x). An image written under `A0` appears mirrored.
    /// - `A5` lights every scanned pixel whatever the RAM holds (§10.1.9); otherwise `A7`
    ///   inverts RAM bits (§10.1.10). Contrast, timing and voltages are not drawn.
    public var image: PanelImage {
        let width = configuration.width
        let height = configuration.height
        var image = PanelImage(width: width, height: height)
        guard isLit else { return image }
        let r = registers
        let n = r.multiplexRatio
        // Which COM drives each pad under the current DA setting.
        var comOfPad = [Int](repeating: -1, count: 64)
        for com in 0..<64 {
            comOfPad[Self.pad(com: com, alternative: r.comAlternative, leftRightRemap: r.comLeftRightRemap)] = com
        }
        for y in 0..<height {
            let com = comOfPad[wiredPad(row: y)]
            let offset = Int(r.displayOffset)
            let scanned = r.comScanReversed ? (n - 1 - offset - com) & 63 : (com + offset) & 63
            guard scanned < n else { continue }  // a COM no scanned row drives
            let ramRow = (scanned + Int(r.startLine)) & 63
            let base = (ramRow >> 3) * ramColumns
            let bit = UInt8(1) << UInt8(ramRow & 7)
            for x in 0..<width {
                let segment = ramColumns - 1 - configuration.columnOffset - x
                guard segment >= 0 else { continue }
                let on = r.entireDisplayOn || ((ram[base + segment] & bit != 0) != r.inverted)
                if on { image[x, y] = true }
            }
        }
        return image
    }

    /// Whether anything can light: display on and, on internal VCC, the charge pump on.
    public var isLit: Bool {
        registers.displayOn && (configuration.supply == .externalVCC || registers.chargePump)
    }

    /// The image at a `!snapshot`, after reporting a command still waiting for arguments and
    /// a panel never switched on since power-on (no `AF`, or no charge pump on internal VCC).
    /// A panel switched off on purpose (`AF` then `AE`) is dark without an error.
    public func snapshot() -> PanelImage {
        reportCutOff(by: "a snapshot")
        if !everSwitchedOn {
            record(.panelNeverLit, "snapshot of a panel never switched on since power-on (no AF): the glass is dark")
        } else if configuration.supply == .internalVCC && !registers.chargePump {
            let how = configuration.controller == .ssd1306 ? "8D 14" : "AD 8B"
            record(.panelNeverLit,
                "snapshot with the charge pump off on an internal-VCC module (send \(how) before AF): the glass is dark")
        }
        return image
    }

    /// The pad glass row `row` is wired to: the one the upright setting drives with RAM row `row`.
    func wiredPad(row: Int) -> Int {
        let n = configuration.height
        let com = n - 1 - row  // C8, offset 0, start line 0
        switch configuration.comWiring {
        case .sequential: return Self.pad(com: com, alternative: false, leftRightRemap: false)
        case .alternative: return Self.pad(com: com, alternative: true, leftRightRemap: false)
        case .sequentialLeftRightRemap: return Self.pad(com: com, alternative: false, leftRightRemap: true)
        case .alternativeLeftRightRemap: return Self.pad(com: com, alternative: true, leftRightRemap: true)
        }
    }

    /// SSD1306 Table 10-3: the pad COM `com` comes out on.
    static func pad(com: Int, alternative: Bool, leftRightRemap: Bool) -> Int {
        let pad = alternative ? com / 2 + (com & 1) * 32 : com
        return leftRightRemap ? pad ^ 32 : pad
    }
}
