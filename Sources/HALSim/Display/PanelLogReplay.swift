import HAL

/// Plays an I²C transaction log (`corpus/displays/*.log`, or one a `SimulatedI2CBus` recorded)
/// into a display model and collects the panel image at every `!snapshot NAME` line.
///
/// - Every write transaction goes through a `SimulatedI2CBus` with the model attached at
///   `address`, exactly as a driver's would; transactions to other addresses are not
///   acknowledged and are listed in `unacknowledged`.
/// - A `t=` time moves `clock` forward to it before the transaction (a model holding the same
///   clock, such as `HD44780Backpack`, then sees when each port state happened). A time earlier
///   than the clock is listed in `issues` and the clock stays.
/// - `!reset` is a power-on reset of the model (`powerOnReset()`); `!snapshot NAME` takes
///   `model.snapshot()`; comments and read phases are skipped.
///
/// ```swift
/// let clock = VirtualClock()
/// let panel = OLEDControllerModel(.ssd1306_128x64)
/// let replay = PanelLogReplay(try I2CTransactionLog(parsing: text), into: panel, at: 0x3C, clock: clock)
/// #expect(replay.snapshots[0].image == expected)
/// #expect(panel.errors.isEmpty)
/// ```
public struct PanelLogReplay {
    public struct Snapshot: Sendable, Equatable {
        public var name: String
        public var image: PanelImage
        /// The model's protocol errors up to this snapshot (all since the start of the replay).
        public var errorCount: Int
    }

    public private(set) var snapshots: [Snapshot] = []
    /// Transactions that no device acknowledged (another address), as `line: description`.
    public private(set) var unacknowledged: [String] = []
    /// Times that went backwards.
    public private(set) var issues: [String] = []
    /// Write transactions delivered to the model.
    public private(set) var transactions = 0

    /// Replays `log` into `model` at `address`, moving `clock` (when given) to each `t=` time.
    public init(_ log: I2CTransactionLog, into model: some PanelModel, at address: UInt8, clock: VirtualClock? = nil) {
        let bus = SimulatedI2CBus(clock: clock)
        bus.isLogging = false
        bus.attach(model, at: address)
        let errorsBefore = model.errors.count
        for (index, entry) in log.enumerated() {
            switch entry {
            case .write(let target, let bytes, let time):
                if let time, let clock {
                    if time >= clock.now() {
                        clock.advance(to: time)
                    } else {
                        issues.append("entry \(index): t=\(time) is before the clock's \(clock.now())")
                    }
                }
                var failure: I2CError?
                bytes.withUnsafeBytes { raw in
                    do throws(I2CError) {
                        try bus.transfer(address: target, write: raw, read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
                    } catch {
                        failure = error
                    }
                }
                if let failure {
                    unacknowledged.append("entry \(index): \(PanelProtocolError.hex(target)): \(failure)")
                } else {
                    transactions += 1
                }
            case .snapshot(let name):
                let image = model.snapshot()
                snapshots.append(Snapshot(name: name, image: image, errorCount: model.errors.count - errorsBefore))
            case .reset:
                model.powerOnReset()
            case .read, .comment:
                continue
            }
        }
    }

    /// The snapshot called `name`, if the log has one.
    public func snapshot(named name: String) -> Snapshot? { snapshots.first { $0.name == name } }
}
