/// Counts of one suite: crash states judged and violations, with the first few described so a
/// failure can be reproduced (seed, step, operation number, crash choice).
final class CrashTally {
    /// Crash states checked, and how many of them left a disk image not judged before.
    var states = 0
    var distinct = 0
    var violations = 0
    /// Per kind of problem (its text without numbers, cut short): how many, and the first.
    private(set) var examples: [String: CrashExample] = [:]

    func violation(at place: String, _ problem: String) {
        violations += 1
        record(kind: String(problem.filter { !$0.isNumber }.prefix(48)), count: 1, "\(place): \(problem)")
    }

    private func record(kind: String, count: Int, _ first: String) {
        if let known = examples[kind] {
            examples[kind]!.count = known.count + count
        } else if examples.count < 16 {
            examples[kind] = CrashExample(count: count, first: first)
        }
    }

    /// One line per kind of problem: its count and its first occurrence, to replay.
    var report: String {
        examples.values.sorted { $0.first < $1.first }.map { "\($0.count)× \($0.first)" }.joined(separator: "\n")
    }

    /// The counts, to send from a task that ran one seed to the test that sums them.
    var result: CrashRunResult {
        CrashRunResult(
            states: states, distinct: distinct, violations: violations, examples: examples, compactions: compactions,
            powerCuts: powerCuts, powerCutsKeepingTheCommit: powerCutsKeepingTheCommit)
    }

    var compactions = 0
    /// Power cuts a run lived through, and how many of them recovered the commit in flight.
    var powerCuts = 0
    var powerCutsKeepingTheCommit = 0

    func add(_ other: CrashRunResult) {
        compactions += other.compactions
        powerCuts += other.powerCuts
        powerCutsKeepingTheCommit += other.powerCutsKeepingTheCommit
        states += other.states
        distinct += other.distinct
        violations += other.violations
        for (kind, example) in other.examples { record(kind: kind, count: example.count, example.first) }
    }

    /// The summary line, e.g. "FileStore: 48,213 crash states (20,101 distinct images), 0 violations".
    func summary(_ name: String) -> String {
        let g = Self.grouped
        return "\(name): \(g(states)) crash states (\(g(distinct)) distinct images), \(g(violations)) violations"
    }

    /// 48213 → "48,213".
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}

struct CrashExample: Sendable {
    var count: Int
    var first: String
}

struct CrashRunResult: Sendable {
    var states: Int
    var distinct: Int
    var violations: Int
    var examples: [String: CrashExample]
    /// Compactions the run did (file store runs only).
    var compactions = 0
    var powerCuts = 0
    var powerCutsKeepingTheCommit = 0
}

