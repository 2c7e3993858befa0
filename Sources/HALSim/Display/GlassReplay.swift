import HAL

/// What a panel's glass shows after a recorded bus, up to a chosen moment: the log of a real bus
/// (the virtual board's emulated panel, docs/reference/i2c-log.md) replayed into the panel's model, for
/// `thunderstorm glass` to read.
///
/// A real daemon's log has no `!snapshot` lines and carries other devices' traffic (a BME280's
/// register reads at 0x76), so, unlike `PanelLogReplay` used directly:
/// - only the write transactions to `address` reach the model; those to other addresses are
///   counted and skipped (they are not the panel's, and not a fault); `!reset` still resets it;
/// - `!snapshot` lines, comments and read phases are skipped; the image is taken once, at the
///   end (`PanelModel.snapshot()`, which reports a command still waiting for its arguments);
/// - with `until`, the replay stops at the first transaction stamped later than `until`, so the
///   glass reads as it was at that moment. A transaction without `t=` belongs to the moment of
///   the stamped one before it and is replayed when that one is.
///
/// The panel transactions go through `PanelLogReplay`, so `t=` moves `clock` exactly as there
/// (an HD44780 backpack on the same clock checks the controller's execution times).
public struct GlassReplay {
    /// Write transactions delivered to the panel.
    public let transactions: Int
    /// Write transactions to other addresses, skipped.
    public let otherTransactions: Int
    /// The `t=` of the last panel transaction replayed, if it had one.
    public let lastTime: Instant?
    /// What the glass shows at the end of the replay.
    public let image: PanelImage
    /// The model's protocol errors since power-on, the final snapshot's included.
    public let modelErrors: [PanelProtocolError]
    /// Times that went backwards (`PanelLogReplay.issues`).
    public let issues: [String]

    public init(
        _ log: I2CTransactionLog, into model: some PanelModel, at address: UInt8, until: Instant? = nil,
        clock: VirtualClock? = nil
    ) {
        var panel = I2CTransactionLog()
        var others = 0
        var last: Instant?
        scan: for entry in log {
            switch entry {
            case .write(let target, _, let time), .read(let target, _, let time):
                if let until, let time, time > until { break scan }
                guard case .write = entry else { continue }
                if target == address {
                    panel.append(entry)
                    if let time { last = time }
                } else {
                    others += 1
                }
            case .reset:
                panel.append(entry)
            case .snapshot, .comment:
                continue
            }
        }
        panel.appendSnapshot("glass")
        let replay = PanelLogReplay(panel, into: model, at: address, clock: clock)
        transactions = replay.transactions
        otherTransactions = others
        lastTime = last
        image = replay.snapshots.last?.image ?? model.image
        modelErrors = model.errors
        issues = replay.issues
    }
}
