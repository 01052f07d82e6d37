import ChronicleJSON
import ChronicleStore
import ChronicleTracer

/// Names actions during one export, cheaply: reflecting on every action costs about a
/// microsecond, while an enum's synthesized encoding, `{"add": {…}}`, already holds the name.
@usableFromInline
final class ActionNamer {
  /// Whether the actions are enums, learned from the first one.
  private var actionsAreEnums: Bool?

  func name(of action: Any, encoded: JSONValue?) -> String {
    if case .object(let members)? = encoded, members.count == 1 {
      return name(of: action, singleKey: members[0].key)
    }
    return name(of: action, singleKey: nil)
  }

  /// The name of `action`, whose encoding is an object with the one member `singleKey`, if any.
  // Generic, so that an action named by its key is not boxed as `Any` first.
  @usableFromInline
  func name<Action>(of action: Action, singleKey: String?) -> String {
    if actionsAreEnums == nil { actionsAreEnums = Mirror(reflecting: action).displayStyle == .enum }
    if actionsAreEnums == true, let singleKey { return singleKey }
    return ActionName.of(action)
  }
}
