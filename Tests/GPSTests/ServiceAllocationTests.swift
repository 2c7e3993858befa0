import GPS
import HAL
import HALSim
import SystemPackage
import AllocationCounting
import Testing

/// A port that hands out a prepared byte stream up to a limit the test moves: the only way to
/// count the service's allocations alone (the simulated port's own buffers grow as bytes
/// arrive, a pty needs the test to write).
private final class ReplayPort: SerialPort {
    let bytes: [UInt8]
    var cursor = 0
    var limit = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let n = min(buffer.count, limit - cursor)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[cursor..<cursor + n]))
        }
        cursor += n
        return n
    }
}

private struct ReplayDevices: SerialDevices {
    let port: ReplayPort
    func open(_ path: FilePath, baudRate: BaudRate) throws(SerialError) -> ReplayPort { port }
    func byIDDevices() -> [FilePath] { [] }
}

@Suite struct ServiceAllocationTests {
    /// docs/design/architecture.md#the-loop: a read with new bytes and a tick with nothing new allocate nothing.
    @Test func testService_SteadyState_ReadsAndTicksWithoutAllocating() {
        let route = hamiltonRoute(noFix: [3])
        var stream: [UInt8] = []
        var ends: [Int] = []
        for k in 0..<12 {
            stream += route.sentences(epoch: k)
            ends.append(stream.count)
        }
        let port = ReplayPort(stream)
        let clock = VirtualClock()
        let service = LocationService(
            devices: ReplayDevices(port: port), clock: clock, configuration: .init(path: "/dev/ttyACM0", baudRate: .b9600))
        service.tick()  // opens: allowed to allocate
        let body = {
            port.cursor = 0
            for end in ends {
                port.limit = end
                clock.advance(by: .seconds(1))
                service.readAvailable()
                service.tick()
                keepAlive(service.state)
                keepAlive(service.nextDeadline)
                keepAlive(service.currentFix)
                // Ticks with nothing new between epochs.
                for _ in 0..<3 {
                    clock.advance(by: .milliseconds(200))
                    service.readAvailable()
                    service.tick()
                    keepAlive(service.state)
                }
            }
        }
        let count = countAllocations(body)
        if case .unavailable(let reason) = count { Issue.record("cannot count allocations: \(reason)") }
        #expect(count == .counted(0))
        #expect(service.lastFix != nil)  // the body did decode fixes
        #expect(service.statistics.accepted >= 36)
    }
}
