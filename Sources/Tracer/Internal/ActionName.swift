/// The short name of an action, as trace spans, Redux DevTools' `type` and filters use it.
package enum ActionName {
  /// The enum case name (`add` for `.add(5)`, `increment` for `.increment`); the type name for
  /// other values.
  package static func of(_ action: Any) -> String {
    let mirror = Mirror(reflecting: action)
    if mirror.displayStyle == .enum {
      if let label = mirror.children.first?.label { return label }
      let text = String(describing: action)
      return String(text.prefix { $0 != "(" })
    }
    return String(describing: type(of: action))
  }
}
