import ChronicleInspection
import Testing

@Suite struct ValuePathTests {
  @Test func rootIsWrittenSelf() {
    #expect(ValuePath.root.description == "self")
  }

  @Test func componentsAreWrittenInSwiftNotation() {
    let path: ValuePath = [.property("todos"), .index(2), .property("done")]
    #expect(path.description == "todos[2].done")
    #expect(ValuePath([.property("settings"), .stringKey("theme")]).description == #"settings["theme"]"#)
    #expect(ValuePath([.property("scores"), .key("42")]).description == "scores[42]")
    #expect(
      ValuePath([.property("status"), .case("loaded"), .property("count")]).description
        == "status.loaded.count")
  }

  @Test func pathThatStartsWithAnIndexOrCaseKeepsItsNotation() {
    #expect(ValuePath([.index(0), .property("title")]).description == "[0].title")
    #expect(ValuePath([.case("loaded")]).description == ".loaded")
  }

  @Test func appendingAddsOneComponent() {
    #expect(
      ValuePath.root.appending(.property("user")).appending(.property("name")) == [
        .property("user"), .property("name"),
      ])
  }
}
