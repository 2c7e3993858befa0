import HTTPTesting
import Testing

/// The test server's own parts that the transport tests do not show.
struct LoopbackHTTPServerTests {
    @Test("A recorded head parses into status and headers, CR LF or LF")
    func recordedHead() throws {
        let heads = [
            "HTTP/1.1 304 Not Modified\r\nDate: Thu, 15 Jan 2026 07:49:02 GMT\r\nExpires:  x \r\n\r\n",
            "HTTP/1.1 304 Not Modified\nDate: Thu, 15 Jan 2026 07:49:02 GMT\nExpires:  x \n",
        ]
        for head in heads {
            guard case .response(let status, let headers, let body) = try LoopbackHTTPServer.Reply.recorded(head: head) else {
                Issue.record("not a response")
                continue
            }
            #expect(status == 304)
            #expect(headers == [.init("Date", "Thu, 15 Jan 2026 07:49:02 GMT"), .init("Expires", "x")])
            #expect(body.isEmpty)
        }
        #expect(throws: LoopbackHTTPServer.RecordedHeadError.self) { try LoopbackHTTPServer.Reply.recorded(head: "200 OK\r\n") }
        #expect(throws: LoopbackHTTPServer.RecordedHeadError.self) {
            try LoopbackHTTPServer.Reply.recorded(head: "HTTP/1.1 200 OK\r\nno colon\r\n")
        }
    }

    @Test("An HTTPS server says https in its URLs; a missing key or libssl stops it from starting, in one line")
    func tlsStart() throws {
        let server = try LoopbackHTTPServer(tls: TestCertificates.localhost)
        #expect(server.baseURL == "https://127.0.0.1:\(server.port)")
        server.stop()
        let noKey = LoopbackHTTPServer.TLSIdentity(certificateChainPath: TestCertificates.path("localhost.pem"), privateKeyPath: "/nonexistent.key")
        #expect { try LoopbackHTTPServer(tls: noKey) } throws: { "\($0)".contains("loading /nonexistent.key failed: error:") }
        var noLibrary = TestCertificates.localhost
        noLibrary.libraryName = "libssl-does-not-exist.so"
        #expect { try LoopbackHTTPServer(tls: noLibrary) } throws: { "\($0)".contains("libssl-does-not-exist.so not found") }
    }

    @Test("Ports are ephemeral and distinct; stop is idempotent")
    func ports() throws {
        let a = try LoopbackHTTPServer()
        let b = try LoopbackHTTPServer()
        #expect(a.port != 0 && b.port != 0 && a.port != b.port)
        #expect(a.url("/x?y=1") == "http://127.0.0.1:\(a.port)/x?y=1")
        a.stop()
        a.stop()
        b.stop()
    }
}

struct GzipStoredTests {
    @Test("CRC-32 check value and a stored stream of an empty and of a 70,000-byte input")
    func storedStreams() {
        #expect(GzipStored.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(GzipStored.encode([]) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 0x01, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0])
        let big = [UInt8](repeating: 7, count: 70_000)
        let stream = GzipStored.encode(big)
        #expect(stream.count == 10 + 5 + 65535 + 5 + (70_000 - 65535) + 8)
        #expect(stream[10] == 0x00 && stream[10 + 5 + 65535] == 0x01, "two blocks, the second final")
    }
}
