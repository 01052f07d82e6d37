import ChronicleJSON
import ChronicleTracer
import Foundation

/// The lines of the live link protocol (`chronicle.live`, docs/formats/live-link.md) that are not
/// journal records: the app's hello, status and results, and the parsing of what an inspector
/// sends. Network-free: `ChronicleLiveLink` carries these lines over a WebSocket.
public enum LiveProtocol {
  /// The protocol's name, as the hello and the welcome carry it.
  public static let name = "chronicle.live"
  /// The protocol version this library speaks.
  public static let version = 1

  /// Who is connecting: made once per app process and store.
  public struct Instance: Sendable, Hashable {
    /// The instance's identifier, which survives reconnects (not restarts of the app).
    public var id: String
    /// A name for people.
    public var name: String
    /// The host's name.
    public var host: String
    /// The process identifier.
    public var pid: Int
    /// Which of the app's stores this is.
    public var store: String

    /// Creates an instance description.
    public init(id: String, name: String, host: String, pid: Int, store: String) {
      self.id = id
      self.name = name
      self.host = host
      self.pid = pid
      self.store = store
    }
  }

  /// The `hello` line: the first line of every connection.
  ///
  /// - Parameters:
  ///   - instance: Who is connecting.
  ///   - meta: The NDJSON header's `meta` object, as JSON text (``JournalLiveStream/metaJSON()``).
  ///   - allows: The commands the app honours.
  ///   - next: The number of the first numbered line the connection carries.
  ///   - compress: The compressions the app can send its messages in, best first (`["deflate"]`);
  ///     the member is left out when empty, as an app that offers none says.
  public static func hello(
    instance: Instance, meta: String, allows: [LiveCommand.Name], next: Int, compress: [String] = []
  ) -> [UInt8] {
    var writer = JSONWriter(capacity: 512 + meta.utf8.count)
    writer.raw(#"{"hello":{"protocol":"#)
    writer.string(name)
    writer.raw(#","version":"#)
    writer.integer(version)
    writer.raw(#","instance":{"id":"#)
    writer.string(instance.id)
    writer.raw(#","name":"#)
    writer.string(instance.name)
    writer.raw(#","host":"#)
    writer.string(instance.host)
    writer.raw(#","pid":"#)
    writer.integer(instance.pid)
    writer.raw(#","store":"#)
    writer.string(instance.store)
    writer.raw(#"},"meta":"#)
    writer.utf8(meta)
    writer.raw(#","allows":["#)
    for (position, command) in allows.enumerated() {
      if position > 0 { writer.raw(",") }
      writer.string(command.rawValue)
    }
    writer.raw(#"],"next":"#)
    writer.integer(next)
    if !compress.isEmpty {
      writer.raw(#","compress":["#)
      for (position, name) in compress.enumerated() {
        if position > 0 { writer.raw(",") }
        writer.string(name)
      }
      writer.raw("]")
    }
    writer.raw("}}\n")
    return writer.bytes
  }

  /// The compression a welcome can choose for the app's messages: `deflate` makes each message
  /// after the welcome a binary message holding its text as raw DEFLATE (RFC 1951), one stream
  /// per connection, each message ending with a sync flush (docs/formats/live-link.md).
  public static let deflate = "deflate"

  /// The `status` line: recording paused or not, the time-travel position (`nil` when live) and
  /// the entries in the journal.
  public static func status(paused: Bool, position: Int?, count: Int) -> [UInt8] {
    var writer = JSONWriter(capacity: 96)
    writer.raw(paused ? #"{"status":{"paused":true,"position":"# : #"{"status":{"paused":false,"position":"#)
    if let position { writer.integer(position) } else { writer.raw("null") }
    writer.raw(#","count":"#)
    writer.integer(count)
    writer.raw("}}\n")
    return writer.bytes
  }

  /// The `result` line of a command.
  public static func result(_ result: LiveCommand.Result) -> [UInt8] {
    var writer = JSONWriter(capacity: 128)
    writer.raw(#"{"result":{"id":"#)
    writer.integer(result.id)
    switch result.outcome {
    case .applied(let position):
      writer.raw(#","ok":true,"position":"#)
      if let position { writer.integer(position) } else { writer.raw("null") }
    case .refused(let kind, let message):
      writer.raw(#","error":{"kind":"#)
      writer.string(kind.rawValue)
      writer.raw(#","message":"#)
      writer.string(message)
      writer.raw("}")
    }
    writer.raw("}}\n")
    return writer.bytes
  }

  /// What an inspector sends an app.
  public enum Inbound: Sendable, Equatable {
    /// The answer to the hello: the inspector holds every numbered line up to `resumeAfter`;
    /// `compression` is the one it chose among those the hello offered (``deflate``), `nil` for
    /// plain text messages.
    case welcome(session: String, resumeAfter: Int, compression: String? = nil)
    /// Every numbered line up to `n` is stored.
    case ack(Int)
    /// A command to apply and answer.
    case command(LiveCommand)
    /// A command with an id whose name or fields are not valid: answered with an `invalid` result.
    case invalidCommand(id: Int, message: String)
  }

  /// The most bytes of a line the parser reads (16 MiB): the protocol's message cap.
  public static let maxLineBytes = 16 << 20

  /// Parses one line an inspector sent (without its `\n`).
  ///
  /// - Throws: ``LiveProtocolError`` naming the field (and the byte offset, for text that is not
  ///   JSON): nothing of a line that throws may be applied.
  public static func parse(_ line: [UInt8]) throws(LiveProtocolError) -> Inbound {
    guard line.count <= maxLineBytes else { throw .tooLarge(bytes: line.count, limit: maxLineBytes) }
    let root: JSONValue
    do throws(JSONParser.Failure) {
      root = try JSONParser.parse(line, limits: JournalImportLimits.default.parser)
    } catch {
      throw .malformed(JournalImportError(error))
    }
    do {
      guard case .object(let members) = root, members.count == 1, let member = members.first else {
        throw JournalImportError.invalidValue(
          entry: nil, field: "", reason: "a line holds one object with one member")
      }
      let body = try FieldReader(member.value, path: FieldPath([.key(member.key)]))
      switch member.key {
      case "welcome":
        let protocolName = try body.string("protocol")
        let version = try body.integer("version", as: Int.self)
        guard protocolName == name, version == LiveProtocol.version else {
          throw LiveProtocolError.unsupportedProtocol(name: protocolName, version: version)
        }
        let compression = try body.optionalString("compress")
        guard compression == nil || compression == deflate else {
          throw JournalImportError.invalidValue(
            entry: nil, field: "welcome.compress", reason: "a compression the hello did not offer")
        }
        return .welcome(
          session: try body.string("session"), resumeAfter: try body.integer("resumeAfter"),
          compression: compression)
      case "ack":
        return .ack(try body.integer("n"))
      case "command":
        let id = try body.integer("id", as: Int.self)
        do throws(JournalImportError) {
          return .command(try LiveCommand(id: id, body))
        } catch {
          return .invalidCommand(id: id, message: error.description)
        }
      default:
        throw LiveProtocolError.unknownMessage(member.key)
      }
    } catch let error as JournalImportError {
      throw .malformed(error)
    } catch let error as LiveProtocolError {
      throw error
    } catch {
      throw .malformed(.invalidValue(entry: nil, field: "", reason: "\(error)"))
    }
  }
}

/// Why a line of the live link was refused. Nothing of a refused line is applied.
public enum LiveProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The line is not JSON, or a field is missing or of the wrong type: the error names the field
  /// and, for text that is not JSON, the byte offset.
  case malformed(JournalImportError)
  /// The line's one member is not a message this side knows.
  case unknownMessage(String)
  /// The welcome names another protocol or version.
  case unsupportedProtocol(name: String, version: Int)
  /// The line is longer than the cap.
  case tooLarge(bytes: Int, limit: Int)

  /// A sentence that says what is wrong, and where.
  public var description: String {
    switch self {
    case .malformed(let error): "malformed line: \(error)"
    case .unknownMessage(let key): "unknown message \"\(key)\""
    case .unsupportedProtocol(let name, let version): "unsupported protocol \(name) version \(version)"
    case .tooLarge(let bytes, let limit): "line of \(bytes) bytes is over the limit of \(limit)"
    }
  }
}
