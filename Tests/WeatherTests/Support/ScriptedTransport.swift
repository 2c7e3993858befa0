import HAL
import Weather

/// A transport that answers from a script and records what was asked: the repository tests
/// run through virtual time without a network. (The transport itself is tested against a real
/// server on 127.0.0.1 in WeatherHTTPTests.)
final class ScriptedTransport: HTTPTransport {
    enum Answer {
        case response(HTTPResponse)
        case failure(TransportError)
    }

    var script: [Answer] = []
    /// Answered when the script is empty.
    var otherwise: Answer
    private(set) var requests: [HTTPRequest] = []

    init(otherwise: Answer) { self.otherwise = otherwise }

    func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        requests.append(request)
        let answer = script.isEmpty ? otherwise : script.removeFirst()
        switch answer {
        case .response(let response): return .success(response)
        case .failure(let error): return .failure(error)
        }
    }
}
