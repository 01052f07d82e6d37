/// A type-erased identifier for cancellable effects, timers and thunks.
///
/// Any `Hashable & Sendable` value can serve as an id: strings, enums, or a private type that makes
/// an id unique to a feature. Two ids are equal when their values are equal and of the same type.
public struct EffectID: Hashable, Sendable, CustomStringConvertible {
  /// The wrapped identifier.
  public let base: any Hashable & Sendable

  /// Wraps `base`, or returns it unchanged if it already is an `EffectID`.
  public init(_ base: some Hashable & Sendable) {
    if let id = base as? EffectID {
      self = id
    } else {
      self.base = base
    }
  }

  public static func == (lhs: EffectID, rhs: EffectID) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    AnyHashable(base).hash(into: &hasher)
  }

  /// The id's value as text, as logs and journals show it.
  public var description: String { String(describing: base) }
}

/// An id that a library attaches beside the ones the user gave, such as the group every timer
/// belongs to so that one call cancels them all. Journals and their exports leave it out: the
/// user never wrote it, and its type name says nothing to them.
package protocol ImplicitEffectID: Hashable, Sendable {}

extension EffectID {
  /// Whether a library attached the id rather than the user (see ``ImplicitEffectID``).
  package var isImplicit: Bool { base is any ImplicitEffectID }
}
