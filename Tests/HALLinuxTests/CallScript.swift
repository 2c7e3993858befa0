import Glibc

/// A call a scripted table records; `name` is its case name ("open", "ioctl").
protocol ScriptedCall: Equatable {}

extension ScriptedCall {
    var name: String { String(String(describing: self).prefix { $0 != "(" }) }
}

/// The core every scripted table shares (system calls, GPIO shim, libi2c): it records each call
/// with its arguments and fails the next calls of a name with queued errno values, the way
/// swift-system's mocking tables do.
struct CallScript<Call: ScriptedCall> {
    private(set) var calls: [Call] = []
    private var failures: [String: [Int32]] = [:]

    /// The next `errnos.count` calls named `name` fail, in order, with these errno values.
    mutating func fail(_ name: String, with errnos: [Int32]) { failures[name, default: []] += errnos }

    func names(_ name: String) -> [Call] { calls.filter { $0.name == name } }

    /// Records a call that cannot fail.
    mutating func record(_ call: Call) { calls.append(call) }

    /// Records `call`; true if it must fail, with `errno` already set.
    mutating func failing(_ call: Call) -> Bool {
        calls.append(call)
        guard var queue = failures[call.name], !queue.isEmpty else { return false }
        Glibc.errno = queue.removeFirst()
        failures[call.name] = queue
        return true
    }
}
