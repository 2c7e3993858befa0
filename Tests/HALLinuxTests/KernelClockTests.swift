import CLinuxHAL
import Glibc
import HALLinux
import Testing

/// `adjtimex(2)` read through the seam: the three ways the kernel says "not synchronised".
@Suite("HALLinux: the kernel's clock discipline")
struct KernelClockTests {
    @Test("synchronised only when the call succeeds, the state is not TIME_ERROR and STA_UNSYNC is clear")
    func states() {
        let calls = ScriptedSystemCalls()
        let clock = KernelClock(calls: calls)
        #expect(clock.isSynchronised())
        calls.clockState = (0, TH_STA_UNSYNC)  // TIME_OK
        #expect(!clock.isSynchronised())
        calls.clockState = (TH_TIME_ERROR, 0)
        #expect(!clock.isSynchronised())
        calls.clockState = (0, 0x0001)  // TIME_OK, STA_PLL
        #expect(clock.isSynchronised())
        calls.fail("adjtimex", with: EPERM)
        #expect(!clock.isSynchronised())
        #expect(calls.names("adjtimex").count == 5)
    }

    @Test("the real call answers without privileges or changes (whatever this machine's state)")
    func live() {
        _ = KernelClock().isSynchronised()
    }
}
