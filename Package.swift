// swift-tools-version: 6.1
// Thunderstorm: the firmware-style core of a GPS weather display on a Linux SBC.
// Layers (docs/design/architecture.md#layers), dependencies pointing down only:
//   thunderstorm (CLI) → Board, GPS, Store, Screens, Drivers → HAL
//   Board    (the board file: which parts, where; maps the display onto the drivers) → HAL, Drivers, JSON
//   JSON     (a JSON tree parser that says where a document goes wrong)
//   Weather  (providers, their decoders, the repository, time zones; no Foundation) → HAL, JSON
//   WeatherHTTP (the HTTP transports, compared in docs/http-transport.md: libcurl's easy API, and
//            SocketTransport, HTTP/1.1 of our own over sockets with OpenSSL and zlib) → Weather, CCurl, CTLS
//   CCurl    (libcurl loaded with dlopen at run time: no curl.h, no -dev package to build) → CDynamicLibrary
//   CTLS     (libssl.so.3 and libz.so.1 loaded with dlopen, getaddrinfo_a: no OpenSSL or zlib header) → CDynamicLibrary
//   CDynamicLibrary (the dlopen, cache and "apt install" message that CCurl, CTLS and the libgpiod shim share)
//   Store    (settings and saved locations on flash: CRC'd log in two pre-sized files) → HAL
//   Graphics (framebuffer in the OLED RAM layout, generated fonts and icons, character frames) → HAL (ConditionGroup)
//   Drivers  (SSD1306, SH1106, HD44780 behind a PCF8574, generic over the I²C bus) → HAL, Graphics
//   Screens  (what each screen shows and how it is laid out on OLEDs and character LCDs) → Graphics, Store, Weather
//   Core     (AppState, Event, Effect, reduce(), button gestures: the device's logic, pure) → Screens, GPS, Board, Places
//   App      (the device: runtime, effects onto the HAL, the simulated board, the loops) → Core, every component
//   GPS      (NMEA framer, decoder, epochs, the location service; no Foundation) → HAL, SystemPackage (FilePath)
//   HALLinux (termios, i2c-dev, timerfd/eventfd/signalfd, poll, POSIX files; GPIO with the trait) → HAL, CLinuxHAL
//   HALSim   (simulated twins for tests and `simulate`)                      → HAL, CLinuxHAL (pty)
//   HTTPTesting (test support: a loopback HTTP/1.1 server, plain or TLS, with scripted answers) → CTLS
// The GPIO binding (libgpiod 2, libgpiod.so.3, loaded with dlopen at run time where it is
// installed; else the kernel's GPIO character device through its uAPI v2 ioctls) and the libi2c
// binding (CLinuxHardware) are built only with the `Hardware` trait, so a fresh machine needs
// nothing but the Swift toolchain for `swift test`.
import PackageDescription

