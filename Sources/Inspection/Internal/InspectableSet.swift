/// Direct access to a `Swift.Set` held as `Any`: the elements that only one of two sets holds.
protocol InspectableSet: SendableMetatype {
  /// The elements only this set holds and those only `other` holds; `nil` when `other` isn't a set
  /// of the same type.
  func elementChanges(comparedTo other: Any) -> (removed: [Any], added: [Any])?
}

extension Set: InspectableSet {
  func elementChanges(comparedTo other: Any) -> (removed: [Any], added: [Any])? {
    guard let other = other as? Set<Element> else { return nil }
    return (removed: subtracting(other).map { $0 }, added: other.subtracting(self).map { $0 })
  }
}
