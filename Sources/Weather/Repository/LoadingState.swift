/// The state of something the device loads over an unreliable edge, keeping the last good value
/// through a refresh and through a failure: a screen never goes blank because a fetch failed
/// (docs/design/parts.md#the-weather-service, "keep last data rather than a blank screen").
public enum LoadingState<Value: Sendable & Equatable, Failure: Error & Equatable & Sendable>: Sendable, Equatable {
    /// Nothing asked for yet (no position).
    case idle
    /// A request is on its way; `last` is what is shown meanwhile.
    case loading(last: Value?)
    case success(Value)
    /// The last request failed; `last` is still the last good value.
    case failure(Failure, last: Value?)

    /// The value to show, whatever is going on.
    public var value: Value? {
        switch self {
        case .idle: nil
        case .loading(let last): last
        case .success(let value): value
        case .failure(_, let last): last
        }
    }

    public var failure: Failure? {
        if case .failure(let error, _) = self { return error }
        return nil
    }

    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The same state holding `value` where it held one (idle stays idle).
    public func replacingValue(_ value: Value) -> Self {
        switch self {
        case .idle: .idle
        case .loading: .loading(last: value)
        case .success: .success(value)
        case .failure(let error, _): .failure(error, last: value)
        }
    }
}
