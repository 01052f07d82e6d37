import Foundation

/// Why a persisted state could not be restored or saved.
public struct PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Error, Sendable, Equatable {
    /// The file is not valid JSON of the persisted-state format; the payload says where.
    case corrupt(String)
    /// The file holds another format version or another state type.
    case incompatible(expected: String, found: String)
    /// The file is larger than the persistence's `maxFileBytes`; it was not read.
    case tooLarge(bytes: Int, limit: Int)
    /// The path is not a regular file (a FIFO, a directory, a device, a socket); the payload
    /// names what it is. It was not read.
    case notARegularFile(String)
    /// The path is a symbolic link that resolves, directly or through others, to itself.
    case symbolicLinkLoop
    /// Reading, writing or renaming failed.
    case io(String)
  }

  /// What went wrong.
  public var reason: Reason
  /// The file concerned.
  public var file: URL
  /// Where the bad file was moved so that it is not overwritten, if it was.
  public var keptAt: URL?

  /// The reason and the file, in one line, for logs.
  public var description: String {
    var text: String
    switch reason {
    case .corrupt(let detail): text = "corrupt state file \(file.path): \(detail)"
    case .incompatible(let expected, let found):
      text = "incompatible state file \(file.path): expected \(expected), found \(found)"
    case .tooLarge(let bytes, let limit):
      text = "state file \(file.path) is too large: \(bytes) bytes, limit \(limit)"
    case .notARegularFile(let kind): text = "state file \(file.path) is not a regular file but a \(kind)"
    case .symbolicLinkLoop: text = "state file \(file.path) is a symbolic link loop"
    case .io(let detail): text = "cannot access state file \(file.path): \(detail)"
    }
    if let keptAt { text += " (kept at \(keptAt.path))" }
    return text
  }
}
