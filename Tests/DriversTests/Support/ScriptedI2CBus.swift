import HAL
import Testing

/// A bus that expects a script of write transactions, like dbrgn/embedded-hal-mock's I²C mock
/// (`src/eh1/i2c.rs`): each transaction is compared with the next expectation, an expectation
/// can fail instead of succeeding, and `finish()` fails the test on mismatches and on
/// expectations left over, with a readable diff.
///
/// A class so that the test keeps a handle on the bus it gives to a driver.
final class ScriptedI2CBus: I2CBus {
    struct Expectation: CustomStringConvertible {
        var address: UInt8
        var bytes: [UInt8]
        var failure: I2CError.Kind?

        static func write(_ address: UInt8, _ bytes: [UInt8]) -> Expectation {
            Expectation(address: address, bytes: bytes, failure: nil)
        }

        /// The transaction is still compared, then fails with `kind`.
        func failing(_ kind: I2CError.Kind) -> Expectation {
            var copy = self
            copy.failure = kind
            return copy
        }

        var description: String { line(address, bytes) + (failure.map { " (fails: \($0))" } ?? "") }
    }

    private(set) var expectations: [Expectation]
    private(set) var next = 0
    private(set) var mismatches: [String] = []
    /// Every transaction sent, as `(address, bytes)`.
    private(set) var sent: [(address: UInt8, bytes: [UInt8])] = []

    init(_ expectations: [Expectation] = []) { self.expectations = expectations }

    /// Appends more expectations.
    func expect(_ more: [Expectation]) { expectations += more }

    func expect(_ address: UInt8, _ transactions: [[UInt8]]) {
        expectations += transactions.map { .write(address, $0) }
    }

    func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        let bytes = Array(write)
        sent.append((address, bytes))
        let index = sent.count - 1
        if !read.isEmpty { mismatches.append("transaction \(index): unexpected read of \(read.count) bytes") }
        guard next < expectations.count else {
            mismatches.append("transaction \(index): unexpected \(line(address, bytes))")
            return
        }
        let expected = expectations[next]
        next += 1
        if expected.address != address || expected.bytes != bytes {
            mismatches.append("transaction \(index): " + diff(expected: expected, address: address, bytes: bytes))
        }
        if let failure = expected.failure { throw I2CError(failure) }
    }

    /// Everything wrong so far: mismatches, then expectations never sent.
    var problems: [String] {
        var all = mismatches
        if next < expectations.count {
            let left = expectations[next...].prefix(3).map { "  \($0)" }.joined(separator: "\n")
            all.append("\(expectations.count - next) expected transaction(s) not sent, from:\n\(left)")
        }
        return all
    }

    /// Records an issue for each problem; then starts a fresh script.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        for problem in problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
        reset()
    }

    /// Forgets the script and what was sent, unchecked (for set-up checked elsewhere).
    func reset() {
        expectations.removeAll()
        next = 0
        mismatches.removeAll()
        sent.removeAll()
    }

    private func diff(expected: Expectation, address: UInt8, bytes: [UInt8]) -> String {
        if expected.address != address {
            return "address \(hex(address)), expected \(hex(expected.address))\n  expected \(expected)\n  actual   \(line(address, bytes))"
        }
        let common = zip(expected.bytes, bytes).prefix { $0 == $1 }.count
        let from = max(0, common - 6)
        func excerpt(_ b: [UInt8]) -> String {
            let end = min(b.count, common + 10)
            let body = from < end ? hex(Array(b[from..<end])) : ""
            return (from > 0 ? "… " : "") + body + (end < b.count ? " …" : "")
        }
        var text = "first difference at payload byte \(common)"
        text += " (expected \(common < expected.bytes.count ? hex(expected.bytes[common]) : "end"),"
        text += " got \(common < bytes.count ? hex(bytes[common]) : "end")); lengths \(expected.bytes.count) / \(bytes.count)"
        text += "\n  expected \(hex(address)): \(excerpt(expected.bytes))"
        text += "\n  actual   \(hex(address)): \(excerpt(bytes))"
        return text
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { hex($0) }.joined(separator: " ") }

/// `3C: 00 AE …`, the transaction-log form.
func line(_ address: UInt8, _ bytes: [UInt8]) -> String {
    bytes.count > 40
        ? "\(hex(address)): \(hex(Array(bytes.prefix(24)))) … (\(bytes.count) bytes)"
        : "\(hex(address)): \(hex(bytes))"
}

/// Bytes from hex text: `"AE D5 80"`.
func bytes(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

/// The error of type `E` that `body` throws, or `nil`.
func caught<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do {
        try body()
        return nil
    } catch let error as E {
        return error
    } catch {
        return nil
    }
}
