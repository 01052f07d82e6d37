import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Folders under the temporary directory that the test process removes as it exits: tests that
/// write several files into a folder of their own get one here, and leave nothing behind in
/// `/tmp` however they end (an expectation that fails, an error thrown before a `defer`).
public enum TemporaryFolders {
  private static let created = Mutex<[URL]>([])

  /// Registers ``removeAll()`` to run at the process's exit, once.
  private static let removedAtExit: Void = {
    atexit { TemporaryFolders.removeAll() }
  }()

  /// A new empty folder under the temporary directory, named `prefix` and a UUID, removed with
  /// what it holds when the process exits.
  public static func make(prefix: String) throws -> URL {
    _ = removedAtExit
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    created.withLock { $0.append(url) }
    return url
  }

  /// Removes every folder made so far.
  static func removeAll() {
    let folders = created.withLock { folders in
      defer { folders.removeAll() }
      return folders
    }
    for folder in folders { try? FileManager.default.removeItem(at: folder) }
  }
}
