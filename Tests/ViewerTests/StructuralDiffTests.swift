import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

private func item(_ id: Int, _ title: String, done: Bool = false) -> JSONValue {
  .object([
    JSONMember("id", .integer(id)), JSONMember("title", .string(title)), JSONMember("done", .bool(done)),
  ])
}

private func state(_ items: [JSONValue]) -> JSONValue {
  .object([JSONMember("items", .array(items))])
}

private func numbers(_ values: [Int]) -> JSONValue { .array(values.map { .integer($0) }) }

/// The patches as the viewer's script reads them.
private func wire(_ patches: [StatePatch]) -> String {
  JSONText.compact(.array(patches.map(\.json)))
}

/// Applies the patches in order, as the viewer does.
private func apply(_ patches: [StatePatch], to state: JSONValue) throws -> JSONValue {
  var current = state
  for patch in patches { current = try #require(patch.applied(to: current)) }
  return current
}

/// The structural diff behind the viewer's patches and `chronicle show`/`diff`/`compare`.
@Suite struct StructuralDiffTests {
  @Test func removingTheFirstIdentifiedElementIsOnePatch() throws {
    let old = state((0..<200).map { item($0, "item \($0)") })
    let new = state((1..<200).map { item($0, "item \($0)") })
    let patches = StatePatch.between(old, new)
    #expect(wire(patches) == #"[[["items",0]]]"#)
    #expect(try apply(patches, to: old) == new)
  }

  @Test func insertingAtTheFrontIsOneInsertion() throws {
    let old = state((1..<200).map { item($0, "item \($0)") })
    let new = state([item(0, "new")] + (1..<200).map { item($0, "item \($0)") })
    let patches = StatePatch.between(old, new)
    #expect(wire(patches) == #"[[["items",0],{"id":0,"title":"new","done":false},1]]"#)
    #expect(
      StatePatch.descriptions(of: patches, from: old) == [
        #"items[0]: (none) → {"id":0,"title":"new","done":false}"#
      ])
    #expect(try apply(patches, to: old) == new)
  }

  @Test func anIdentifiedElementThatChangedIsPatchedInside() throws {
    let old = state([item(1, "a"), item(2, "b"), item(3, "c")])
    let new = state([item(1, "a"), item(2, "b", done: true), item(3, "c")])
    let patches = StatePatch.between(old, new)
    #expect(wire(patches) == #"[[["items",1,"done"],true]]"#)
  }

  /// Matched by `id`, an element that moved is removed and inserted, and an element that changed
  /// after a removal is named by the index it has when its patch applies.
  @Test func pathsNameTheStateThePatchesBeforeLeft() throws {
    let old = state([item(1, "a"), item(2, "b"), item(3, "c"), item(4, "d")])
    let new = state([item(2, "b"), item(4, "d", done: true), item(3, "c")])
    let patches = StatePatch.between(old, new)
    #expect(try apply(patches, to: old) == new)
    #expect(patches.first == StatePatch(path: [.key("items"), .index(0)], value: nil))
    #expect(
      StatePatch.descriptions(of: patches, from: old).first
        == #"items[0]: {"id":1,"title":"a","done":false} → (none)"#)
    #expect(patches.count == 4)
  }

  @Test func valuesWithoutIdentityAlignAlongTheLongestCommonSubsequence() throws {
    let old = numbers([1, 2, 3, 4, 5, 6])
    let new = numbers([0, 1, 2, 4, 5, 7, 6])
    let patches = StatePatch.between(old, new)
    #expect(wire(patches) == "[[[0],0,1],[[3]],[[5],7,1]]")
    #expect(try apply(patches, to: old) == new)
  }

  @Test func aValueReplacedInPlaceIsComparedInside() throws {
    let row = { (name: String) in
      JSONValue.object([JSONMember("name", .string(name)), JSONMember("n", .integer(1))])
    }
    let old = JSONValue.array([row("a"), row("b"), row("c")])
    let new = JSONValue.array([
      row("a"), .object([JSONMember("name", .string("B")), JSONMember("n", .integer(1))]), row("c"),
    ])
    #expect(wire(StatePatch.between(old, new)) == #"[[[1,"name"],"B"]]"#)
  }

  @Test func elementsAddedAndRemovedAtTheEnd() throws {
    #expect(wire(StatePatch.between(numbers([1, 2]), numbers([1, 2, 3, 4]))) == "[[[2],3,1],[[3],4,1]]")
    #expect(wire(StatePatch.between(numbers([1, 2, 3, 4]), numbers([1, 2]))) == "[[[2]],[[2]]]")
  }

  @Test func repeatedIdsFallBackToValues() throws {
    let old = JSONValue.array([item(1, "a"), item(1, "b")])
    let new = JSONValue.array([item(1, "b")])
    let patches = StatePatch.between(old, new)
    #expect(wire(patches) == "[[[0]]]")
    #expect(try apply(patches, to: old) == new)
  }

  /// Past the size where a longest common subsequence is computed, elements are compared by
  /// position: the result is still exact.
  @Test func aLargeRewriteIsComparedByPosition() throws {
    let old = numbers(Array(0..<1_000))
    let new = numbers(Array(0..<1_000).map { $0 * 7 % 1_000 } + [5_000])
    let patches = StatePatch.between(old, new)
    #expect(try apply(patches, to: old) == new)
    #expect(patches.filter(\.inserts).count == 1)
  }

  /// Random edits: applying the patches always gives the new state.
  @Test func patchesAlwaysRebuildTheNewState() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let count = Int.random(in: 0..<12, using: &generator)
      var ids = Array(0..<count)
      let old = state(ids.map { item($0, "t\($0)") })
      for _ in 0..<Int.random(in: 0..<4, using: &generator) {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where !ids.isEmpty: ids.remove(at: Int.random(in: 0..<ids.count, using: &generator))
        case 1: ids.insert(100 + ids.count, at: Int.random(in: 0...ids.count, using: &generator))
        default: ids.shuffle(using: &generator)
        }
      }
      let new = state(ids.map { item($0, $0 % 3 == 0 ? "changed" : "t\($0)") })
      #expect(try apply(StatePatch.between(old, new), to: old) == new)
      let plainOld = numbers(Array(0..<count))
      let plainNew = numbers(ids)
      #expect(try apply(StatePatch.between(plainOld, plainNew), to: plainOld) == plainNew)
    }
  }
}
