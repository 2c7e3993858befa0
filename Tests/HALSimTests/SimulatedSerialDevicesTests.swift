import HAL
import HALSim
import SystemPackage
import Testing

@Suite struct SimulatedSerialDevicesTests {
    /// A receiver unplugged for a simulated year is tried every 30 s (the location service's
    /// longest backoff): over a million attempts. The twin keeps only the latest, so a soak's
    /// memory measures the device, not the twin's history.
    @Test func testSerialDevices_YearOfRetries_HistoryStaysBounded() {
        let devices = SimulatedSerialDevices(clock: VirtualClock())
        let path: FilePath = "/dev/serial0"
        let tries = 365 * 86_400 / 30
        for _ in 0..<tries { _ = try? devices.open(path, baudRate: .b9600) }
        #expect(devices.attempts.count == SimulatedSerialDevices.historyLimit)
        #expect(devices.attemptCount == tries)
        #expect(devices.openCount == 0)

        devices.attach(path)
        for _ in 0..<(SimulatedSerialDevices.historyLimit + 10) { _ = try? devices.open(path, baudRate: .b4800) }
        _ = try? devices.open(path, baudRate: .b9600)
        #expect(devices.opens.count == SimulatedSerialDevices.historyLimit)
        #expect(devices.openCount == SimulatedSerialDevices.historyLimit + 11)
        #expect(devices.opens.last?.baudRate == .b9600, "the latest open is kept, the oldest dropped")
        #expect(devices.attempts.last == path)
    }
}
