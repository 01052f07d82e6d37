import ChronicleInspection
import Foundation
import Testing

// Fixtures are private to this file so that their names never clash with other tests.
private struct Chore: Equatable, Hashable {
  var title: String
  var done: Bool
}

private struct TicketNumber: Equatable {
  var rawValue: Int
}

private struct Blank {}

private enum Delivery: Equatable, CustomStringConvertible {
  case idle
  case loaded(Int)
  case failed(code: Int, message: String)
  case pair(Int, String)

  var description: String { "a description that must not be used as a case name" }
}

private enum Shelf {
  struct Box<Item> {
    var item: Item
  }
}

private final class Bead {
  var value: Int
  var next: Bead?

  init(_ value: Int, next: Bead? = nil) {
    self.value = value
    self.next = next
  }
}

private class Instrument {
  var maker = "Stradivari"
}

private final class Violin: Instrument {
  var strings = 4
}

@Suite struct ValueDumpTests {
  @Test func structRendersOneFieldPerLine() {
    #expect(
      ValueDump.render(Chore(title: "Milk", done: false)) == """
        Chore(
          title: "Milk",
          done: false
        )
        """
    )
  }

  @Test func structRendersOnOneLineInline() {
    #expect(
      ValueDump.renderInline(Chore(title: "Milk", done: false)) == #"Chore(title: "Milk", done: false)"#)
  }

  @Test func structWithOneLeafFieldStaysOnOneLine() {
    #expect(ValueDump.render(TicketNumber(rawValue: 42)) == "TicketNumber(rawValue: 42)")
  }

  @Test func emptyStructRendersEmptyParentheses() {
    #expect(ValueDump.render(Blank()) == "Blank()")
  }

  @Test func nestedGenericTypeNamesHaveNoModulePrefix() {
    let box = Shelf.Box<[String: Int?]>(item: ["a": 1])
    #expect(ValueDump.renderInline(box) == #"Shelf.Box<[String: Int?]>(item: ["a": 1])"#)
  }

  @Test func rootEnumCaseIsQualifiedWithItsType() {
    #expect(ValueDump.render(Delivery.idle) == "Delivery.idle")
  }

  @Test func nestedEnumCaseStartsWithADot() {
    #expect(ValueDump.renderInline([Delivery.idle, .loaded(3)]) == "[.idle, .loaded(3)]")
  }

  @Test func enumCaseNameIgnoresCustomDescription() {
    #expect(ValueDump.renderInline(Shelf.Box(item: Delivery.idle)) == "Shelf.Box<Delivery>(item: .idle)")
  }

  @Test func enumPayloadWithSeveralValuesRendersLikeAStruct() {
    #expect(
      ValueDump.render(Delivery.failed(code: 404, message: "Not found")) == """
        Delivery.failed(
          code: 404,
          message: "Not found"
        )
        """
    )
    #expect(ValueDump.renderInline(Delivery.pair(1, "a")) == #"Delivery.pair(1, "a")"#)
  }

  @Test func enumPayloadWithOneValueStaysOnOneLine() {
    #expect(ValueDump.render(Delivery.loaded(3)) == "Delivery.loaded(3)")
  }

  @Test func optionalRendersNilOrTheWrappedValue() {
    let none = ValueDump.render(Int?.none)
    let some = ValueDump.render(Int?.some(5))
    #expect(none == "nil")
    #expect(some == "5")
    #expect(ValueDump.renderInline(Shelf.Box(item: Chore?.none)) == "Shelf.Box<Chore?>(item: nil)")
  }

  @Test func arrayRendersIndexedElements() {
    let chores = [Chore(title: "Milk", done: false), Chore(title: "Eggs", done: true)]
    #expect(
      ValueDump.render(chores) == """
        [
          [0]: Chore(
            title: "Milk",
            done: false
          ),
          [1]: Chore(
            title: "Eggs",
            done: true
          )
        ]
        """
    )
    #expect(
      ValueDump.renderInline(chores)
        == #"[Chore(title: "Milk", done: false), Chore(title: "Eggs", done: true)]"#)
  }

  @Test func emptyCollectionsRenderAsLiterals() {
    #expect(ValueDump.render([Int]()) == "[]")
    #expect(ValueDump.render([String: Int]()) == "[:]")
    #expect(ValueDump.render(Set<Int>()) == "Set([])")
  }

  @Test func dictionaryIsSortedByKey() {
    let scores = ["zoe": 1, "adam": 2, "mia": 3]
    #expect(
      ValueDump.render(scores) == """
        [
          "adam": 2,
          "mia": 3,
          "zoe": 1
        ]
        """
    )
    #expect(ValueDump.renderInline([10: "ten", 2: "two", 1: "one"]) == #"[1: "one", 2: "two", 10: "ten"]"#)
  }

  @Test func dictionaryOrderDoesNotDependOnInsertionOrder() {
    var forward: [String: Int] = [:]
    var backward: [String: Int] = [:]
    let keys = (0..<200).map { "key\($0)" }
    for (offset, key) in keys.enumerated() { forward[key] = offset }
    for (offset, key) in keys.enumerated().reversed() { backward[key] = offset }
    #expect(ValueDump.render(forward) == ValueDump.render(backward))
  }

  @Test func dictionaryWithKeysOfMixedTypesIsSortedByRenderedKey() {
    let mixed: [AnyHashable: Int] = ["b": 1, 2: 2, "a": 3]
    #expect(ValueDump.renderInline(mixed) == #"["a": 3, "b": 1, 2: 2]"#)
  }

  @Test func setIsSortedByElement() {
    #expect(
      ValueDump.render(Set([3, 10, 1])) == """
        Set([
          1,
          3,
          10
        ])
        """
    )
    #expect(
      ValueDump.renderInline(Set([Chore(title: "b", done: false), Chore(title: "a", done: true)]))
        == #"Set([Chore(title: "a", done: true), Chore(title: "b", done: false)])"#
    )
  }

  @Test func stringsAreQuotedAndEscaped() {
    #expect(ValueDump.render("say \"hi\"\n\tbye\\") == #""say \"hi\"\n\tbye\\""#)
    #expect(ValueDump.render(Character("x")) == #""x""#)
  }

  @Test func tuplesShowLabelsWhenTheyHaveThem() {
    #expect(ValueDump.renderInline((1, "a")) == #"(1, "a")"#)
    #expect(
      ValueDump.render((x: 1, y: 2)) == """
        (
          x: 1,
          y: 2
        )
        """
    )
  }

  @Test func objectMetAgainInACycleRendersAsBackReference() {
    let first = Bead(1)
    let second = Bead(2, next: first)
    first.next = second
    // Broken afterwards, so that LeakSanitizer does not report the cycle as a leak.
    defer { first.next = nil }
    #expect(
      ValueDump.render(first) == """
        Bead(
          value: 1,
          next: Bead(
            value: 2,
            next: Bead(↩︎)
          )
        )
        """
    )
  }

  @Test func objectSharedWithoutCycleRendersInFullEachTime() {
    let shared = Bead(7)
    #expect(
      ValueDump.renderInline([shared, shared]) == "[Bead(value: 7, next: nil), Bead(value: 7, next: nil)]")
  }

  @Test func subclassRendersSuperclassFieldsFirst() {
    #expect(ValueDump.renderInline(Violin()) == #"Violin(maker: "Stradivari", strings: 4)"#)
  }

  @Test func partsDeeperThanMaxDepthAreElided() {
    let box = Shelf.Box(item: Chore(title: "Milk", done: false))
    #expect(ValueDump.renderInline(box, maxDepth: 1) == "Shelf.Box<Chore>(item: Chore(…))")
    #expect(ValueDump.render([[1], []], maxDepth: 1) == "[\n  [0]: […],\n  [1]: []\n]")
    #expect(ValueDump.render(box, maxDepth: 0) == "Shelf.Box<Chore>(…)")
  }

  @Test func foundationValuesRenderAsOneToken() {
    let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(ValueDump.render(Date(timeIntervalSince1970: 0.25)) == "Date(1970-01-01T00:00:00.250Z)")
    #expect(ValueDump.render(uuid) == "UUID(E621E1F8-C36C-495A-93FC-0C247A3E6E5F)")
    #expect(ValueDump.render(URL(string: "https://example.com/a?b=c")!) == "URL(https://example.com/a?b=c)")
    #expect(ValueDump.render(Data([1, 2, 3])) == "Data(3 bytes)")
  }

  @Test func metatypeRendersWithDotSelf() {
    #expect(ValueDump.render(Shelf.Box<Int>.self) == "Shelf.Box<Int>.self")
  }

  @Test func numbersAndBooleansRenderTheirDescription() {
    #expect(ValueDump.renderInline([1.5, -2]) == "[1.5, -2.0]")
    #expect(ValueDump.render(true) == "true")
  }
}

extension ValueDumpTests {
  @Test func localTypesAreNamedAsDeclared() {
    struct Local { var value = 1 }
    enum Kind { case a }
    #expect(ValueDump.renderInline(Local()) == "Local(value: 1)")
    #expect(ValueDump.renderInline(Kind.a) == "Kind.a")
    #expect(ValueDump.renderInline(Shelf.Box<Local>.self) == "Shelf.Box<Local>.self")
  }
}

extension ValueDumpTests {
  @Test func typeNamesUseSugarForOptionalsArraysAndDictionaries() {
    #expect(ValueDump.render(Shelf.Box<[String: [Int?]]>.self) == "Shelf.Box<[String: [Int?]]>.self")
    #expect(ValueDump.render(Shelf.Box<((Int) -> String)?>.self) == "Shelf.Box<((Int) -> String)?>.self")
    #expect(
      ValueDump.render(Shelf.Box<(id: Int, Shelf.Box<Chore>)>.self)
        == "Shelf.Box<(id: Int, Shelf.Box<Chore>)>.self")
  }
}