let hardware = TargetDependencyCondition.when(traits: ["Hardware"])
let system = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "Thunderstorm",
    products: [
        .executable(name: "thunderstorm", targets: ["thunderstorm"]),
        .library(name: "HAL", targets: ["HAL"]),
        .library(name: "HALLinux", targets: ["HALLinux"]),
        .library(name: "HALSim", targets: ["HALSim"]),
        .library(name: "Board", targets: ["Board"]),
        .library(name: "GPS", targets: ["GPS"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "Graphics", targets: ["Graphics"]),
        .library(name: "Drivers", targets: ["Drivers"]),
        .library(name: "Screens", targets: ["Screens"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "Weather", targets: ["Weather"]),
        .library(name: "WeatherHTTP", targets: ["WeatherHTTP"]),
        .library(name: "Places", targets: ["Places"]),
        .library(name: "Core", targets: ["Core"]),
        .library(name: "App", targets: ["App"]),
        .library(name: "DeviceTesting", targets: ["DeviceTesting"]),
    ],
    traits: [
        .trait(
            name: "Hardware",
            description:
                "Bind GPIO (libgpiod 2 loaded at run time, else the kernel's character device through its uAPI v2, Linux 5.10+) and libi2c; needs libi2c-dev."
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C shims. CLinuxHAL needs only the kernel and libc headers; CLinuxHardware needs
        // libi2c-dev too and is used only when the Hardware trait is on. Its GPIO half loads
        // libgpiod 2 (libgpiod.so.3) with dlopen where it is installed (Debian 13) and speaks the
        // kernel's uAPI v2 itself where it is not (Debian 12: libgpiod 1.6 only): no libgpiod-dev
        // to build, one binary for both. check/ is a header check against gpiod.h, not built.
        .target(name: "CLinuxHAL"),
        // The one dlopen routine of CCurl, CTLS and CLinuxHardware's libgpiod (open once per process, cache, "apt install"
        // message, first missing symbol), so that each shim keeps only its table of functions.
        .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),
        // libcurl's easy API through dlopen/dlsym: builds with the toolchain alone; at run time it
        // needs libcurl.so.4 (Debian libcurl4), which FoundationNetworking needs too.
        .target(name: "CCurl", dependencies: ["CDynamicLibrary"]),
        // libssl.so.3 (OpenSSL 3) and libz.so.1 through dlopen/dlsym, likewise; getaddrinfo_a is in
        // glibc's libc since 2.34 and in libanl before. check/ is a header check, not built.
        .target(name: "CTLS", dependencies: ["CDynamicLibrary"], exclude: ["check"], linkerSettings: [.linkedLibrary("anl")]),
        .target(
            name: "CLinuxHardware",
            dependencies: ["CDynamicLibrary"],
            exclude: ["check"],
            linkerSettings: [.linkedLibrary("i2c")]
        ),

        .target(name: "HAL", dependencies: [system]),
        .target(
            name: "HALLinux",
            dependencies: [
                "HAL", "CLinuxHAL", system,
                .target(name: "CLinuxHardware", condition: hardware),
            ]
        ),
        .target(name: "HALSim", dependencies: ["HAL", "CLinuxHAL", system]),
        .target(name: "JSON"),
        .target(name: "Board", dependencies: ["HAL", "Drivers", "JSON"]),
        .target(name: "Weather", dependencies: ["HAL", "JSON", system]),
        .target(name: "WeatherHTTP", dependencies: ["Weather", "HAL", "CCurl", "CTLS"]),
        .target(name: "GPS", dependencies: ["HAL", system]),
        .target(name: "Store", dependencies: ["HAL", system]),
        .target(name: "Graphics", dependencies: ["HAL"]),
        .target(name: "Drivers", dependencies: ["HAL", "Graphics"]),
        .target(name: "Screens", dependencies: ["Graphics", "Store", "Weather", "HAL"]),
        // Where the device is with no network: the IANA zone and the nearest named place for a
        // position, from tables generated by scripts/generate-places.sh (timezone-boundary-builder,
        // ODbL; GeoNames, CC BY). The tables are C arrays: read-only data in the binary, no start-up
        // cost and no Swift array literal of a megabyte for the compiler.
        .target(name: "CPlaceData"),
        .target(name: "Places", dependencies: ["HAL", "CPlaceData"]),
        // The device's logic: one state, events in, effects out. No I/O, no Foundation.
        .target(name: "Core", dependencies: ["HAL", "Store", "GPS", "Weather", "Screens", "Board", "Places"]),
        // The device: the runtime that owns the hardware and runs Core's effects, the simulated
        // board of `simulate` and the tests, and the loops (virtual time, poll(2)).
        .target(
            name: "App",
            dependencies: [
                "Core", "HAL", "HALSim", "HALLinux", "GPS", "Store", "Drivers", "Screens", "Graphics", "Weather",
                "WeatherHTTP", "Board", "JSON", system, logging,
            ]),
        // The device on parts that allocate nothing themselves (a bus that discards, a replayed
        // NMEA stream, replayed edges, the real file system), so that the tests' allocation
        // counter and Benchmarks/ measure the runtime alone.
        .target(
            name: "DeviceTesting",
            dependencies: ["App", "Core", "HAL", "HALLinux", "HALSim", "GPS", "Board", "Weather", "Store", "Drivers", system]),
        // Test helpers shared by the test targets (a library, like ArgumentParserTestHelpers):
        // the mock display that fails on overdraw and out-of-bounds drawing, golden ASCII art.
        .target(name: "GraphicsTesting", dependencies: ["Graphics"]),
        // The allocation counter of the tests (the runtime's swift_allocObject hook in a fork).
        .target(name: "AllocationCounting", dependencies: ["CMallocCounter"]),
        // malloc and its relatives, counted per thread (the test executable's own definitions,
        // forwarding to glibc's): what `countMallocs` reads.
        .target(name: "CMallocCounter"),
        // A loopback HTTP/1.1 server on 127.0.0.1 for transport and end-to-end provider tests, with
        // HTTPS through the same dlopen'd libssl as the transport.
        .target(name: "HTTPTesting", dependencies: ["CTLS"]),
        // Where the shared corpus is, for the conformance suites (skipped, not passed, without it).
        .target(name: "CorpusTesting"),
        .executableTarget(
            name: "thunderstorm",
            dependencies: [
                "HAL", "HALLinux", "Board", "GPS", "Store", "Drivers", "Screens", "Graphics", "HALSim", "Weather", "WeatherHTTP", "JSON",
                "Places", "Core", "App",
                system,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "HALTests", dependencies: ["HAL"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "HAL", "AllocationCounting", "CorpusTesting"], exclude: ["Fixtures"]),
        .testTarget(
            name: "HALLinuxTests",
            dependencies: [
                "HALLinux", "HALSim", "CLinuxHAL", system,
                .target(name: "CLinuxHardware", condition: hardware),
            ]
        ),
        .testTarget(name: "HALSimTests", dependencies: ["HALSim", "HAL", "CorpusTesting"]),
        .testTarget(name: "BoardTests", dependencies: ["Board", "Drivers", "JSON"]),
        .testTarget(name: "GPSTests", dependencies: ["GPS", "HAL", "Board", "JSON", "HALSim", "HALLinux", "AllocationCounting", "CorpusTesting"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "HALSim", "HALLinux", "HAL", system]),
        .testTarget(name: "GraphicsTests", dependencies: ["Graphics", "GraphicsTesting", "HAL"], exclude: ["Golden"]),
        .testTarget(
            name: "ScreensTests", dependencies: ["Screens", "Graphics", "GraphicsTesting", "Store", "Weather", "HAL"], exclude: ["Golden"]),
        .testTarget(
            name: "DriversTests",
            dependencies: ["Drivers", "Graphics", "HALSim", "HAL", "Screens", "Store", "JSON", "AllocationCounting", "CorpusTesting"]),
        .testTarget(name: "WeatherTests", dependencies: ["Weather", "HAL", "HALSim", "HALLinux", "JSON", "AllocationCounting", "CorpusTesting", system]),
        .testTarget(
            name: "WeatherHTTPTests", dependencies: ["WeatherHTTP", "Weather", "HAL", "HTTPTesting", "CorpusTesting"],
            exclude: ["Fixtures"]),
        .testTarget(name: "CoreTests", dependencies: ["Core", "HAL", "Store", "GPS", "Weather", "Screens", "Board", "Places"]),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "Core", "HAL", "HALSim", "Store", "GPS", "Weather", "Screens", "Board", "Drivers", "Graphics",
                "AllocationCounting", "HTTPTesting", "DeviceTesting", system,
            ]),
        .testTarget(name: "ThunderstormTests", dependencies: ["thunderstorm", "HTTPTesting"]),
    ]
)
