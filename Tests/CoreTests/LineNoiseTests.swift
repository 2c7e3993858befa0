import Core
import HAL
import Testing

/// `LineNoise`: movements, not raw edges, and 50 of them within a second.
@Suite("Line noise")
struct LineNoiseTests {
    static func edge(_ line: Int, ms: Int64, number: UInt32? = nil) -> Edge {
        Edge(
            line: line, direction: .falling, time: .zero + .milliseconds(ms),
            sequence: number.map { EdgeSequence(request: $0, line: $0) })
    }

    @Test("49 movements within a second are a finger, the 50th within it is noise")
    func threshold() {
        var noise = LineNoise(lines: 2)
        for i in 0..<49 { #expect(noise.watch(Self.edge(0, ms: 20 * Int64(i))) == nil) }
        // 49 movements 20 ms apart end at 960 ms; the 50th at 999 ms is inside the second.
        let finding = noise.watch(Self.edge(0, ms: 999))
        #expect(finding == LineNoise.Finding(line: 0, edges: 50, span: .milliseconds(999), ignoredFor: .seconds(60)))
        #expect(!noise.heard(0) && noise.heard(1))
        #expect(noise.phases[0] == .quiet(until: .zero + .milliseconds(999) + .seconds(60)))
    }

    @Test("50 movements spread over more than a second are not noise")
    func slowerThanTheThreshold() {
        var noise = LineNoise(lines: 1)
        for i in 0..<200 { #expect(noise.watch(Self.edge(0, ms: 21 * Int64(i))) == nil) }
        #expect(noise.heard(0))
    }

    @Test("bounce within 5 ms is one movement, and the kernel's numbers count dropped edges")
    func bounceIsOneMovement() {
        var noise = LineNoise(lines: 1)
        var number: UInt32 = 0
        for press in 0..<49 {
            for bounce in 0..<5 {
                number += 1
                #expect(noise.watch(Self.edge(0, ms: 20 * Int64(press) + Int64(bounce), number: number)) == nil)
            }
        }
        // A gap of 10 numbers: 11 edges for this movement.
        number += 11
        let finding = noise.watch(Self.edge(0, ms: 985, number: number))
        #expect(finding?.edges == 49 * 5 + 11)
    }

    @Test("quiet, trial, noisy again for twice as long; a quiet trial recovers and resets the backoff")
    func backoff() {
        var noise = LineNoise(lines: 1)
        var ms: Int64 = 0
        func chatter(_ noise: inout LineNoise, _ count: Int) -> LineNoise.Finding? {
            var found: LineNoise.Finding?
            for _ in 0..<count {
                ms += 10
                if let f = noise.watch(Self.edge(0, ms: ms)) { found = f }
            }
            return found
        }
        #expect(chatter(&noise, 60)?.ignoredFor == .seconds(60))
        let quietFrom = Instant.zero + .milliseconds(500)
        #expect(noise.nextDeadline == quietFrom + .seconds(60))
        #expect(noise.due(at: quietFrom + .seconds(59)) == nil)
        #expect(chatter(&noise, 10) == nil, "ignored edges are not counted")
        ms = 61_000
        #expect(noise.due(at: .zero + .milliseconds(ms)) == .listen(line: 0))
        #expect(!noise.heard(0), "on trial")
        #expect(chatter(&noise, 50)?.ignoredFor == .seconds(120))
        ms = 200_000
        #expect(noise.due(at: .zero + .milliseconds(ms)) == .listen(line: 0))
        #expect(noise.due(at: .zero + .milliseconds(ms + 999)) == nil)
        #expect(noise.due(at: .zero + .milliseconds(ms + 1000)) == .recovered(line: 0))
        #expect(noise.heard(0) && noise.nextDeadline == nil)
        #expect(chatter(&noise, 50)?.ignoredFor == .seconds(60), "recovered: the backoff starts again")
    }
}
