import CLinuxHAL
import HAL

/// Whether the kernel vouches for `CLOCK_REALTIME` (adjtimex(2), `STA_UNSYNC`; docs/design/decisions.md#one-authority-for-time): NTP (systemd-timesyncd,
/// chrony) or a GPS time daemon keeps it and has marked it synchronised. A Pi has no
/// battery-backed clock, so after a boot without network its wall time is the last shutdown's
/// (fake-hwclock) or 1970: the device then takes its time from GPS instead.
///
/// The corresponding C call is `adjtimex(2)` with `modes` 0, which reads without changing
/// anything and needs no privilege: synchronised when it returns neither -1 nor `TIME_ERROR`
/// and `status` has no `STA_UNSYNC` (the bit the kernel sets when the clock was stepped or
/// nothing disciplined it for a while).
public struct KernelClock<Calls: SystemCalls> {
    let calls: Calls

    public init(calls: Calls) { self.calls = calls }

    public func isSynchronised() -> Bool {
        var status: CInt = 0
        let result = calls.adjtimex(&status)
        return result != -1 && result != TH_TIME_ERROR && status & TH_STA_UNSYNC == 0
    }
}

extension KernelClock where Calls == LiveSystemCalls {
    public init() { self.init(calls: LiveSystemCalls()) }
}
