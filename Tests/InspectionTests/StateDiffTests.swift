import ChronicleInspection
import Testing

// Fixtures are private to this file so that their names never clash with other tests.
private struct Chore: Equatable, Hashable {
  var title: String
  var done = false
}

private struct Resident: Equatable {
  var name: String
  var age: Int
}

private enum Delivery: Equatable {
  case idle
  case loaded(Int)
  case failed(code: Int, message: String)
}

private struct Household: Equatable {
  var owner = Resident(name: "Ada", age: 36)
  var todos: [Chore] = []
  var settings: [String: String] = [:]
  var tags: Set<String> = []
  var status = Delivery.idle
  var selected: Chore?
}

/// Not `Equatable` at any level: compared through reflection alone.
private struct Sketch {
  var strokes: [Stroke]
  var label: String?
}

private struct Stroke {
  var width: Double
  var points: [Int]
}

private final class Bead {
  var value: Int
  var next: Bead?

  init(_ value: Int, next: Bead? = nil) {
    self.value = value
    self.next = next
  }
}

private func makeChores(_ count: Int) -> [Chore] {
  (0..<count).map { Chore(title: "chore \($0)") }
}

@Suite struct StateDiffTests {
  @Test func equalValuesHaveNoChanges() {
    let state = Household(todos: makeChores(3), settings: ["theme": "dark"], tags: ["a"])
    #expect(StateDiff.changes(from: state, to: state).isEmpty)
    #expect(StateDiff.render(from: state, to: state) == "")
  }

  @Test func nestedStructFieldChangeIsReportedAtItsPath() {
    var new = Household()
    new.owner.name = "Grace"
    #expect(StateDiff.render(from: Household(), to: new) == #"owner.name: "Ada" → "Grace""#)
  }

