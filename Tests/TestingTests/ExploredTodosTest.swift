// swift-format-ignore-file
import ChronicleClocks
import ChronicleTesting
import Foundation
import Testing

/// Found by exploration (seed 2465029493094181333, run 10): broke "the selected row is the selected todo".
/// Shrunk to 5 step(s).
@Test func exploredTodosFailure() async throws {
  let store = TestStore(
    initialState: try decode(#"{"nextID":0,"todos":[]}"#),
    reducer: ExampleTodos())
  await store.send(.add("a")) {
    $0 = try decode(#"{"nextID":1,"todos":[{"done":false,"id":0,"title":"a"}]}"#)
  }
  await store.send(.toggle(0)) {
    $0.todos[0].done = true
  }
  await store.send(.add("a")) {
    $0 = try decode(#"{"nextID":2,"todos":[{"done":true,"id":0,"title":"a"},{"done":false,"id":1,"title":"a"}]}"#)
  }
  await store.send(.select(1)) {
    $0.selected = 1
    $0.selectedID = 1
  }
  // Step 5 breaks "the selected row is the selected todo".
  // From here the test checks that invariant, not the state the run recorded.
  store.exhaustivity = .off
  await store.send(.clearCompleted)
  #expect(ExampleTodos.State.selectionAgrees(store.state))
}

/// Decodes a recorded state from its JSON.
private func decode(_ json: String) throws -> ExampleTodos.State {
  try JSONDecoder().decode(ExampleTodos.State.self, from: Data(json.utf8))
}
