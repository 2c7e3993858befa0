import Glibc
import HAL
@testable import HALLinux
import Testing

/// sd_notify over a real datagram socket, as systemd listens for it: a file path, and the
/// abstract namespace (`@name`).
@Suite struct SystemdNotifierTests {
    /// A bound `SOCK_DGRAM` socket standing in for systemd's notify socket.
    final class Listener {
        let fd: CInt
        let name: String

        init(abstract: Bool) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            try #require(fd >= 0)
            let unique = "thunderstorm-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            name = abstract ? "@\(unique)" : "/tmp/\(unique).sock"
            var address = sockaddr_un()
            let length = try #require(SystemdNotifier.fill(&address, path: name))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            try #require(bound == 0, "bind \(name): errno \(errno)")
        }

        deinit {
            close(fd)
            if !name.hasPrefix("@") { unlink(name) }
        }

        /// The next datagram, or nil after 1 s.
        func receive() -> String? {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n < 0 ? nil : String(decoding: buffer[..<n], as: UTF8.self)
        }
    }

    @Test(arguments: [false, true]) func messagesArriveAsOneDatagramEach(abstract: Bool) throws {
        let listener = try Listener(abstract: abstract)
        let notifier = SystemdNotifier(environment: { $0 == "NOTIFY_SOCKET" ? listener.name : nil })
        #expect(notifier.isEnabled)
        #expect(notifier.send("READY=1\nSTATUS=GPS 3D fix"))
        #expect(notifier.send("WATCHDOG=1" as StaticString))
        #expect(listener.receive() == "READY=1\nSTATUS=GPS 3D fix")
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(notifier.failures == 0)
    }

    @Test func withoutNotifySocketNothingIsSent() {
        let notifier = SystemdNotifier(environment: { _ in nil })
        #expect(!notifier.isEnabled)
        #expect(!notifier.send("READY=1"))
        #expect(notifier.watchdogInterval == nil)
    }

    @Test func aSocketThatIsGoneCountsAFailureAndNeverTraps() {
        let notifier = SystemdNotifier(environment: { $0 == "NOTIFY_SOCKET" ? "/tmp/thunderstorm-no-such-\(getpid()).sock" : nil })
        #expect(!notifier.send("READY=1"))
        #expect(notifier.failures == 1)
    }

    @Test func aManagerThatDoesNotReadNeverBlocksTheSender() throws {
        let listener = try Listener(abstract: true)
        let notifier = SystemdNotifier(environment: { $0 == "NOTIFY_SOCKET" ? listener.name : nil })
        // A datagram socket's queue holds net.unix.max_dgram_qlen (10 by default) datagrams.
        for _ in 0..<100 { notifier.send("WATCHDOG=1" as StaticString) }
        #expect(notifier.failures > 0)
        #expect(listener.receive() == "WATCHDOG=1")
    }

    @Test func malformedSocketPathsDisableNotification() {
        for bad in ["", "relative/path", "@", String(repeating: "x", count: 200).map { _ in "/" }.joined()] {
            let notifier = SystemdNotifier(environment: { $0 == "NOTIFY_SOCKET" ? bad : nil })
            #expect(!notifier.isEnabled, "\(bad)")
        }
    }

    @Test func watchdogIsHalfTheTimeoutAndOnlyForThisProcess() {
        let own = getpid()
        #expect(SystemdNotifier.watchdogInterval(usec: "30000000", pid: nil, ownPID: own) == .seconds(15))
        #expect(SystemdNotifier.watchdogInterval(usec: "30000000", pid: "\(own)", ownPID: own) == .seconds(15))
        #expect(SystemdNotifier.watchdogInterval(usec: "30000000", pid: "\(own + 1)", ownPID: own) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: "0", pid: nil, ownPID: own) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: "soon", pid: nil, ownPID: own) == nil)
    }
}
