import Foundation
import Testing

@testable import ChronicleInspectorServer

@Suite("Inspector server: checking stored lines")
struct JSONSyntaxTests {
  @Test(arguments: [
    #"{"entry":{}}"#, #"{"entry":{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}}"#,
    #" { "gap" : { "dropped" : 0 } } "#,
    #"{"state":{"index":0,"patch":[[["count"],1]]}}"#,
  ])
  func aLineOfOneMemberWhoseValueIsAnObjectIsAccepted(_ line: String) {
    #expect(JSONSyntax.singleObjectMember(Substring(line)) != nil)
  }

  @Test(arguments: [
    #"{"entry":{}"#, #"{"entry":{},"x":1}"#, #"{"entry":1}"#, #"{"entry":{"a":01}}"#,
    #"{"entry":{"a":"\x"}}"#,
    #"{"entry":{"a":[1,]}}"#, #"{"entry":{"a":tru}}"#, #"{"entry":{}} x"#, "{\"entry\":{\"a\":\"\u{1}\"}}",
    #"{"entry":{"a":1.}}"#, #"{"entry":{"a":-}}"#, #"{"entry":{"a":"\u12G4"}}"#,
    String(repeating: "[", count: 600),
  ])
  func anythingElseIsRefused(_ line: String) {
    #expect(JSONSyntax.singleObjectMember(Substring(line)) == nil)
  }

  @Test func theNameIsTheMembersName() {
    #expect(JSONSyntax.singleObjectMember(#"{"effect":{"phase":"started"}}"#) == "effect")
  }

  @Test func nestingPastTheLimitIsRefused() {
    func nested(_ depth: Int) -> Substring {
      Substring(
        #"{"entry":{"a":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
          + "}}")
    }
    #expect(JSONSyntax.singleObjectMember(nested(500)) == "entry")
    #expect(JSONSyntax.singleObjectMember(nested(600)) == nil)
  }
}

@Suite("Inspector server: wrapping lines for pages")
struct JSONTextTests {
  @Test(arguments: [
    "plain", "quote \" and backslash \\", "new\nline\r\ttab", "\u{0}\u{1}\u{1F}", "line\u{2028}para\u{2029}",
    "é, 漢字, 🎉, \u{E000}", "",
  ])
  func aStringReadsBackAsItself(_ text: String) throws {
    let literal = JSONText.string(text)
    let read = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: [.fragmentsAllowed])
    #expect(read as? String == text)
    #expect(!literal.contains("\u{2028}") && !literal.contains("\u{2029}"))
  }
}
