import Testing
import XCTest

/// Where a test wrote a call: reported failures point at the test's line, not the library's.
struct CallSite: Sendable {
  let fileID: String
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

/// Reports a test failure to whichever framework runs the test: Swift Testing when a test is
/// running there, XCTest otherwise.
enum IssueReporter {
  static func fail(_ message: String, at site: CallSite) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: site.fileID, filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column)))
    } else {
      XCTFail(message, file: site.filePath, line: site.line)
    }
  }
}
