import ArgumentParser
import HAL
import HALLinux
import Weather
import WeatherHTTP

struct WeatherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather",
        abstract: "Ask a weather service, as the device does.",
        subcommands: [WeatherFetchCommand.self]
    )
}

/// `thunderstorm weather fetch`: one request through the same provider code and transport as
/// the daemon, printed as the normalised model. Exit codes (docs/reference/exit-codes.md): 64 bad
/// arguments, 69 the service refuses or answers nonsense, 75 no answer (network, timeout).
struct WeatherFetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch the forecast for a position and print it (JSON with --json).",
        discussion: """
            Open-Meteo is free for non-commercial use (CC BY 4.0); MET Norway requires a User-Agent \
            with a contact, set it with --contact. Times are shown in the place's time zone \
            (Open-Meteo) or this machine's (MET Norway).
            """
    )

    // `.unconditional`: a negative coordinate (`--lon -21.9`) is a value, not an option.
    @Option(name: .customLong("lat"), parsing: .unconditional, help: "Latitude in degrees, -90…90.")
    var latitude: Double

    @Option(name: .customLong("lon"), parsing: .unconditional, help: "Longitude in degrees, -180…180.")
    var longitude: Double

    @Option(help: "open-meteo or met-norway.")
    var provider: String = WeatherProvider.openMeteo.rawValue

    @Option(name: .customLong("base-url"), help: "Another server, e.g. a local mirror or a test server.")
    var baseURL: String?

    @Option(help: "metric or imperial: what the service is asked for (the output is SI either way with --json).")
    var units: String = RequestUnits.metric.rawValue

    @Option(help: "Who to contact about this device, sent in the User-Agent (MET Norway requires one).")
    var contact: String?

    @Option(help: "Seconds before giving up on the service.")
    var timeout: Int = 20

    @Flag(help: "Print JSON instead of a summary.")
    var json = false

    // Hidden: for measuring and for falling back; docs/http-transport.md compares the two.
    @Option(help: ArgumentHelp("native (SocketTransport: sockets, libssl, zlib) or curl (libcurl).", visibility: .hidden))
    var transport: String = TransportChoice.native.rawValue

    func validate() throws {
        guard (try? Coordinate(latitude: latitude, longitude: longitude)) != nil else {
            throw ValidationError("--lat must be within -90…90 and --lon within -180…180 (are they swapped?)")
        }
        guard WeatherProvider(rawValue: provider) != nil else {
            throw ValidationError("--provider must be open-meteo or met-norway, not \"\(provider)\"")
        }
        guard RequestUnits(rawValue: units) != nil else {
            throw ValidationError("--units must be metric or imperial, not \"\(units)\"")
        }
        if provider == WeatherProvider.metNorway.rawValue, contact?.isEmpty ?? true {
            throw ValidationError("MET Norway's terms require a contact in the User-Agent: add --contact you@example.org")
        }
        guard (1...300).contains(timeout) else { throw ValidationError("--timeout must be 1…300 seconds") }
        if let baseURL, !(baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://")) {
            throw ValidationError("--base-url must start with http:// or https://")
        }
        guard TransportChoice(rawValue: transport) != nil else {
            throw ValidationError("--transport must be native or curl, not \"\(transport)\"")
        }
    }

    /// The HTTP transports (docs/http-transport.md). Both check HTTPS against the CA directory
    /// /etc/ssl/certs, which OpenSSL reads lazily: ~1 MB less peak RSS than the bundle.
    enum TransportChoice: String {
        /// SocketTransport: the default, the one that keeps the daemon under 20 MB.
        case native
        /// CurlTransport: libcurl and its ~30 libraries.
        case curl
    }

    func run() throws {
        let identity = ClientIdentity(contact: contact)
        var files = LinuxFileSystem()
        let localZone = (try? ZoneRules.loadLocalZone(files: &files).get()) ?? .utc
        let order = FetchOrder(position: try Coordinate(latitude: latitude, longitude: longitude), units: RequestUnits(rawValue: units)!)
        func fetch<Transport: HTTPTransport>(_ transport: inout Transport) -> WeatherFetch.Result {
            switch WeatherProvider(rawValue: provider)! {
            case .openMeteo:
                var service = OpenMeteoService(identity: identity, timeout: .seconds(timeout))
                if let baseURL { service.baseURL = baseURL }
                return WeatherFetch.perform(order, service: service, transport: &transport, clock: LinuxClock())
            case .metNorway:
                var service = METNorwayService(identity: identity, timeout: .seconds(timeout), zone: localZone)
                if let baseURL { service.baseURL = baseURL }
                return WeatherFetch.perform(order, service: service, transport: &transport, clock: LinuxClock())
            }
        }
        let result: WeatherFetch.Result
        switch TransportChoice(rawValue: transport)! {
        case .native:
            var native = SocketTransport(configuration: .init(trust: .directory(path: "/etc/ssl/certs")))
            result = fetch(&native)
        case .curl:
            var curl = CurlTransport(configuration: .init(trust: .directory(path: "/etc/ssl/certs")))
            result = fetch(&curl)
        }
        switch result.outcome {
        case .success(.report(let report, _)):
            let zone = ZoneRules.forReport(report, files: &files, fallback: localZone)
            print(json ? WeatherJSON.document(report) : WeatherSummary.text(report, zone: zone, units: order.units))
        case .success(.notModified):
            // Unconditional requests never get one; a proxy that sends it anyway is nonsense.
            printError("weather: the service answered 304 Not Modified to an unconditional request")
            throw ExitCode(69)
        case .failure(let error):
            printError("weather: \(error.description)")
            if case .transport = error { throw ExitCode(75) }
            throw ExitCode(69)
        }
    }
}
