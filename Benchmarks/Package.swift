// swift-tools-version: 6.1
// Benchmarks for Thunderstorm, kept out of the root package so `swift test` never builds
// ordo-one/benchmark. Run from this directory:
//   swift package --disable-sandbox benchmark
// and the CI gate (0 mallocs in the measured region, see Thresholds/):
//   swift package --disable-sandbox benchmark thresholds check
import PackageDescription

// A path dependency's identity is its directory name, which depends on where the repository was
// cloned; take it from the manifest's location instead of spelling it out.
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main")

let package = Package(
    name: "ThunderstormBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(
            url: "https://github.com/ordo-one/benchmark",
            exact: "1.38.1",
            traits: ["MallocInterposer"]
        ),
    ],
    targets: [
        .executableTarget(
            name: "NMEABenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GPS", package: rootPackage),
            ],
            path: "Benchmarks/NMEABenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Store", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
                .product(name: "HALLinux", package: rootPackage),
                .product(name: "HALSim", package: rootPackage),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DisplayBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Drivers", package: rootPackage),
                .product(name: "Graphics", package: rootPackage),
                .product(name: "Screens", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
                .product(name: "Store", package: rootPackage),
            ],
            path: "Benchmarks/DisplayBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SensorBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Drivers", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
                .product(name: "HALLinux", package: rootPackage),
                .product(name: "Weather", package: rootPackage),
            ],
            path: "Benchmarks/SensorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PlacesBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Places", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
            ],
            path: "Benchmarks/PlacesBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DeviceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DeviceTesting", package: rootPackage),
                .product(name: "HAL", package: rootPackage),
            ],
            path: "Benchmarks/DeviceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
