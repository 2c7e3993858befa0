import HAL
import HALSim
import Testing

@Suite struct SimulatedSerialPortTests {
    let sentence = Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)

    @Test func testSerial_Feed_ReadsAtMostTheBuffer() throws {
        let port = SimulatedSerialPort()
        port.feed(sentence)
        var buffer = [UInt8](repeating: 0, count: 10)
        let n = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        #expect(n == 10)
        #expect(buffer == Array(sentence[..<10]))
        #expect(port.available == sentence.count - 10)
        #expect(try drain(port, chunk: 7) == Array(sentence[10...]))
        #expect(try drain(port) == [], "nothing left: 0, not an error")
        #expect(port.bytesRead == sentence.count)
    }

    @Test func testSerial_Script_BytesArriveAsTheClockPasses() throws {
        let clock = VirtualClock()
        let port = SimulatedSerialPort(clock: clock)
        port.load(script: [(.ms(1000), Array("first\n".utf8)), (.ms(2000), Array("second\n".utf8))])
        #expect(try drain(port) == [])
        clock.advance(to: .ms(999))
        #expect(try drain(port) == [])
        clock.advance(to: .ms(1000))
        #expect(try drain(port) == Array("first\n".utf8))
        clock.advance(to: .ms(5000))
        #expect(try drain(port) == Array("second\n".utf8))
        #expect(port.pendingScriptBytes == 0)
    }

    @Test func testSerial_Baud9600_OneBytePerCharacterTime() throws {
        let clock = VirtualClock()
        let port = SimulatedSerialPort(clock: clock)
        port.schedule(sentence, at: .zero, baudRate: .b9600)  // 10 bits per byte: 1.0417 ms
        clock.advance(by: .milliseconds(10))
        #expect(try drain(port) == Array(sentence[..<9]))
        clock.advance(by: .milliseconds(100))
        #expect(try drain(port) == Array(sentence[9...]))
    }

    @Test func testSerial_Unplug_LosesUnreadBytesAndFails() throws {
        let port = SimulatedSerialPort()
        port.feed(sentence)
        port.unplug()
        #expect(caught(SerialError.self) { _ = try drain(port) } == SerialError(.disconnected))
        port.feed(sentence)  // nothing arrives from an unplugged device
        #expect(caught(SerialError.self) { _ = try drain(port) } == SerialError(.disconnected))
        port.plugIn()
        #expect(try drain(port) == [], "the bytes before the unplug are gone, as on a real tty")
        port.feed("$GP")
        #expect(try drain(port) == Array("$GP".utf8))
    }

    @Test func testSerial_ScheduledUnplug_HappensWhenTheClockGetsThere() throws {
        let clock = VirtualClock()
        let port = SimulatedSerialPort(clock: clock)
        port.schedule(Array("a".utf8), at: .ms(10))
        port.schedule(Array("b".utf8), at: .ms(30))
        port.scheduleUnplug(at: .ms(20))
        clock.advance(to: .ms(15))
        #expect(try drain(port) == Array("a".utf8))
        clock.advance(to: .ms(40))
        #expect(caught(SerialError.self) { _ = try drain(port) } == SerialError(.disconnected))
        #expect(port.isUnplugged)
    }

    @Test func testSerial_Noise_IsDeterministicPerSeed() throws {
        func run(seed: UInt64) throws -> ([UInt8], Int) {
            let port = SimulatedSerialPort(noise: .init(bitFlipProbability: 0.05, dropProbability: 0.02, seed: seed))
            for _ in 0..<50 { port.feed(sentence) }
            return (try drain(port), port.corruptedBytes)
        }
        let clean = Array(repeating: sentence, count: 50).flatMap { $0 }
        let (a, corruptedA) = try run(seed: 7)
        let (b, _) = try run(seed: 7)
        let (c, _) = try run(seed: 8)
        #expect(a == b)
        #expect(a != c)
        #expect(a != clean)
        #expect(corruptedA > 50 && corruptedA < 500, "about 7 % of 3,400 bytes")
        #expect(a.count < clean.count, "some bytes were dropped")
    }

    @Test func testSerial_SmallReceiveBuffer_CountsOverrun() throws {
        let port = SimulatedSerialPort(receiveBufferCapacity: 16)
        port.feed(sentence)
        #expect(port.overrunBytes == sentence.count - 16)
        #expect(try drain(port) == Array(sentence[..<16]))
        port.feed(sentence[..<4])
        #expect(try drain(port) == Array(sentence[..<4]), "room again once read")
    }
}
