import ChronicleJSON
import ChronicleTracer

/// How the elements of two versions of an array correspond, for ``StatePatch/between(_:_:)``.
///
/// Elements equal in both at the front and at the back match first. Between them, elements are
/// matched by identity when every one of both arrays is an object with an `id` member and no id
/// repeats within an array (the JSON of `Identifiable` values), by value otherwise. The prefix
/// and suffix that match that way come next; what is left is aligned along a
/// longest common subsequence when it is small enough (at most `lcsCells` pairs), and position by
/// position otherwise, so the cost stays linear for large rewrites.
struct ArrayAlignment {
  /// One step of the alignment, in the order of the new array.
  enum Step: Equatable {
    /// `old[oldIndex]` became `new[newIndex]`: the same element, perhaps changed inside.
    case match(Int, Int)
    /// `old[oldIndex]` was removed.
    case remove(Int)
    /// `new[newIndex]` was inserted.
    case insert(Int)
  }

  /// The most pairs of leftover elements aligned by their longest common subsequence.
  static let lcsCells = 250_000

  let old: [JSONValue]
  let new: [JSONValue]
  /// How many elements at the front and at the back are equal in both: they match whatever
  /// the elements are, and only the ones between are looked at more closely.
  private let equalPrefix: Int
  private let equalSuffix: Int
  /// The ids of the elements between the equal prefix and suffix, from the first of them on.
  private let oldKeys: [Identity]?
  private let newKeys: [Identity]?

