import ChronicleStore

/// The counter feature of DESIGN.md that the tests record, replay and persist, with effects for
/// the tests: one fixture for every test target.
public struct Counter: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var count = 0
    public var log: [String] = []

    public init(count: Int = 0, log: [String] = []) {
      self.count = count
      self.log = log
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case increment
    case decrement
    case add(Int)
    case note(String)
    case chain(remaining: Int)
    case load
    case loaded(Int)
    case fail
  }

  public struct Failure: Error {
    public init() {}
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .add(let amount):
      state.count += amount
      return .none
    case .note(let text):
      state.log.append(text)
      return .none
    case .chain(let remaining):
      state.count += 1
      return remaining > 0 ? .send(.chain(remaining: remaining - 1)) : .none
    case .load:
      return .run { send in await send(.loaded(42)) }.cancellable(id: "load")
    case .loaded(let value):
      state.count = value
      return .none
    case .fail:
      return .run { _ in throw Failure() }
    }
  }
}
