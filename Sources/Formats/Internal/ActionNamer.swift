import ChronicleStore
import ChronicleTracer

/// Names actions during one export, cheaply: reflecting on every action costs about a
/// microsecond, while an enum's synthesized encoding, `{"add": {…}}`, already holds the name.
final class ActionNamer {
  /// Whether the actions are enums, learned from the first one.
  private var actionsAreEnums: Bool?

  func name(of action: Any, encoded: JSONValue?) -> String {
    if actionsAreEnums == nil { actionsAreEnums = Mirror(reflecting: action).displayStyle == .enum }
    if actionsAreEnums == true, case .object(let members)? = encoded, members.count == 1 {
      return members[0].key
    }
    return ActionName.of(action)
  }
}
