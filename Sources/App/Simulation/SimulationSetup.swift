import Board
import HAL
import HALSim
import SystemPackage
import Weather

/// What `simulate` and the scenario tests choose about a simulated device.
public struct SimulationSetup {
    public enum GPSChoice {
        /// The built-in drive from the board's default location (`GPSDrive.builtIn`).
        case route
        /// No receiver at the board's GPS path.
        case none
        /// A recorded capture, replayed one epoch per second.
        case capture([UInt8])
    }

    public enum WeatherChoice {
        /// The simulated Open-Meteo (`SimulatedOpenMeteo`), reachable.
        case sample
        /// The simulated service with the network down from the start.
        case offline
        /// The simulated service reachable but answering every request with 429 (the daily
        /// quota used up).
        case rateLimited
        /// A real service through the daemon's own transport (`ThreadedWeatherLink`).
        case live(any WeatherLink)
    }

    public var board: BoardConfig
    public var gps: GPSChoice = .route
    public var weather: WeatherChoice = .sample
    /// The wall time the simulation starts at.
    public var start: WallTime
    public var seed: UInt64 = 1
    /// A scripted low in the simulated weather (`SimulatedStorm`): in the forecast's pressure
    /// and, with `sensorFollowsWeather`, in the BME280's. `simulate` has the standard one.
    public var storm: SimulatedStorm?
    /// The simulated BME280 measures the simulated weather's pressure at the station's height
    /// (`SimulatedBoard.followWeather`); off, its raw values stay what a test sets.
    public var sensorFollowsWeather = false
    /// Overrides the board's orbit setting (measurements with and without it); nil keeps it.
    public var orbit: Bool?
    /// Overrides the board's automatic screen rotation; nil keeps it.
    public var rotateEvery: Duration??
    /// What the kernel says about the system clock.
    public enum SystemClock: Sendable, Equatable {
        /// Synchronised (NTP): the clock's source is the system.
        case synchronised
        /// Not synchronised: GPS time, once the receiver's time is vouched for.
        case unsynchronised
        /// Ask this machine's kernel (`adjtimex`), as the device does: for a simulation on the
        /// real clock.
        case host
    }

    public var systemClock = SystemClock.synchronised
    /// How far the system clock is from the true time at the start (negative: behind), as
    /// on a Pi whose fake-hwclock restored the last shutdown's time. The receiver's GPS time
    /// and the weather service keep the true time, `start`.
    public var systemClockOffset: Duration = .zero
    /// The zone the simulated weather service names for every place (the real one names the
    /// place's own zone; the twin has no map of zones).
    public var serviceZone: String = "Europe/Berlin"
    /// The simulated medium the store and the weather cache live on, at `stateDirectory`.
    public var disk = CrashableFileSystem()
    public var stateDirectory: FilePath = "/state"
    /// Open the store for reading only (as `store show` does): every change is refused.
    public var readOnlyStore = false
    /// Write the store on a thread of its own, as the daemon does, instead of inside the
    /// loop's turn: for tests of a card that hangs (the writer's answers then arrive in real
    /// time, not on the virtual clock).
    public var writesOffTheLoop = false
    /// The kernel's GPIO event buffer; nil for what the daemon gets: uAPI v2's default for the
    /// board's lines (`.uAPIv2(lines:)`: one numbered fifo per request, the oldest dropped).
    public var buttonBuffer: SimulatedButtons.EventBuffer?
    /// Loads zones for the device (the host's tzdata by default).
    public var loadZone: (String) -> Result<ZoneRules, ZoneError> = SimulationSetup.hostZone

    public init(board: BoardConfig, start: WallTime) {
        self.board = board
        self.start = start
    }

    /// Zones from the machine's own tzdata (`/usr/share/zoneinfo`).
    public static func hostZone(_ name: String) -> Result<ZoneRules, ZoneError> {
        var files = HostFiles()
        return ZoneRules.load(identifier: name, files: &files)
    }
}
