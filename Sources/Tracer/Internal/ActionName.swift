/// The short name of an action, as trace spans, Redux DevTools' `type` and filters use it.
enum ActionName {
  /// The enum case name (`add` for `.add(5)`, `increment` for `.increment`); the type name for
  /// other values.
  static func of(_ action: Any) -> String {
    let mirror = Mirror(reflecting: action)
    if mirror.displayStyle == .enum {
      if let label = mirror.children.first?.label { return label }
      let text = String(describing: action)
      return String(text.prefix { $0 != "(" })
    }
    return String(describing: type(of: action))
  }
}

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
