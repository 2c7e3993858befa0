import Graphics
import GraphicsTesting
import Testing

/// Lines and rectangles through the generic `DrawTarget` paths, as golden ASCII art: inside,
/// clipped at each edge, degenerate, and with coordinates that would overflow if added naively.
/// The mock display fails any of them that writes a pixel twice or outside the display.
@Suite struct PrimitiveTests {
    @Test func fillRectFillsItsInterior() {
        let display = mock(6, 4) { $0.fillRect(x: 1, y: 1, width: 3, height: 2, on: true) }
        expectDisplay(display, """
        ......
        .###..
        .###..
        ......
        """)
    }

    @Test(arguments: [
        // (x, y, width, height, expected) across the left, top, right and bottom edge.
        (-2, 1, 4, 2, "......\n##....\n##....\n......"),
        (1, -3, 2, 5, ".##...\n.##...\n......\n......"),
        (4, 0, 10, 2, "....##\n....##\n......\n......"),
        (0, 3, 2, 9, "......\n......\n......\n##...."),
        (-5, -5, 100, 100, "######\n######\n######\n######"),
    ])
    func fillRectClipsAtEachEdge(x: Int, y: Int, width: Int, height: Int, expected: String) {
        let display = mock(6, 4) { $0.fillRect(x: x, y: y, width: width, height: height, on: true) }
        expectDisplay(display, expected)
    }

    @Test(arguments: [
        (6, 0, 3, 3), (-3, 0, 3, 3), (0, 4, 3, 3), (0, -3, 3, 3), (1, 1, 0, 2), (1, 1, 2, -1),
        (Int.max, Int.max, Int.max, Int.max), (Int.min, Int.min, Int.max, Int.max), (Int.min, 0, Int.max, 1),
    ])
    func fillRectOutsideOrEmptyDrawsNothing(x: Int, y: Int, width: Int, height: Int) {
        let display = mock(6, 4) { $0.fillRect(x: x, y: y, width: width, height: height, on: true) }
        expectDisplay(display, "......\n......\n......\n......")
    }

    @Test func fillRectOffTurnsPixelsOff() {
        let display = mock(5, 3) {
            $0.fill(on: true)
            $0.beginDrawing()
            $0.fillRect(x: 1, y: 1, width: 9, height: 1, on: false)
        }
        expectDisplay(display, "#####\n#....\n#####")
    }

    @Test func strokeRectDrawsEachBorderPixelOnce() {
        let display = mock(6, 5) { $0.strokeRect(x: 1, y: 1, width: 4, height: 3) }
        expectDisplay(display, """
        ......
        .####.
        .#..#.
        .####.
        ......
        """)
    }

    @Test(arguments: [
        (-1, -1, 4, 4, "..#...\n..#...\n###...\n......\n......"),
        (3, 2, 5, 5, "......\n......\n...###\n...#..\n...#.."),
        (-2, 1, 10, 3, "......\n######\n......\n######\n......"),
        (2, -4, 2, 10, "..##..\n..##..\n..##..\n..##..\n..##.."),
    ])
    func strokeRectClipsAtEachEdge(x: Int, y: Int, width: Int, height: Int, expected: String) {
        let display = mock(6, 5) { $0.strokeRect(x: x, y: y, width: width, height: height) }
        expectDisplay(display, expected)
    }

    @Test func degenerateRectanglesAreLinesAndPoints() {
        expectDisplay(mock(4, 3) { $0.strokeRect(x: 1, y: 0, width: 1, height: 3) }, ".#..\n.#..\n.#..")
        expectDisplay(mock(4, 3) { $0.strokeRect(x: 0, y: 1, width: 4, height: 1) }, "....\n####\n....")
        expectDisplay(mock(4, 3) { $0.strokeRect(x: 2, y: 2, width: 1, height: 1) }, "....\n....\n..#.")
        expectDisplay(mock(4, 3) { $0.strokeRect(x: 0, y: 0, width: 2, height: 2) }, "##..\n##..\n....")
        expectDisplay(mock(4, 3) { $0.strokeRect(x: 0, y: 0, width: 0, height: 2) }, "....\n....\n....")
        expectDisplay(mock(4, 3) { $0.strokeRect(x: Int.min, y: Int.min, width: Int.max, height: Int.max) }, "....\n....\n....")
        expectDisplay(mock(4, 3) { $0.strokeRect(x: Int.max, y: Int.max, width: Int.max, height: Int.max) }, "....\n....\n....")
    }

    @Test func straightLinesAndTheirClipping() {
        expectDisplay(mock(5, 3) { $0.drawHorizontalLine(x: -2, y: 1, length: 5) }, ".....\n###..\n.....")
        expectDisplay(mock(5, 3) { $0.drawVerticalLine(x: 4, y: 1, length: 7) }, ".....\n....#\n....#")
        expectDisplay(mock(5, 3) { $0.drawHorizontalLine(x: 0, y: 0, length: -3) }, ".....\n.....\n.....")
        expectDisplay(mock(5, 3) { $0.drawVerticalLine(x: 0, y: 3, length: 3) }, ".....\n.....\n.....")
    }

    @Test func shallowLineRoundsToTheNearestPixel() {
        // y = 2/5 · x: steps 0..5 light rows 0, 0, 1, 1, 2, 2 (ties round away from the start).
        let expected = "##....\n..##..\n....##"
        expectDisplay(mock(6, 3) { $0.drawLine(x0: 0, y0: 0, x1: 5, y1: 2) }, expected)
        expectDisplay(mock(6, 3) { $0.drawLine(x0: 5, y0: 2, x1: 0, y1: 0) }, expected)
    }

    @Test func steepLineIsTheTransposeOfTheShallowOne() {
        let expected = "#..\n#..\n.#.\n.#.\n..#\n..#"
        expectDisplay(mock(3, 6) { $0.drawLine(x0: 0, y0: 0, x1: 2, y1: 5) }, expected)
        expectDisplay(mock(3, 6) { $0.drawLine(x0: 2, y0: 5, x1: 0, y1: 0) }, expected)
    }

    @Test func diagonalsAndSinglePoints() {
        expectDisplay(mock(4, 4) { $0.drawLine(x0: 3, y0: 0, x1: 0, y1: 3) }, "...#\n..#.\n.#..\n#...")
        expectDisplay(mock(3, 3) { $0.drawLine(x0: 1, y0: 1, x1: 1, y1: 1) }, "...\n.#.\n...")
        expectDisplay(mock(3, 3) { $0.drawLine(x0: 0, y0: 2, x1: 2, y1: 2) }, "...\n...\n###")
    }

    @Test func linesClipAtEveryEdgeAndSurviveExtremeCoordinates() {
        expectDisplay(mock(5, 4) { $0.drawLine(x0: -3, y0: -3, x1: 10, y1: 10) }, "#....\n.#...\n..#..\n...#.")
        expectDisplay(mock(5, 3) { $0.drawLine(x0: Int.min, y0: 1, x1: Int.max, y1: 1) }, ".....\n#####\n.....")
        expectDisplay(mock(3, 3) { $0.drawLine(x0: Int.min, y0: Int.min, x1: Int.max, y1: Int.max) }, "#..\n.#.\n..#")
        expectDisplay(mock(3, 3) { $0.drawLine(x0: 1, y0: Int.max, x1: 1, y1: Int.min) }, ".#.\n.#.\n.#.")
        expectDisplay(mock(3, 3) { $0.drawLine(x0: 5, y0: 0, x1: 9, y1: 2) }, "...\n...\n...")
    }
}
