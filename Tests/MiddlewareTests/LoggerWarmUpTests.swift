import ChronicleMiddleware
import Testing

@testable import ChronicleInspection

// Types no other test prints, so that nothing but the logger below can have found their facts.
private struct WarmUpState: Sendable {
  var items: [WarmUpItem] = []
  var selection: WarmUpSelection?
}

private struct WarmUpItem: Sendable {
  var title = ""
}

private struct WarmUpSelection: Sendable {
  var index = 0
}

private enum WarmUpAction: Sendable {
  case select(Int)
}

private struct TransformedState: Sendable {
  var count = 0
}

@Suite struct LoggerWarmUpTests {
  @Test func aLoggerFindsTheFactsOfItsStateAndActionTypesWhenCreated() {
    let types: [Any.Type] = [
      WarmUpState.self, [WarmUpItem].self, WarmUpItem.self, WarmUpSelection?.self, WarmUpSelection.self,
      WarmUpAction.self,
    ]
    #expect(types.map(TypeFacts.areKnown(for:)) == Array(repeating: false, count: 6))
    _ = LoggerMiddleware<WarmUpState, WarmUpAction>(sink: .records { _ in })
    #expect(types.map(TypeFacts.areKnown(for:)) == Array(repeating: true, count: 6))
  }

  @Test func aLoggerWithAStateTransformerLeavesItsStateTypeToTheFirstValue() {
    let options = LoggerOptions<TransformedState, Int>(stateTransformer: { $0.count })
    _ = LoggerMiddleware(options: options, sink: .records { _ in })
    #expect(!TypeFacts.areKnown(for: TransformedState.self))
  }
}
