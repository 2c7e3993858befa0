import App
import Glibc
import Board
import Core
import Graphics
import HAL
import HALSim
import Screens
import Store
import Testing
import Weather

/// The reference board on the simulated twins, for the scenario tests.
enum DeviceRig {
    static let board: BoardConfig = {
        guard case .success(let config) = BoardFile.check(Array(ReferenceBoard.json.utf8)) else {
            fatalError("the reference board does not validate")
        }
        return config
    }()

    /// 2026-06-21T10:00:00Z: a summer morning in Berlin (12:00 CEST).
    static let summer = at(2026, 6, 21, 10, 0)

    static func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> WallTime {
        CivilDateTime(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute).instant(offsetSeconds: 0)
    }

    /// Whether the machine has tzdata (zones are loaded from it, as on the device).
    static var hasZones: Bool {
        if case .success = SimulationSetup.hostZone("Europe/Berlin") { return true }
        return false
    }

    static func make(
        start: WallTime = summer, disk: CrashableFileSystem = CrashableFileSystem(),
        _ configure: (inout SimulationSetup) -> Void = { _ in }
    ) -> SimulatedBoard {
        var setup = SimulationSetup(board: board, start: start)
        setup.disk = disk
        configure(&setup)
        let simulated = SimulatedBoard(setup)
        simulated.start()
        return simulated
    }

    /// What the glass must show for the device's state: its screen model drawn by the screens
    /// and moved by the orbit, independently of the runtime's buffers.
    static func expectedGlass(_ board: SimulatedBoard) -> PanelImage { expectedGlass(board.device.state) }

    /// The same for any device's state on the reference 128×64 OLED.
    static func expectedGlass(_ state: AppState) -> PanelImage {
        let size = state.options.orbit ? Orbit.canvas(reachX: state.orbitReachX, width: 128, height: 64) : (width: 128, height: 64)
        var canvas = Framebuffer(width: size.width, height: size.height)
        OLEDScreens.render(state.model, state.screen, into: &canvas)
        let offset = state.orbitOffset
        return PanelImage(width: 128, height: 64) { x, y in canvas[x - offset.x, y - offset.y] }
    }

    /// The glass shows what the state says (and nothing is waiting to be drawn).
    static func expectGlassAgrees(_ board: SimulatedBoard, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!board.device.state.frameDirty, "a frame is still waiting to be drawn", sourceLocation: sourceLocation)
        let expected = expectedGlass(board)
        let actual = board.glass
        #expect(
            actual == expected,
            "the glass differs from the state's screen:\n\(PanelImage.differenceArt(expected: expected, actual: actual))",
            sourceLocation: sourceLocation)
        #expect(board.panelErrors.isEmpty, "the panel model saw protocol errors: \(board.panelErrors)", sourceLocation: sourceLocation)
    }

    static func line(_ board: SimulatedBoard, _ label: String) -> StatusLine? {
        board.device.state.model.statusLines.first { $0.label == label }
    }
}

/// `ReferenceBoard.json` is a copy of `board/raspberry-pi-4.json` (so the binary needs no file
/// from the repository): the copy must not drift from the file.
@Suite("Device: the embedded reference board")
struct ReferenceBoardTests {
    @Test("is byte for byte the shipped board/raspberry-pi-4.json")
    func sameAsShipped() throws {
        let root = String(#filePath).split(separator: "/").dropLast(4).joined(separator: "/")
        let fd = open("/" + root + "/" + ReferenceBoard.fileName, O_RDONLY)
        try #require(fd >= 0, "cannot open \(ReferenceBoard.fileName)")
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        #expect(String(decoding: bytes, as: UTF8.self) == ReferenceBoard.json + "\n")
    }
}
