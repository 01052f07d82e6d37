/// Where in the source an action was sent, or an effect, thunk or timer created: the file's
/// `#fileID` (`Module/File.swift`), the `#line` and the `#function`.
///
/// `send` and the functions that create effects take the three as default arguments, so a call
/// site is resolved at compile time and costs nothing to capture: a `CallSite` holds two pointers
/// to the literals compiled into the binary and a line number, no `String` and no allocation.
///
/// ```swift
/// store.send(.increment)                       // captured: Counter/CounterView.swift:42 in body
/// context.metadata.site?.description           // "CounterView.swift:42 in body"
/// ```
///
/// A call site is code location only: it never holds a value of the program.
public struct CallSite: @unchecked Sendable, Hashable, CustomStringConvertible {
  // `@unchecked Sendable`: the pointers are to string literals in the binary, immutable and never
  // freed.
  // The literals' UTF-8 bytes, NUL-terminated as Swift emits every string literal: two words
  // instead of two 17-byte `StaticString`s, so an `Effect.send` and a queued action stay small.
  @usableFromInline package let fileStart: UnsafePointer<UInt8>
  @usableFromInline package let functionStart: UnsafePointer<UInt8>
  /// The line, as `#line` gave it.
  public let line: UInt32

  /// Creates a call site from the literals `#fileID`, `#line` and `#function` give.
  ///
  /// - Parameters:
  ///   - fileID: The file, as `#fileID` gives it: `Module/File.swift`.
  ///   - line: The line.
  ///   - function: The function, as `#function` gives it: `body` or `send(_:)`.
  @inlinable
  public init(fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function) {
    self.fileStart = CallSite.start(of: fileID)
    self.functionStart = CallSite.start(of: function)
    self.line = UInt32(truncatingIfNeeded: line)
  }

  /// The start of a literal's bytes; a one-scalar literal (never what `#fileID` or `#function`
  /// give) reads as `?`.
  @inlinable
  static func start(of literal: StaticString) -> UnsafePointer<UInt8> {
    literal.hasPointerRepresentation ? literal.utf8Start : CallSite.unknown.utf8Start
  }

  @usableFromInline static let unknown: StaticString = "?"

  /// The file, as `#fileID` gave it: `Module/File.swift`.
  public var fileID: String { String(cString: fileStart) }

  /// The file's name without its module: `File.swift`.
  public var fileName: String {
    let file = fileID
    guard let slash = file.lastIndex(of: "/") else { return file }
    return String(file[file.index(after: slash)...])
  }

  /// The function, as `#function` gave it.
  public var function: String { String(cString: functionStart) }

  /// `File.swift:42 in body`.
  public var description: String { "\(fileName):\(line) in \(function)" }

  /// Whether two call sites name the same file, line and function: the same literals, or equal
  /// text (one source file's literals may be emitted once per module that inlines it).
  public static func == (lhs: CallSite, rhs: CallSite) -> Bool {
    guard lhs.line == rhs.line else { return false }
    if lhs.fileStart == rhs.fileStart && lhs.functionStart == rhs.functionStart { return true }
    return compare(lhs.fileStart, rhs.fileStart) && compare(lhs.functionStart, rhs.functionStart)
  }

  /// Hashes the file, line and function text.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(line)
    hasher.combine(fileID)
    hasher.combine(function)
  }

  /// Whether two NUL-terminated byte strings are equal.
  private static func compare(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>) -> Bool {
    var offset = 0
    while true {
      let left = lhs[offset]
      if left != rhs[offset] { return false }
      if left == 0 { return true }
      offset += 1
    }
  }
}

/// A call site as a journal keeps it and a file carries it: text, so that a site read from a file
/// written by another process is one too.
public struct RecordedCallSite: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The file, as `#fileID` gave it: `Module/File.swift`.
  public var fileID: String
  /// The line.
  public var line: Int
  /// The function, as `#function` gave it.
  public var function: String

  /// Creates a recorded call site.
  public init(fileID: String, line: Int, function: String) {
    self.fileID = fileID
    self.line = line
    self.function = function
  }

  /// The text of `site`.
  public init(_ site: CallSite) {
    self.init(fileID: site.fileID, line: Int(site.line), function: site.function)
  }

  /// The file's name without its module: `File.swift`.
  public var fileName: String {
    guard let slash = fileID.lastIndex(of: "/") else { return fileID }
    return String(fileID[fileID.index(after: slash)...])
  }

  /// `File.swift:42 in body`.
  public var description: String { "\(fileName):\(line) in \(function)" }
}
