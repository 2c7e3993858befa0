// libFuzzer entry point for the board file (ARCHITECTURE §7): untrusted bytes → `BoardFile.check`
// → a `BoardConfig` or its problems. A maker edits this file by hand on the device, and the
// daemon re-reads it on SIGHUP, so no byte sequence may trap it.
//
// The invariants, each a crash with its reason:
// - Checking never traps and is deterministic.
// - A refusal names at least one problem, each one non-empty line (the CLI and the journal print
//   one problem per line).
// - An accepted board keeps what the schema promises: 1–4 buttons with distinct names, debounce
//   0–200 ms and long press 300–5000 ms, a default location in range with a name of at most 32
//   characters, a display whose derived driver settings and summaries do not trap.

import Board
import Drivers
import HAL

@inline(__always)
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = "", line: UInt = #line) {
    if !condition() { fatalError("board invariant broken: \(message())", line: line) }
}

func check(_ board: BoardConfig) {
    invariant((1...4).contains(board.buttons.count), "\(board.buttons.count) buttons")
    invariant(Set(board.buttons.map { $0.name.lowercased() }).count == board.buttons.count, "button names repeat")
    for button in board.buttons {
        invariant(button.debounce >= .zero && button.debounce <= .milliseconds(200), "debounce \(button.debounce)")
        invariant(button.longPressDuration >= .milliseconds(300) && button.longPressDuration <= .milliseconds(5000),
                  "long press \(button.longPressDuration)")
        _ = (button.line.description, button.press.rawValue, button.longPress.rawValue)
    }
    let place = board.defaultLocation
    invariant((-90...90).contains(place.latitude) && (-180...180).contains(place.longitude), "default location \(place)")
    invariant(place.name.count <= 32 && !place.name.isEmpty, "default location name \(place.name)")
    let display = board.display
    invariant(display.address.value <= 0x7F, "address \(display.address)")
    _ = (display.kind, display.summary, display.oledProfile, display.characterLCD, display.bus.path)
    _ = (board.simulatedParts, board.screens, board.weather, board.timeZone, board.gps.baud.description)
    if let rotate = board.screens.rotateEvery { invariant(rotate > .zero, "rotate every \(rotate)") }
}

func same(_ a: Result<BoardConfig, BoardProblems>, _ b: Result<BoardConfig, BoardProblems>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y
    case (.failure(let x), .failure(let y)): x == y
    default: false
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func boardFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let first = BoardFile.check(bytes)
    invariant(same(first, BoardFile.check(bytes)), "checking is not deterministic")
    switch first {
    case .success(let board):
        check(board)
    case .failure(let problems):
        invariant(!problems.problems.isEmpty, "a refusal without a problem")
        for problem in problems.problems {
            invariant(!problem.message.isEmpty && !problem.description.contains("\n"), "problem not one line: \(problem)")
        }
    }
    return 0
}
