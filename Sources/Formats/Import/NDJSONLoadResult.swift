import ChronicleTracer

/// What loading an NDJSON journal stream produced.
public struct NDJSONLoadResult<State: Sendable, Action: Sendable>: Sendable {
  /// The journal, with every complete line of the stream.
  public let journal: Journal<State, Action>
  /// The last line, when the stream ends in the middle of it (the writer was killed while
  /// writing it); it was left out.
  public let tornLine: TornLine?
}
