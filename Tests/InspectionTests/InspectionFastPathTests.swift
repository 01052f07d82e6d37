import ChronicleInspection
import ChronicleTestSupport
import Dispatch
import Testing

// Fixtures are private to this file so that their names never clash with other tests.
private enum Light: Equatable {
  case red, amber, green
  case blinking(Int)
}

private struct Crossing: Equatable {
  var light = Light.red
  var waiting = 0
}

private final class Lamp {
  var lit = true
}

/// Properties that can't be read straight from a struct's memory: such a struct goes through its
/// mirror.
private struct Wiring {
  weak var lamp: Lamp?
  unowned var owner: Lamp
  var onChange: (Int) -> Int = { $0 }
  var anything: Any = 1
  var count = 2
}

/// The printer and the differ remember what they learn about each type, and read plain structs
/// and enum cases without a mirror; the texts they give must be those of reading them through it.
@Suite struct InspectionFastPathTests {
  @Test func caseWithoutPayloadReadsTheSameEveryTimeItIsRendered() {
    // The first pass learns the cases, the second one reads them from what it learned.
    for _ in 0..<2 {
      #expect(ValueDump.renderInline(Light.amber) == "Light.amber")
      #expect(ValueDump.renderInline([Light.amber, .green]) == "[.amber, .green]")
      #expect(ValueDump.renderInline(Light.blinking(2)) == "Light.blinking(2)")
      #expect(StateDiff.render(from: Crossing(), to: Crossing(light: .green)) == "light: .red → .green")
    }
  }

  @Test func valueHeldInAnyRendersAndDiffsAsItself() {
    let crossing: Any = Crossing(light: .green, waiting: 3)
    let changed: Any = Crossing(light: .amber, waiting: 3)
    #expect(ValueDump.renderInline(crossing) == "Crossing(light: .green, waiting: 3)")
    #expect(StateDiff.render(from: crossing, to: changed) == "light: .green → .amber")
  }

  @Test func structWithWeakUnownedFunctionAndAnyPropertiesIsRenderedAndDiffed() {
    let lamp = Lamp()
    let old = Wiring(lamp: lamp, owner: lamp)
    let new = Wiring(lamp: nil, owner: lamp, anything: "1", count: 3)
    #expect(
      ValueDump.renderInline(old)
        == "Wiring(lamp: Lamp(lit: true), owner: Lamp(lit: true), onChange: (Function), anything: 1, count: 2)"
    )
    #expect(
      StateDiff.render(from: old, to: new) == """
        lamp: Lamp(lit: true) → nil
        anything: 1 → "1"
        count: 2 → 3
        """
    )
  }

  @Test func typeMetFirstOnSeveralThreadsAtOnceReadsTheSameOnAll() {
    // Declared here so that no other test has met it before.
    struct Junction: Equatable {
      var light = Light.green
      var count = 7
    }
    let texts = Recorder<String>()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      texts.append(
        ValueDump.renderInline(Junction()) + " | "
          + StateDiff.render(from: Junction(), to: Junction(light: .red, count: 8)))
    }
    #expect(texts.values.count == 8)
    #expect(Set(texts.values) == ["Junction(light: .green, count: 7) | light: .green → .red\ncount: 7 → 8"])
  }
}
