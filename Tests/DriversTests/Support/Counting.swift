import HAL
import HALSim

/// A bus that only counts: no log, no allocation (for the allocation test).
struct CountingBus: I2CBus {
    var transactions = 0
    var payloadBytes = 0
    mutating func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        transactions += 1
        payloadBytes += write.count
    }
}

/// A device that takes every write: the bus then counts what a driver sends.
final class SinkDevice: I2CDeviceModel {
    var writes = 0
    func write(_ bytes: UnsafeRawBufferPointer) throws(I2CError) { writes += 1 }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {}
    func powerOnReset() {}
}

extension I2CTransactionLog {
    /// Write transactions and their payload bytes.
    var writeTotals: (transactions: Int, payloadBytes: Int) {
        var totals = (transactions: 0, payloadBytes: 0)
        for entry in self {
            if case .write(_, let bytes, _) = entry {
                totals.transactions += 1
                totals.payloadBytes += bytes.count
            }
        }
        return totals
    }
}
