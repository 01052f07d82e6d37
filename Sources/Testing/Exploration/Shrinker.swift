/// Shrinks a failing sequence of steps: fewer steps, simpler actions, fewer and shorter clock
/// advances, keeping each candidate only if running it breaks the same property again.
///
/// The passes repeat until none changes the sequence (or the run budget is spent), so the result
/// is *1-minimal*: removing any one step, simplifying any one action, merging any two adjacent
/// advances or shortening any advance to a configured clock step makes it pass.
struct Shrinker<State: Equatable & Codable & Sendable, Action: Equatable & Sendable> {
  typealias Step = ExplorationStep<Action>

  let explorer: Explorer<State, Action>
  let kind: ExplorationFailureKind
  /// How many candidates were run.
  private(set) var runs = 0

  init(explorer: Explorer<State, Action>, kind: ExplorationFailureKind) {
    self.explorer = explorer
    self.kind = kind
  }

  mutating func shrink(_ steps: [Step]) async -> [Step] {
    var current = steps
    while true {
      let before = current
      current = await removingChunks(current)
      current = await removingEach(current)
      current = await simplifyingActions(current)
      current = await mergingAdvances(current)
      current = await shorteningAdvances(current)
      if current == before || isExhausted { return current }
    }
  }

  private var isExhausted: Bool { runs >= explorer.configuration.maxShrinkRuns }

  /// The candidate cut to the step where it broke the property again, or `nil` if it passes or
  /// breaks another one.
  private mutating func failing(_ candidate: [Step]) async -> [Step]? {
    guard !isExhausted else { return nil }
    runs += 1
    let outcome = await explorer.execute(.fixed(candidate), recording: false)
    guard let violation = outcome.violation, violation.kind == kind else { return nil }
    return outcome.steps
  }

  /// Delta debugging: removes chunks of halving size, each chunk's complement kept if it fails.
  private mutating func removingChunks(_ steps: [Step]) async -> [Step] {
    var current = steps
    var parts = 2
    while current.count >= 2 && !isExhausted {
      let size = (current.count + parts - 1) / parts
      var reduced = false
      var start = 0
      while start < current.count {
        var candidate = current
        candidate.removeSubrange(start..<min(start + size, current.count))
        if let smaller = await failing(candidate) {
          current = smaller
          parts = max(parts - 1, 2)
          reduced = true
          break
        }
        start += size
      }
      if !reduced {
        if size == 1 { break }
        parts = min(current.count, parts * 2)
      }
    }
    return current
  }

  /// Removes single steps, last first, until none can go.
  private mutating func removingEach(_ steps: [Step]) async -> [Step] {
    var current = steps
    var index = current.count - 1
    while index >= 0 && !isExhausted {
      if index < current.count {
        var candidate = current
        candidate.remove(at: index)
        if let smaller = await failing(candidate) { current = smaller }
      }
      index -= 1
    }
    return current
  }

  /// Replaces each action by the first of its simpler forms that still fails.
  private mutating func simplifyingActions(_ steps: [Step]) async -> [Step] {
    var current = steps
    var index = 0
    while index < current.count && !isExhausted {
      guard case .send(let action) = current[index] else {
        index += 1
        continue
      }
      var replaced = false
      for simpler in explorer.actions.simplify(action) where simpler != action {
        var candidate = current
        candidate[index] = .send(simpler)
        if let smaller = await failing(candidate) {
          current = smaller
          replaced = true
          break
        }
      }
      // A replaced action may simplify further; otherwise move on.
      if !replaced { index += 1 }
    }
    return current
  }

  /// Merges two adjacent advances into one advance of their sum.
  private mutating func mergingAdvances(_ steps: [Step]) async -> [Step] {
    var current = steps
    var index = 0
    while index + 1 < current.count && !isExhausted {
      if case .advance(let first) = current[index], case .advance(let second) = current[index + 1] {
        var candidate = current
        candidate.replaceSubrange(index...index + 1, with: [.advance(first + second)])
        if let smaller = await failing(candidate) {
          current = smaller
          continue
        }
      }
      index += 1
    }
    return current
  }

  /// Replaces each advance by the shortest configured clock step below it that still fails.
  private mutating func shorteningAdvances(_ steps: [Step]) async -> [Step] {
    var current = steps
    let durations = Set(explorer.configuration.clockSteps).sorted()
    var index = 0
    while index < current.count && !isExhausted {
      if case .advance(let duration) = current[index] {
        for shorter in durations where shorter < duration {
          var candidate = current
          candidate[index] = .advance(shorter)
          if let smaller = await failing(candidate) {
            current = smaller
            break
          }
        }
      }
      index += 1
    }
    return current
  }
}
