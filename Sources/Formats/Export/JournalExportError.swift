import ChronicleTracer

/// Why an export could not be written.
public enum JournalExportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file could not be created or opened; `errno` says why.
  case cannotOpen(path: String, errno: Int32)
  /// Writing to the file failed; `errno` says why (`ENOSPC` for a full disk, say).
  case writeFailed(path: String, errno: Int32)
  /// The path is a symbolic link, which ``NDJSONFileSink`` does not follow unless asked.
  case symbolicLink(path: String)
  /// The export would be longer than `limit` bytes, more than the tool it is for can read (see
  /// ``ReduxDevToolsForm/maxImportBytes``); nothing was written.
  case tooLarge(format: String, limit: Int)

  /// The problem in words, with the path.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let errno): "cannot open \(path) (errno \(errno))"
    case .writeFailed(let path, let errno): "cannot write to \(path) (errno \(errno))"
    case .symbolicLink(let path): "\(path) is a symbolic link (not followed)"
    case .tooLarge(let format, let limit):
      "the \(format) file would be longer than \(limit) bytes, more than its tool can read; "
        + "export fewer entries, or a form without every state"
    }
  }
}
