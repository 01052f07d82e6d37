import ChronicleStore
import Foundation
import Testing

@testable import ChronicleFormats
@testable import ChronicleTracer

/// A state holding a dictionary whose keys the user chooses, "__proto__" among them.
private struct Tags: Reducer {
  struct State: Equatable, Sendable, Codable { var tags: [String: Int] = [:] }
  enum Action: Equatable, Sendable, Codable { case set(String, Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let key, let value): state.tags[key] = value
    }
    return .none
  }
}

@Suite struct ViewerPrototypeKeyTests {
  /// Issue 24, item 9: the page's script set keys by assignment, and assigning "__proto__" set
  /// the object's prototype instead: the key was lost from every state rebuilt from changes.
  @Test(.enabled(if: chromium != nil, "\(noChromium)"))
  func aDictionaryKeyNamedProtoIsKeptInTheRebuiltStatesAndTheDiff() throws {
    let journal = Journal<Tags.State, Tags.Action>(reducer: Tags())
    let store = Store(initialState: Tags.State(), reducer: Tags(), middleware: [.tracer(journal)])
    store.send(.set("a", 1))
    store.send(.set("__proto__", 2))
    store.send(.set("__proto__", 3))
    let page = try artifact("viewer-proto-key.html", journal.snapshot().htmlViewer())
    let dom = try dump(page, "#select=3")
    #expect(
      dom.contains(
        #"<span class="path">tags.__proto__</span>: <span class="old">2</span> → <span class="new">3</span>"#)
    )
    // The state after #3 has both keys, "__proto__" listed as one of them.
    #expect(dom.contains(#"<span class="key">tags</span> {2}"#))
  }
}
