#if Hardware
import CLinuxHardware
import Glibc
@testable import HALLinux

/// A scripted GPIO shim: records every shim call with its arguments, answers from the script,
/// and fails the next calls of a given name with queued errno values, setting `errno` as the
/// shim does. One per test, never shared, so tests run in parallel.
final class ScriptedGPIODriver: GPIODriver, @unchecked Sendable {
    enum Call: ScriptedCall {
        case chipOpenPath(String)
        case chipOpenLabel(directory: String, label: String)
        case chipOpenLineName(directory: String, name: String)
        case chipLineCount
        case chipFindLine(String)
        case chipClose
        case requestInputs(offsets: [UInt32], bias: th_gpio_bias, debounceMicroseconds: UInt32 = 0, consumer: String)
        case requestDebounce
        case requestDescriptor
        case requestReadEdges(capacity: Int)
        case requestGetValues
        case requestRelease
    }

    static var chip: OpaquePointer { OpaquePointer(bitPattern: 0xC41B)! }
    static var request: OpaquePointer { OpaquePointer(bitPattern: 0x4E0)! }

    private var script = CallScript<Call>()
    var calls: [Call] { script.calls }
    /// Line names per offset on the one chip.
    var lineNames: [String: CUnsignedInt] = ["GPIO17": 17, "GPIO27": 27, "GPIO22": 22]
    var lineCount: CUnsignedInt = 54
    /// The request's one descriptor.
    var descriptor: CInt = 40
    /// Edges handed out by `requestReadEdges`, up to the capacity asked for.
    var pendingEdges: [th_gpio_edge] = []
    var values: UInt32 = 0
    /// What `requestDebounce` reports: the period asked for when true, 0 (the lines' info shows
    /// no debounce attribute) when false.
    var kernelDebounces = true
    private var askedDebounce: UInt32 = 0

    /// The next `errnos.count` calls named `name` fail, in order, with these errno values.
    func fail(_ name: String, with errnos: Int32...) { script.fail(name, with: errnos) }

    func names(_ name: String) -> [Call] { script.names(name) }

    private func failing(_ call: Call) -> Bool { script.failing(call) }

    func chipOpenPath(_ path: UnsafePointer<CChar>) -> OpaquePointer? {
        failing(.chipOpenPath(String(cString: path))) ? nil : Self.chip
    }
    func chipOpenLabel(_ directory: UnsafePointer<CChar>, _ label: UnsafePointer<CChar>) -> OpaquePointer? {
        failing(.chipOpenLabel(directory: String(cString: directory), label: String(cString: label))) ? nil : Self.chip
    }
    func chipOpenLineName(
        _ directory: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ offset: UnsafeMutablePointer<CUnsignedInt>
    ) -> OpaquePointer? {
        let n = String(cString: name)
        if failing(.chipOpenLineName(directory: String(cString: directory), name: n)) { return nil }
        guard let found = lineNames[n] else {
            Glibc.errno = ENOENT
            return nil
        }
        offset.pointee = found
        return Self.chip
    }
    func chipLineCount(_ chip: OpaquePointer) -> CUnsignedInt {
        script.record(.chipLineCount)
        return lineCount
    }
    func chipFindLine(_ chip: OpaquePointer, _ name: UnsafePointer<CChar>) -> CInt {
        let n = String(cString: name)
        if failing(.chipFindLine(n)) { return -1 }
        guard let found = lineNames[n] else {
            Glibc.errno = ENOENT
            return -1
        }
        return CInt(found)
    }
    func chipClose(_ chip: OpaquePointer) { script.record(.chipClose) }
    func requestInputs(
        _ chip: OpaquePointer, _ offsets: UnsafePointer<CUnsignedInt>, _ count: Int,
        _ bias: th_gpio_bias, _ debounceMicroseconds: UInt32, _ consumer: UnsafePointer<CChar>
    ) -> OpaquePointer? {
        let call = Call.requestInputs(
            offsets: Array(UnsafeBufferPointer(start: offsets, count: count)), bias: bias,
            debounceMicroseconds: debounceMicroseconds, consumer: String(cString: consumer))
        askedDebounce = debounceMicroseconds
        return failing(call) ? nil : Self.request
    }
    func requestDebounce(_ request: OpaquePointer) -> UInt32 {
        script.record(.requestDebounce)
        return kernelDebounces ? askedDebounce : 0
    }
    func requestDescriptor(_ request: OpaquePointer) -> CInt {
        script.record(.requestDescriptor)
        return descriptor
    }
    func requestReadEdges(
        _ request: OpaquePointer, _ edges: UnsafeMutablePointer<th_gpio_edge>, _ capacity: Int
    ) -> Int {
        if failing(.requestReadEdges(capacity: capacity)) { return -1 }
        let n = min(capacity, pendingEdges.count)
        for i in 0..<n { edges[i] = pendingEdges[i] }
        pendingEdges.removeFirst(n)
        return n
    }
    func requestGetValues(_ request: OpaquePointer, _ mask: UnsafeMutablePointer<UInt32>) -> CInt {
        if failing(.requestGetValues) { return -1 }
        mask.pointee = values
        return 0
    }
    func requestRelease(_ request: OpaquePointer) { script.record(.requestRelease) }
}

extension th_gpio_edge {
    /// The kernel's numbers default to 1: the first edge of the request and of its line.
    static func rising(_ line: UInt32, at ns: UInt64, seqno: UInt32 = 1, lineSeqno: UInt32 = 1) -> th_gpio_edge {
        th_gpio_edge(line: line, type: UInt32(TH_GPIO_EDGE_RISING), timestamp_ns: ns, seqno: seqno, line_seqno: lineSeqno)
    }
    static func falling(_ line: UInt32, at ns: UInt64, seqno: UInt32 = 1, lineSeqno: UInt32 = 1) -> th_gpio_edge {
        th_gpio_edge(line: line, type: UInt32(TH_GPIO_EDGE_FALLING), timestamp_ns: ns, seqno: seqno, line_seqno: lineSeqno)
    }
}
#endif
