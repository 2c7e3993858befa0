// swift-tools-version: 6.1
// libFuzzer target over the NMEA framer, decoder and epoch assembler (NMEAReceiver). Kept out of
// the root package: it only builds with the fuzzer sanitizer. Build and run it with
// `scripts/fuzz-nmea.sh [SECONDS]`, which uses the recipe that works with SwiftPM on Linux
// (notes/linux-and-swift.md B2):
//   swift build --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address
// The target is an executable whose only file is not main.swift, with `LLVMFuzzerTestOneInput`
// exported by `@_cdecl`; libFuzzer supplies `main`.
import PackageDescription

// A path dependency's identity is its directory name, which depends on where the repository was
// cloned; take it from the manifest's location instead of spelling it out.
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main")

let package = Package(
    name: "ThunderstormFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "NMEAFuzz",
            dependencies: [.product(name: "GPS", package: rootPackage)]
        )
    ]
)
