import HAL
import HALSim
import Testing

/// Every protocol error of the OLED model: collected with a one-line description, never a crash.
@Suite struct OLEDProtocolErrorTests {
    @Test func testOLED_DataWhileArgumentsPending_IsACutOffCommand() {
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        oled.send("00 A8")
        oled.send("40 FF FF")
        #expect(oled.errors.map(\.kind) == [.commandCutOff], "reported once per command")
        #expect(oled.errors[0].byte == 0xA8)
        #expect(oled.errors[0].description == "byte 3: a data byte while command 0xA8 still waits for 1 argument byte(s); the command decoder keeps waiting")
        oled.send("00 1F")
        #expect(oled.registers.multiplexRatio == 32, "the decoder took the next command byte as the argument")
    }

    @Test func testOLED_SnapshotWhileArgumentsPending_IsACutOffCommand() {
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        oled.initialiseUpright()
        oled.send("00 21 00")
        _ = oled.snapshot()
        #expect(oled.errors.map(\.kind) == [.commandCutOff])
        #expect(oled.errors[0].message.hasPrefix("a snapshot while command 0x21"))
    }

    @Test func testOLED_SnapshotOfAPanelNeverSwitchedOn() {
        let never = OLEDControllerModel.blank(.ssd1306_128x64)
        never.send("00 8D 14")
        _ = never.snapshot()
        #expect(never.errors.map(\.kind) == [.panelNeverLit])
        #expect(never.errors[0].message.contains("no AF"))

        let noPump = OLEDControllerModel.blank(.ssd1306_128x64)
        noPump.send("00 AF")
        _ = noPump.snapshot()
        #expect(noPump.errors.map(\.kind) == [.panelNeverLit])
        #expect(noPump.errors[0].message.contains("8D 14"))

        let sleeping = OLEDControllerModel.blank(.ssd1306_128x64)
        sleeping.initialiseUpright()
        sleeping.send("00 AE")
        #expect(sleeping.snapshot().litCount == 0)
        #expect(sleeping.errors.isEmpty, "switched off on purpose")
    }

    @Test func testOLED_MalformedControlByte() {
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        oled.send("01 AF")
        #expect(oled.errors.map(\.kind) == [.malformedControlByte])
        #expect(oled.registers.displayOn, "read as Co=0 D/C#=0")
    }

    @Test func testOLED_ClearErrors() {
        let oled = OLEDControllerModel.blank(.ssd1306_128x64)
        oled.send("00 FF")
        #expect(oled.errors.count == 1)
        oled.clearErrors()
        #expect(oled.errors.isEmpty)
    }

    @Test(arguments: [OLEDControllerModel.Configuration.ssd1306_128x64, .ssd1306_128x32, .sh1106_128x64()])
    func testOLED_RandomBytes_NeverCrash(configuration: OLEDControllerModel.Configuration) {
        let oled = OLEDControllerModel(configuration)
        var random = SplitMix64(seed: 99)
        for _ in 0..<2000 {
            let count = Int(random.next(below: 40)) + 1
            oled.send((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            if random.next(below: 50) == 0 { _ = oled.snapshot() }
        }
        _ = oled.image
        #expect(oled.errors.allSatisfy { !$0.description.isEmpty })
    }
}
