/// How the explorer makes the actions it sends: picked from a weighted list, or made by a
/// closure from the random generator and the current state.
///
/// ```swift
/// let fixed = ActionGenerator<Counter.State, Counter.Action>.weighted([
///   (3, .increment), (1, .decrement), (1, .reset),
/// ])
/// let fromState = ActionGenerator<Todos.State, Todos.Action> { random, state in
///   state.todos.isEmpty ? .add("a") : .toggle(random.next(below: state.todos.count))
/// }
/// ```
///
/// `simplify` lets shrinking replace an action of a failing run by simpler ones: it returns
/// candidates, simplest first (`.add(100)` → `[.add(1), .add(50)]`), and shrinking keeps the
/// first that still fails. Without it, shrinking only removes steps.
public struct ActionGenerator<State: Sendable, Action: Sendable>: Sendable {
  let make: @Sendable (inout ExplorationRandom, State) -> Action
  let simplify: @Sendable (Action) -> [Action]
  /// Whether `make` reads the state: a weighted list does not, so the explorer need not copy it.
  let readsState: Bool

  /// Makes each action with `make`, from the random generator and the state before it.
  ///
  /// - Parameters:
  ///   - simplify: Simpler replacements for an action, simplest first; none by default.
  ///   - make: Returns the next action to send. Draw every random choice from the generator it
  ///     is given, so a seed reproduces the run.
  public init(
    simplify: @escaping @Sendable (_ action: Action) -> [Action] = { _ in [] },
    _ make: @escaping @Sendable (_ random: inout ExplorationRandom, _ state: State) -> Action
  ) {
    self.make = make
    self.simplify = simplify
    self.readsState = true
  }

  private init(
    simplify: @escaping @Sendable (Action) -> [Action],
    readsState: Bool,
    make: @escaping @Sendable (inout ExplorationRandom, State) -> Action
  ) {
    self.make = make
    self.simplify = simplify
    self.readsState = readsState
  }

  /// Picks each action from `choices`, an action with weight `w` being picked `w` times as often
  /// as one with weight 1. Weights below 1 count as 0; a list whose weights are all 0 picks its
  /// first action.
  ///
  /// - Parameters:
  ///   - choices: The actions and their weights.
  ///   - simplify: Simpler replacements for an action, simplest first; none by default.
  public static func weighted(
    _ choices: [(weight: Int, action: Action)],
    simplify: @escaping @Sendable (_ action: Action) -> [Action] = { _ in [] }
  ) -> ActionGenerator {
    let picker = WeightedPicker(choices.map { max(0, $0.weight) })
    let actions = choices.map(\.action)
    return ActionGenerator(simplify: simplify, readsState: false) { random, _ in
      actions[picker.pick(&random)]
    }
  }
}

/// Picks an index with probability proportional to its weight, with one bounded draw.
struct WeightedPicker: Sendable {
  /// The running totals of the weights.
  private let totals: [Int]

  init(_ weights: [Int]) {
    var running = 0
    totals = weights.map { weight in
      running += weight
      return running
    }
  }

  /// An index of the weights; 0 when they are all 0 or there are none.
  func pick(_ random: inout ExplorationRandom) -> Int {
    guard let total = totals.last, total > 0 else { return 0 }
    let draw = random.next(below: total)
    var low = 0
    var high = totals.count - 1
    while low < high {
      let middle = (low + high) / 2
      if totals[middle] > draw { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
