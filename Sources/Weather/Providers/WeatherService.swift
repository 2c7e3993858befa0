import HAL

/// A weather provider: how to ask it and how to read its answer. Two implementations,
/// `OpenMeteoService` and `METNorwayService`; the repository and the `weather fetch` command
/// use them through this contract, with any `HTTPTransport` in between.
public protocol WeatherService: Sendable {
    var provider: WeatherProvider { get }
    /// The request for `order`. Pure: the same order gives the same request.
    func request(for order: FetchOrder) -> HTTPRequest
    /// Reads a response received at `receivedAt` (civil time).
    func decode(_ response: HTTPResponse, for order: FetchOrder, receivedAt: WallTime) -> Result<FetchOutcome, WeatherError>
}

/// What one fetch asks for.
public struct FetchOrder: Sendable, Equatable {
    public var position: Coordinate
    public var units: RequestUnits
    /// From the last good answer, for a conditional request (MET: `If-Modified-Since`).
    public var validators: CacheValidators
    /// The device's time when it gave the order: the worker turns the monotonic instant an
    /// answer arrives at into civil time with it, and checks HTTPS certificates at that time (a
    /// Pi's system clock may be months off before NTP answers; GPS time is not). Nil: the
    /// system clock as the fetch reads it (the command line's one-off fetches).
    public var time: TimeBase?

    public init(position: Coordinate, units: RequestUnits = .metric, validators: CacheValidators = .none, time: TimeBase? = nil) {
        self.position = position
        self.units = units
        self.validators = validators
        self.time = time
    }
}

/// What the service said about caching its answer (MET Norway's terms: obey `Expires`, send
/// `If-Modified-Since` with the stored `Last-Modified`, verbatim).
public struct CacheValidators: Sendable, Equatable {
    /// `Last-Modified`, exactly as received.
    public var lastModified: String?
    /// How long after receipt the service asks not to be asked again (`Expires` − `Date`, so a
    /// device clock that is off does not matter).
    public var freshFor: Duration?

    public init(lastModified: String? = nil, freshFor: Duration? = nil) {
        self.lastModified = lastModified
        self.freshFor = freshFor
    }

    public static let none = CacheValidators()
}

/// A good answer: a new report, or "not modified" (304) with refreshed validators.
public enum FetchOutcome: Sendable, Equatable {
    case report(WeatherReport, CacheValidators)
    case notModified(CacheValidators)
}

/// Who is asking. MET Norway's terms require an identifying User-Agent with a contact (403
/// otherwise); Open-Meteo asks for nothing but gets the same courtesy.
public struct ClientIdentity: Sendable, Equatable {
    public var product: String
    public var version: String
    /// An e-mail address or web page where the device's operator can be reached; MET Norway
    /// requires one (403 without; `weather fetch` refuses MET Norway without it).
    public var contact: String?

    public init(product: String = "thunderstorm", version: String = ClientIdentity.currentVersion, contact: String?) {
        self.product = product
        self.version = version
        self.contact = contact
    }

    public static let currentVersion = "0.6.0"

    /// `thunderstorm/0.6.0 (ops@example.org)`, the form MET's getting-started guide shows.
    public var userAgent: String { contact.map { "\(product)/\(version) (\($0))" } ?? "\(product)/\(version)" }
}
