import Testing

@testable import ChronicleInspection

// Types no other test prints, so that nothing but `prepare` below can have found their facts.
private struct Shelf {
  var books: [String: Book] = [:]
  var pinned: Set<Tag> = []
  var cover: Cover
}

private struct Book {
  var pages = 0
}

private struct Tag: Hashable {
  var name = ""
}

private enum Cover {
  case soft, hard(Paper)
}

private struct Paper {
  var weight = 0
}

private final class Reader {
  var shelf: Shelf?
  init() {}
}

private enum Binding {
  case glued(Glue)
}

private struct Glue {
  var grams = 0
}

private final class Librarian {
  var desk: Desk?
  init() {}
}

private struct Desk {
  var drawers = 0
}

@Suite struct TypeFactsTests {
  @Test func theKindOfATypeIsReadFromItsMetadata() {
    #expect(TypeKind(of: Book.self) == .struct)
    #expect(TypeKind(of: Cover.self) == .enum)
    #expect(TypeKind(of: Book?.self) == .optional)
    #expect(TypeKind(of: Book.Type.self) == .metatype)
    #expect(TypeKind(of: Any.Type.self) == .existentialMetatype)
    #expect(TypeKind(of: Reader.self) == .other)
    #expect(TypeKind(of: (Int, Int).self) == .other)
  }

  @Test func preparingATypeFindsTheFactsOfTheTypesItsValuesHold() {
    let held: [Any.Type] = [
      Shelf.self, [String: Book].self, String.self, Book.self, Set<Tag>.self, Tag.self, Cover.self,
    ]
    ValueDump.prepare(for: Shelf.self)
    #expect(held.filter { !TypeFacts.areKnown(for: $0) }.map { "\($0)" } == [])
  }

  @Test func preparingATypeLeavesEnumPayloadsAndClassPropertiesToTheirFirstValue() {
    ValueDump.prepare(for: Binding.self)
    ValueDump.prepare(for: Librarian.self)
    #expect(TypeFacts.areKnown(for: Binding.self))
    #expect(TypeFacts.areKnown(for: Librarian.self))
    #expect(!TypeFacts.areKnown(for: Glue.self))
    #expect(!TypeFacts.areKnown(for: Desk?.self))
  }

  @Test func factsFoundFromATypePrintAsFactsFoundFromAValue() {
    ValueDump.prepare(for: Shelf.self)
    let shelf = Shelf(books: ["a": Book(pages: 3)], pinned: [Tag(name: "x")], cover: .soft)
    #expect(
      ValueDump.renderInline(shelf)
        == #"Shelf(books: ["a": Book(pages: 3)], pinned: Set([Tag(name: "x")]), cover: .soft)"#)
    #expect(ValueDump.renderInline(Cover.hard(Paper(weight: 80))) == "Cover.hard(Paper(weight: 80))")
    #expect(ValueDump.renderInline(Book.self) == "Book.self")
  }
}
