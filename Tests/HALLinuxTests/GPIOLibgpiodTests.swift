#if Hardware
import CLinuxHardware
import Glibc
import HAL
@testable import HALLinux
import SystemPackage
import Testing

/// libgpiod 2 through the shim, against the real library: $THUNDERSTORM_TEST_LIBGPIOD (a path to
/// a libgpiod.so.3, e.g. one unpacked from Debian's libgpiod3 with dpkg-deb -x), else the
/// system's libgpiod.so.3; skipped where neither loads (Debian 12 has no libgpiod 2). There is
/// no gpiochip on a build machine: these check the loading, the choice of path, and libgpiod's
/// answers for chips that are not there; the virtual board requests real lines through it.
@Suite struct GPIOLibgpiodTests {
    static let libraryName = getenv("THUNDERSTORM_TEST_LIBGPIOD").map { String(cString: $0) } ?? TH_LIBGPIOD_SONAME
    static let driver = try? LibgpiodDriver(libraryName: libraryName)
    static let present = driver != nil

    @Test(.libgpiod) func loadsLibgpiod2AndSaysWhichVersion() throws {
        let driver = try #require(Self.driver)
        #expect(driver.version.hasPrefix("2."))
        let backend = GPIOBackend.choose(setting: nil, libraryName: Self.libraryName)
        #expect(backend.usesLibgpiod)
        #expect(backend.summary == "libgpiod \(driver.version) (\(Self.libraryName))")
        // Opened once per process: the same bound table again.
        #expect(try LibgpiodDriver(libraryName: Self.libraryName).library == driver.library)
    }

    @Test func theEnvironmentForcesTheUAPI() {
        let backend = GPIOBackend.choose(setting: "uapi", libraryName: Self.libraryName)
        #expect(!backend.usesLibgpiod)
        #expect(backend.summary == "the kernel's uAPI v2 (THUNDERSTORM_GPIO=uapi)")
    }

    @Test func withoutLibgpiod2TheUAPISaysWhatToInstall() {
        let backend = GPIOBackend.choose(setting: nil, libraryName: "/nonexistent/libgpiod.so.3")
        #expect(!backend.usesLibgpiod)
        #expect(backend.summary == "the kernel's uAPI v2 (/nonexistent/libgpiod.so.3 not found: apt install libgpiod3 to use libgpiod)")
    }

    /// A library that is not libgpiod 2 (zlib stands in for libgpiod 1.6, which lacks the v2
    /// functions the same way) is refused by its first missing function.
    @Test func aLibraryThatIsNotLibgpiod2IsRefused() {
        #expect(throws: LibgpiodUnavailable(reason: "libz.so.1 lacks gpiod_api_version: not a libgpiod 2")) {
            try LibgpiodDriver(libraryName: "libz.so.1")
        }
    }

    @Test(.libgpiod) func aMissingChipPathIsNoChip() throws {
        let driver = try #require(Self.driver)
        #expect(throws: GPIOError(.noChip, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(chip: .path("/nonexistent/gpiochip0"), lines: [.offset(17)], bias: .pullUp, driver: driver)
        }
    }

    /// libgpiod checks a chip in sysfs before opening it: a character device of another
    /// subsystem is ENODEV, anything else ENOTTY (lib/internal.c, gpiod_check_gpiochip_device).
    @Test(.libgpiod, arguments: [("/dev/null", ENODEV), ("/", ENOTTY), ("/proc/self/stat", ENOTTY)])
    func aFileThatIsNotAGpiochipIsNoChip(path: String, expected: Int32) throws {
        let driver = try #require(Self.driver)
        #expect(throws: GPIOError(.noChip, errno: Errno(rawValue: expected))) {
            try LinuxDigitalInputs(chip: .path(path), lines: [.offset(17)], bias: .pullUp, driver: driver)
        }
    }

    /// As on the uAPI path (GPIOKernelShimTests): an empty directory, a missing one, and one with
    /// a "gpiochip0" that is not a chip.
    @Test(.libgpiod) func labelsAndLineNamesThatNoChipHas() throws {
        let driver = try #require(Self.driver)
        let dir = try TemporaryDirectory()
        for directory in [dir.path, dir.path + "/missing"] {
            #expect(throws: GPIOError(.noChip, errno: .noSuchFileOrDirectory)) {
                try LinuxDigitalInputs(
                    chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, deviceDirectory: directory, driver: driver)
            }
        }
        let fake = dir.path + "/gpiochip0"
        try FileDescriptor.open(fake, .writeOnly, options: .create, permissions: .ownerReadWrite).close()
        defer { unlink(fake) }
        #expect(throws: GPIOError(.noChip, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(
                chip: .label("pinctrl-rp1"), lines: [.offset(17)], bias: .pullUp, deviceDirectory: dir.path, driver: driver)
        }
        #expect(throws: GPIOError(.noLine, errno: .noSuchFileOrDirectory)) {
            try LinuxDigitalInputs(chip: nil, lines: [.name("GPIO17")], bias: .pullUp, deviceDirectory: dir.path, driver: driver)
        }
    }

    /// The process's driver goes where its backend says: a forced uAPI answers as the uAPI shim
    /// does (ENOTTY for /dev/null, where libgpiod says ENODEV).
    @Test func theSystemDriverFollowsItsBackend() {
        #expect(throws: GPIOError(.noChip, errno: Errno(rawValue: ENOTTY))) {
            try LinuxDigitalInputs(
                chip: .path("/dev/null"), lines: [.offset(17)], bias: .pullUp, driver: SystemGPIODriver(.uapi(reason: "test")))
        }
    }

    @Test(.libgpiod) func theSystemDriverReachesLibgpiod() throws {
        let driver = try #require(Self.driver)
        #expect(throws: GPIOError(.noChip, errno: Errno(rawValue: ENODEV))) {
            try LinuxDigitalInputs(
                chip: .path("/dev/null"), lines: [.offset(17)], bias: .pullUp, driver: SystemGPIODriver(.libgpiod(driver)))
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips a test, saying why, where no libgpiod 2 can be loaded.
    static var libgpiod: Self {
        .enabled(
            if: GPIOLibgpiodTests.present,
            "needs libgpiod.so.3 (apt install libgpiod3), or THUNDERSTORM_TEST_LIBGPIOD=/path/to/libgpiod.so.3")
    }
}
#endif
