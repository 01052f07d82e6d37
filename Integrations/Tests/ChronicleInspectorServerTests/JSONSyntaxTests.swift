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
