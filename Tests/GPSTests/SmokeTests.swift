import GPS
import Testing

@Test func receiverDecodesOneEpoch() {
    var receiver = NMEAReceiver(rules: .archive)
    var fixes: [Fix] = []
    let text = "$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A*76\r\n$GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,*44\r\n"
    Array(text.utf8).withUnsafeBytes { receiver.consume($0) { if case .fix(let f) = $0 { fixes.append(f) } } }
    receiver.finish { if case .fix(let f) = $0 { fixes.append(f) } }
    #expect(fixes.count == 1)
    #expect(fixes.first?.time?.description == "2015-03-18T17:19:26.000Z")
    #expect(fixes.first?.mode == .threeD)
    #expect(receiver.statistics.accepted == 2)
}
