import Glibc
import SystemPackage

/// Runs one raw call the way swift-system's `valueOrErrno` does: -1 becomes the errno, EINTR
/// is retried (a signal interrupted the call before it did anything), and EBADF/EFAULT trap,
/// because they mean this program passed a closed descriptor or a bad pointer — a bug to find,
/// not a condition to handle (NIO's `System.swift` sorts errno the same way).
@inline(__always)
func systemCall<R: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> R
) -> Result<R, Errno> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let error = Errno(rawValue: Glibc.errno)
        if retryOnInterrupt && error == .interrupted { continue }
        if error == .badFileDescriptor || error == .badAddress {
            preconditionFailure("programming error: a system call failed with \(error)")
        }
        return .failure(error)
    }
}

/// Runs `body` with `path` as a C string; the path is copied once, which is fine off the hot path.
@inline(__always)
func withCString<R>(_ path: FilePath, _ body: (UnsafePointer<CChar>) -> R) -> R {
    path.withPlatformString(body)
}