  @Test func changeReportsPathKindAndBothValues() {
    var new = Household()
    new.owner.age = 37
    #expect(
      StateDiff.changes(from: Household(), to: new) == [
        StateDiff.Change(path: [.property("owner"), .property("age")], kind: .changed, old: "36", new: "37")
      ]
    )
  }

  @Test func arrayElementFieldChangeIsReportedAtItsIndex() {
    let old = Household(todos: makeChores(4))
    var new = old
    new.todos[2].done = true
    #expect(StateDiff.render(from: old, to: new) == "todos[2].done: false → true")
  }

  @Test func appendedElementIsAdded() {
    let old = Household(todos: makeChores(3))
    var new = old
    new.todos.append(Chore(title: "Eggs"))
    #expect(StateDiff.render(from: old, to: new) == #"todos[3]: added Chore(title: "Eggs", done: false)"#)
  }

  @Test func removedElementIsRemovedAtItsOldIndex() {
    let old = Household(todos: makeChores(3))
    var new = old
    new.todos.remove(at: 1)
    #expect(
      StateDiff.render(from: old, to: new) == #"todos[1]: removed Chore(title: "chore 1", done: false)"#)
  }

  @Test func insertionInTheMiddleOfALargeArrayIsOneChange() {
    let old = Household(todos: makeChores(10_000))
    var new = old
    new.todos.insert(Chore(title: "urgent"), at: 1)
    #expect(StateDiff.render(from: old, to: new) == #"todos[1]: added Chore(title: "urgent", done: false)"#)
  }

  @Test func removalFromTheMiddleOfALargeArrayIsOneChange() {
    let old = Household(todos: makeChores(10_000))
    var new = old
    new.todos.remove(at: 5_000)
    #expect(
      StateDiff.render(from: old, to: new) == #"todos[5000]: removed Chore(title: "chore 5000", done: false)"#
    )
  }

  @Test func oneElementChangedInALargeArrayIsOneChange() {
    let old = Household(todos: makeChores(10_000))
    var new = old
    new.todos[9_999].title = "last"
    #expect(StateDiff.render(from: old, to: new) == #"todos[9999].title: "chore 9999" → "last""#)
  }

  @Test func middleOfDifferingLengthsIsPairedThenAddedOrRemoved() {
    let old = [1, 2, 3, 9]
    let new = [1, 5, 6, 7, 8, 9]
    #expect(
      StateDiff.render(from: old, to: new) == """
        [1]: 2 → 5
        [2]: 3 → 6
        [3]: added 7
        [4]: added 8
        """
    )
  }

  @Test func dictionaryEntriesAreAddedRemovedAndChangedInKeyOrder() {
    let old = Household(settings: ["theme": "dark", "font": "mono", "size": "12"])
    let new = Household(settings: ["theme": "light", "lang": "en", "size": "12"])
    #expect(
      StateDiff.render(from: old, to: new) == """
        settings["font"]: removed "mono"
        settings["lang"]: added "en"
        settings["theme"]: "dark" → "light"
        """
    )
  }

  @Test func dictionaryWithIntegerKeysIsReportedInNumericOrder() {
    let old = [2: "b", 10: "x"]
    let new = [2: "c", 10: "y"]
    #expect(
      StateDiff.render(from: old, to: new) == """
        [2]: "b" → "c"
        [10]: "x" → "y"
        """
    )
  }

  @Test func setElementsAreAddedAndRemovedInOrder() {
    let old = Household(tags: ["home", "shop", "work"])
    let new = Household(tags: ["garden", "home", "zoo"])
    #expect(
      StateDiff.render(from: old, to: new) == """
        tags: added "garden"
        tags: removed "shop"
        tags: removed "work"
        tags: added "zoo"
        """
    )
  }

  @Test func enumCaseChangeIsOneChangeAtTheEnum() {
    let new = Household(status: .failed(code: 1, message: "offline"))
    #expect(
      StateDiff.render(from: Household(), to: new) == #"status: .idle → .failed(code: 1, message: "offline")"#
    )
  }

  @Test func enumPayloadChangeIsReportedInsideThePayload() {
    let old = Household(status: .failed(code: 1, message: "offline"))
    let new = Household(status: .failed(code: 2, message: "offline"))
    #expect(StateDiff.render(from: old, to: new) == "status.failed.code: 1 → 2")
    #expect(
      StateDiff.render(from: Household(status: .loaded(1)), to: Household(status: .loaded(2)))
        == "status.loaded: 1 → 2"
    )
  }

  @Test func optionalFromNilToValueIsOneChange() {
    let new = Household(selected: Chore(title: "Milk"))
    #expect(
      StateDiff.render(from: Household(), to: new) == #"selected: nil → Chore(title: "Milk", done: false)"#)
    #expect(
      StateDiff.render(from: new, to: Household()) == #"selected: Chore(title: "Milk", done: false) → nil"#)
  }

  @Test func optionalWithValuesOnBothSidesIsComparedInside() {
    let old = Household(selected: Chore(title: "Milk"))
    let new = Household(selected: Chore(title: "Milk", done: true))
    #expect(StateDiff.render(from: old, to: new) == "selected.done: false → true")
  }

  @Test func nonEquatableValuesAreStillDiffed() {
    let old = Sketch(strokes: [Stroke(width: 1, points: [1, 2]), Stroke(width: 2, points: [3])], label: nil)
    let new = Sketch(
      strokes: [Stroke(width: 1, points: [1, 2, 4]), Stroke(width: 2, points: [3])], label: "x")
    #expect(
      StateDiff.render(from: old, to: new) == """
        strokes[0].points[2]: added 4
        label: nil → "x"
        """
    )
    #expect(StateDiff.changes(from: old, to: old).isEmpty)
  }

  @Test func insertionIntoANonEquatableArrayIsOneChange() {
    let old = (0..<100).map { Stroke(width: Double($0), points: []) }
    var new = old
    new.insert(Stroke(width: -1, points: [7]), at: 50)
    #expect(StateDiff.render(from: old, to: new) == "[50]: added Stroke(width: -1.0, points: [7])")
  }

  @Test func sameObjectOnBothSidesHasNoChanges() {
    let link = Bead(1)
    let old = [link]
    link.value = 2
    #expect(StateDiff.changes(from: old, to: [link]).isEmpty)
  }

  @Test func distinctObjectsAreComparedByTheirFields() {
    #expect(StateDiff.render(from: Bead(1, next: Bead(2)), to: Bead(1, next: Bead(3))) == "next.value: 2 → 3")
  }

  @Test func cyclicObjectGraphsAreDiffedOnce() {
    let old = Bead(1)
    old.next = Bead(2, next: old)
    let new = Bead(1)
    new.next = Bead(3, next: new)
    // Broken afterwards, so that LeakSanitizer does not report the cycles as leaks.
    defer { (old.next, new.next) = (nil, nil) }
    #expect(StateDiff.render(from: old, to: new) == "next.value: 2 → 3")
  }

  @Test func rootValueChangeIsReportedAtSelf() {
    #expect(StateDiff.render(from: 1, to: 2) == "self: 1 → 2")
    #expect(StateDiff.render(from: Delivery.idle, to: Delivery.loaded(1)) == "self: .idle → .loaded(1)")
  }

  @Test func valuesOfDifferentTypesAreOneChange() {
    let old: [String: Any] = ["limit": 10]
    let new: [String: Any] = ["limit": "none"]
    #expect(StateDiff.render(from: old, to: new) == #"["limit"]: 10 → "none""#)
  }

  @Test func changesKeepFieldDeclarationOrder() {
    var new = Household(todos: [Chore(title: "a")], selected: Chore(title: "b"))
    new.owner.age = 40
    new.status = .loaded(1)
    #expect(
      StateDiff.render(from: Household(), to: new) == """
        owner.age: 36 → 40
        todos[0]: added Chore(title: "a", done: false)
        status: .idle → .loaded(1)
        selected: nil → Chore(title: "b", done: false)
        """
    )
  }
}
