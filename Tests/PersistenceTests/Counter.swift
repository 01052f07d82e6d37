import ChronicleStore

/// A counter whose state the persistence and registry tests save, restore and share.
struct Counter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    var log: [String] = []
  }

  enum Action: Equatable, Sendable, Codable {
    case increment
    case add(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .add(let amount): state.count += amount
    }
    return .none
  }
}
