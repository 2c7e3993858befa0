/// A store that keeps everything in memory: for tests, previews and `simulate`. Every accepted
/// change is "durable" at once, so observers hear of it during `commit`.
public final class InMemoryStore: Store {
    public private(set) var state: StoreState
    public private(set) var sequence: UInt64 = 0
    public var health: StoreHealth { .healthy }
    private var observers = StoreObservers()

    public init(_ state: StoreState = .initial) { self.state = state }

    public func commit(_ change: StoreChange) throws(StoreError) -> CommitOutcome {
        guard try state.validate(change) else { return .unchanged }
        let old = state.settings
        state.apply(change)
        sequence += 1
        observers.send(.committed(sequence: sequence, change: change, old: old))
        return .durable(sequence: sequence)
    }

    public func observe(_ observer: @escaping (StoreEvent) -> Void) { observers.add(observer) }
}
