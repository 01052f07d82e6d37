import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleJSON
@testable import ChronicleTracer

/// A tree as deep as its actions make it: `.deepen(n)` replaces the state with a chain of `n`
/// nested nodes.
private struct Tree: Reducer {
  struct Node: Equatable, Sendable, Codable {
    var name: String
    var children: [Node]
  }

  struct State: Equatable, Sendable, Codable { var root = Node(name: "root", children: []) }
  enum Action: Equatable, Sendable, Codable { case deepen(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case .deepen(let depth) = action else { return .none }
    var node = Node(name: "bottom", children: [])
    for _ in 0..<depth { node = Node(name: "level", children: [node]) }
    state.root = node
    return .none
  }
}

/// The viewer page's embedded data, as the page's script reads it.
private func embeddedData(_ page: Data) throws -> String {
  let html = String(decoding: page, as: UTF8.self)
  let start = try #require(html.range(of: #"<script type="application/json" id="journal-data">"#))
  let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
  return String(html[start.upperBound..<end.lowerBound])
}

private func treeViewer(depth: Int) throws -> Data {
  let journal = Journal<Tree.State, Tree.Action>(reducer: Tree())
  let store = Store(initialState: Tree.State(), reducer: Tree(), middleware: [.tracer(journal)])
  store.send(.deepen(depth))
  return journal.snapshot().htmlViewer()
}

@Suite struct ViewerHostileInputTests {
  @Test func aStateTwoHundredLevelsDeepIsShownWhole() throws {
    let data = try embeddedData(treeViewer(depth: 200))
    #expect(data.contains(#""bottom""#))
    #expect(!data.contains("cut: nested too deep"))
  }

  @Test func aStateDeeperThanTheParserReadsIsCutWithAMarker() throws {
    let data = try embeddedData(treeViewer(depth: 600))
    // The page escapes `<` in its data.
    #expect(data.contains(JSONParser.cutMarker.replacingOccurrences(of: "<", with: #"\u003c"#)))
    #expect(!data.contains(#""bottom""#))
  }

  @Test func aTitleHoldingThePlaceholderOfTheDataStaysATitle() {
    let page = ViewerPage.html(title: "bug __DATA__ __TITLE__", data: #"{"entries":[]}"#)
    #expect(page.contains("<title>bug __DATA__ __TITLE__</title>"))
    #expect(page.components(separatedBy: #"{"entries":[]}"#).count == 2)
  }

  @Test func dataHoldingTheTitlesPlaceholderIsNotReplaced() {
    let page = ViewerPage.html(title: "mine", data: #"["__TITLE__"]"#)
    #expect(page.contains(#"id="journal-data">["__TITLE__"]</script>"#))
  }
}