  init(old: [JSONValue], new: [JSONValue]) {
    self.old = old
    self.new = new
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
      suffix += 1
    }
    (equalPrefix, equalSuffix) = (prefix, suffix)
    if let oldKeys = Self.identities(old[prefix..<(old.count - suffix)]),
      let newKeys = Self.identities(new[prefix..<(new.count - suffix)])
    {
      (self.oldKeys, self.newKeys) = (oldKeys, newKeys)
    } else {
      (self.oldKeys, self.newKeys) = (nil, nil)
    }
  }

  /// Whether elements are matched by their `id` member.
  var matchesByIdentity: Bool { oldKeys != nil }

  private func same(_ oldIndex: Int, _ newIndex: Int) -> Bool {
    if let oldKeys, let newKeys { return oldKeys[oldIndex - equalPrefix] == newKeys[newIndex - equalPrefix] }
    return old[oldIndex] == new[newIndex]
  }

  /// The alignment of the two arrays.
  var steps: [Step] {
    let shorter = min(old.count, new.count)
    var prefix = equalPrefix
    while prefix < shorter - equalSuffix, same(prefix, prefix) { prefix += 1 }
    var suffix = equalSuffix
    while suffix < shorter - prefix, same(old.count - 1 - suffix, new.count - 1 - suffix) { suffix += 1 }
    var steps = (0..<prefix).map { Step.match($0, $0) }
    let oldMiddle = prefix..<(old.count - suffix)
    let newMiddle = prefix..<(new.count - suffix)
    if oldMiddle.count * newMiddle.count <= Self.lcsCells {
      steps += commonSubsequence(oldMiddle, newMiddle)
    } else {
      steps += byPosition(oldMiddle, newMiddle)
    }
    steps += (0..<suffix).map { Step.match(old.count - suffix + $0, new.count - suffix + $0) }
    return steps
  }

  /// Emits the patches of the alignment: matched elements are compared by `compare` (old, new,
  /// path) at the index they have when their patch applies.
  func emit(
    path: [StatePatch.PathComponent], into patches: inout [StatePatch],
    compare: (JSONValue, JSONValue, [StatePatch.PathComponent], inout [StatePatch]) -> Void
  ) {
    // Elements before `position` are final; the ones from it on are the old ones still to come.
    var position = 0
    for step in steps {
      switch step {
      case .match(let oldIndex, let newIndex):
        compare(old[oldIndex], new[newIndex], path + [.index(position)], &patches)
        position += 1
      case .remove:
        patches.append(StatePatch(path: path + [.index(position)], value: nil))
      case .insert(let newIndex):
        patches.append(StatePatch(path: path + [.index(position)], value: new[newIndex], inserts: true))
        position += 1
      }
    }
  }

  private func commonSubsequence(_ oldRange: Range<Int>, _ newRange: Range<Int>) -> [Step] {
    let (rows, columns) = (oldRange.count, newRange.count)
    guard rows > 0, columns > 0 else {
      return oldRange.map(Step.remove) + newRange.map(Step.insert)
    }
    // lengths[i][j]: the longest common subsequence of the leftovers from i and j on.
    var lengths = [Int](repeating: 0, count: (rows + 1) * (columns + 1))
    func cell(_ row: Int, _ column: Int) -> Int { row * (columns + 1) + column }
    for row in stride(from: rows - 1, through: 0, by: -1) {
      for column in stride(from: columns - 1, through: 0, by: -1) {
        lengths[cell(row, column)] =
          same(oldRange.lowerBound + row, newRange.lowerBound + column)
          ? lengths[cell(row + 1, column + 1)] + 1
          : max(lengths[cell(row + 1, column)], lengths[cell(row, column + 1)])
      }
    }
    var steps: [Step] = []
    var (row, column) = (0, 0)
    while row < rows || column < columns {
      if row < rows, column < columns, same(oldRange.lowerBound + row, newRange.lowerBound + column) {
        steps.append(.match(oldRange.lowerBound + row, newRange.lowerBound + column))
        (row, column) = (row + 1, column + 1)
      } else if column == columns
        || (row < rows && lengths[cell(row + 1, column)] >= lengths[cell(row, column + 1)])
      {
        steps.append(.remove(oldRange.lowerBound + row))
        row += 1
      } else {
        steps.append(.insert(newRange.lowerBound + column))
        column += 1
      }
    }
    return matchesByIdentity ? steps : pairedReplacements(steps)
  }

  /// Elements compared by value that were removed and inserted at one place are one element
  /// that changed: compared in turn, a change inside it is a small patch.
  private func pairedReplacements(_ steps: [Step]) -> [Step] {
    var result: [Step] = []
    var index = 0
    while index < steps.count {
      var removed: [Int] = []
      while index < steps.count, case .remove(let oldIndex) = steps[index] {
        removed.append(oldIndex)
        index += 1
      }
      var inserted: [Int] = []
      while index < steps.count, case .insert(let newIndex) = steps[index] {
        inserted.append(newIndex)
        index += 1
      }
      let paired = min(removed.count, inserted.count)
      result += (0..<paired).map { Step.match(removed[$0], inserted[$0]) }
      result += removed.dropFirst(paired).map(Step.remove)
      result += inserted.dropFirst(paired).map(Step.insert)
      if removed.isEmpty, inserted.isEmpty {
        result.append(steps[index])
        index += 1
      }
    }
    return result
  }

  private func byPosition(_ oldRange: Range<Int>, _ newRange: Range<Int>) -> [Step] {
    let paired = min(oldRange.count, newRange.count)
    return (0..<paired).map { Step.match(oldRange.lowerBound + $0, newRange.lowerBound + $0) }
      + oldRange.dropFirst(paired).map(Step.remove) + newRange.dropFirst(paired).map(Step.insert)
  }

  /// An element's `id` member, compared as JSON: numbers by their text, so `1` and `"1"` differ.
  private enum Identity: Hashable {
    case number(String)
    case string(String)
    case other(String)
  }

  /// Each element's `id` member, or `nil` unless every element is an object with an `id` and no
  /// two share one.
  private static func identities(_ elements: ArraySlice<JSONValue>) -> [Identity]? {
    var keys: [Identity] = []
    keys.reserveCapacity(elements.count)
    var seen = Set<Identity>()
    for element in elements {
      guard let id = element["id"] else { return nil }
      let key: Identity =
        switch id {
        case .number(let text): .number(text)
        case .string(let text): .string(text)
        default: .other(JSONText.compact(id))
        }
      guard seen.insert(key).inserted else { return nil }
      keys.append(key)
    }
    return keys
  }
}
