// swift-tools-version: 6.1
// libFuzzer targets: the NMEA framer, decoder and epoch assembler (NMEAFuzz), the store's
// recovery (StoreFuzz), the weather response decoders (WeatherFuzz), the weather disk cache as
// raw bytes (CacheFuzz) and the board file (BoardFuzz). Kept out of the root package: they only
// build with the fuzzer sanitizer. Build and run one with
// `scripts/fuzz.sh nmea|store|weather|cache|board [SECONDS]`, which uses the recipe that works with SwiftPM on Linux
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
            dependencies: [.product(name: "GPS", package: rootPackage), .product(name: "HAL", package: rootPackage)]
        ),
        .executableTarget(
            name: "StoreFuzz",
            dependencies: [
                .product(name: "Store", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
                .product(name: "HALSim", package: rootPackage),
            ]
        ),
        .executableTarget(
            name: "WeatherFuzz",
            dependencies: [
                .product(name: "Weather", package: rootPackage),
                .product(name: "Screens", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
            ]
        ),
        .executableTarget(
            name: "CacheFuzz",
            dependencies: [
                .product(name: "Weather", package: rootPackage),
                .product(name: "Screens", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
            ]
        ),
        .executableTarget(
            name: "BoardFuzz",
            dependencies: [
                .product(name: "Board", package: rootPackage),
                .product(name: "Drivers", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
            ]
        ),
    ]
)
