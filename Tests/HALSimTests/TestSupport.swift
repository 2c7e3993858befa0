import HAL
import HALSim

/// Reads everything a serial port has now, through a buffer of `chunk` bytes per call.
func drain(_ port: some SerialPort, chunk: Int = 64) throws(SerialError) -> [UInt8] {
    var port = port
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
        var n = 0
        var failure: SerialError?
        buffer.withUnsafeMutableBytes { raw in
            do throws(SerialError) { n = try port.read(into: raw) } catch { failure = error }
        }
        if let failure { throw failure }
        if n == 0 { return result }
        result += buffer[..<n]
    }
}

/// Reads up to `max` pending edges.
func edges(_ inputs: some DigitalInputs, max: Int = 64) throws(GPIOError) -> [Edge] {
    var inputs = inputs
    var buffer = [Edge](repeating: Edge(line: -1, direction: .rising, time: .zero), count: max)
    var n = 0
    var failure: GPIOError?
    buffer.withUnsafeMutableBufferPointer { pointer in
        do throws(GPIOError) { n = try inputs.readEdges(into: pointer) } catch { failure = error }
    }
    if let failure { throw failure }
    return Array(buffer[..<n])
}

extension Instant {
    static func ms(_ value: Int64) -> Instant { Instant(nanoseconds: value * 1_000_000) }
}

/// The error of type `E` that `body` throws, or `nil` when it throws nothing (or another type).
func caught<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do {
        try body()
        return nil
    } catch let error as E {
        return error
    } catch {
        return nil
    }
}
