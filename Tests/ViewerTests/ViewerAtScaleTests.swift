import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

/// A list of 200 identified items; each action changes, appends or removes one.
private struct Items: Reducer {
  struct Item: Equatable, Sendable, Codable, Identifiable {
    var id: Int
    var title: String
    var done = false
  }

  struct State: Equatable, Sendable, Codable {
    var items: [Item]
    var nextID: Int

    init(count: Int) {
      items = (0..<count).map { Item(id: $0, title: "item \($0)") }
      nextID = count
    }
  }

  enum Action: Equatable, Sendable, Codable {
    case toggle(Int)
    case append
    case removeFirst
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggle(let offset): state.items[offset % state.items.count].done.toggle()
    case .append:
      state.items.append(Item(id: state.nextID, title: "item \(state.nextID)"))
      state.nextID += 1
    case .removeFirst: state.items.removeFirst()
    }
    return .none
  }
}

private func recordedItems(
  _ count: Int, listOf length: Int = 200
) -> JournalSnapshot<Items.State, Items.Action> {
  let journal = Journal<Items.State, Items.Action>(
    reducer: Items(), configuration: .init(maxEntries: nil, maxBytes: nil))
  let store = Store(
    initialState: Items.State(count: length), reducer: Items(), middleware: [.tracer(journal)])
  for step in 0..<count {
    switch step % 3 {
    case 0: store.send(.toggle(step))
    case 1: store.send(.append)
    default: store.send(.removeFirst)
    }
  }
  return journal.snapshot()
}

/// The page's embedded data, parsed.
private func embeddedData(_ page: Data) throws -> JSONValue {
  let html = String(decoding: page, as: UTF8.self)
  let start = try #require(html.range(of: #"<script type="application/json" id="journal-data">"#))
  let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
  return try JSONParser.parse(
    Array(html[start.upperBound..<end.lowerBound].utf8), limits: JournalImportLimits.ownExport.parser)
}

@Suite struct ViewerAtScaleTests {
  /// The page streamed from a recorded journal is the page of the same journal read from its
  /// Journal JSON with every state.
  @Test func theStreamedPageIsTheDocumentsPage() throws {
    let snapshot = recordedItems(600)
    let document = try JournalFile(
      data: snapshot.journalJSON(options: ExportOptions(states: .everyEntry)))
    #expect(
      String(decoding: snapshot.htmlViewer(title: "items"), as: UTF8.self)
        == JournalViewer.html(for: document, title: "items"))
  }

  /// Each entry's change is one small patch: removing the first of 200 items is one removal, not
  /// a rewrite of every item after it.
  @Test func everyEntryIsOnePatch() throws {
    let data = try embeddedData(recordedItems(300).htmlViewer())
    let patches = try #require(data["patches"]?.arrayValue)
    #expect(patches.count == 300)
    #expect(JSONText.compact(patches[0]) == #"[[["items",0,"done"],true]]"#)
    #expect(
      JSONText.compact(patches[1])
        == #"[[["items",200],{"id":200,"title":"item 200","done":false},1],[["nextID"],201]]"#)
    #expect(JSONText.compact(patches[2]) == #"[[["items",0]]]"#)
    // A toggle and a removal are one patch; an append is the insertion and the next id.
    #expect(patches.map { $0.arrayValue?.count ?? 0 } == (0..<300).map { $0 % 3 == 1 ? 2 : 1 })
    #expect(data["full"]?.arrayValue?.count == 2)  // after entries 0 and 256
  }

  @Test(.enabled(if: chromium != nil, "\(noChromium)"))
  func twentyThousandEntriesOpenInChromium() throws {
    // A list of 20 (the benchmarks measure 200: a debug build here writes it 10 times slower).
    let page = try artifact("viewer-20k.html", recordedItems(20_000, listOf: 20).htmlViewer(title: "20k"))
    // #20000 appended item 6686 (after 6,666 appends); the page rebuilds the state from the
    // nearest full one (entry 19,968) and the 31 entries' patches after it.
    let dom = try dump(page, "#select=20000")
    #expect(dom.contains(#"data-selected="20000""#))
    #expect(dom.contains("20000 entries, 20000 shown"))
    #expect(
      dom.contains(
        #"<span class="path">items[20]</span>: <span class="old"><span class="note">(none)</span></span> → "#
          + #"<span class="new">{"id":6686,"title":"item 6686","done":false}</span>"#))
  }
}
