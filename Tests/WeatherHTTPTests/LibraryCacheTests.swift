import CTLS
import Glibc
import Testing

/// The C shims' dlopen cache keeps 20 libraries. Past that, every call opened the
/// library again and allocated a new table that nobody freed: a leak per fetch.
@Suite("dlopen cache")
struct LibraryCacheTests {
    @Test("a cache that is full refuses a new library with one line, and never hands out a second table")
    func fullCacheDoesNotLeak() async {
        // In a child process: filling the process-wide cache would starve the other tests.
        await #expect(processExitsWith: .success) {
            var error = [CChar](repeating: 0, count: 256)
            guard error.withUnsafeMutableBufferPointer({ czlib_open("libz.so.1", $0.baseAddress, $0.count) }) != nil else {
                exit(0)  // no zlib here: nothing to check
            }
            // The same file under distinct names ("//usr/lib/…", "///usr/lib/…"): distinct entries.
            guard let path = Self.mappedPath(containing: "libz.so") else { exit(3) }
            var tables: [String: UnsafeRawPointer] = [:]
            for slashes in 1...24 {
                let name = String(repeating: "/", count: slashes) + path.drop { $0 == "/" }
                for _ in 0..<3 {
                    let table = error.withUnsafeMutableBufferPointer { czlib_open(name, $0.baseAddress, $0.count) }
                    guard let table else {
                        let line = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        if !line.contains("more than 20") || line.contains("\n") { exit(4) }
                        continue
                    }
                    if let earlier = tables[name], earlier != UnsafeRawPointer(table) { exit(1) }  // a second table: leaked
                    tables[name] = UnsafeRawPointer(table)
                }
            }
            exit(tables.count <= 20 ? 0 : 2)
        }
    }

    /// The path of the first mapped file whose name contains `fragment` (`/proc/self/maps`).
    static func mappedPath(containing fragment: String) -> String? {
        guard let file = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.contains(fragment), let slash = text.firstIndex(of: "/") {
                return String(text[slash...].prefix { $0 != "\n" })
            }
        }
        return nil
    }
}
