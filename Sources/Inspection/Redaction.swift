/// The policy that decides which values ``ValueDump`` and ``StateDiff`` replace with `<redacted>`.
///
/// Values marked as sensitive, a ``Redacted`` value or any ``SensitiveValue``, are redacted under
/// every policy; a policy can only add rules, never remove that one. The rules are:
///
/// - **Keys**: redact the value of every property, enum case or `String` dictionary key whose name
///   matches one of the given names exactly, ignoring case.
///   `Redaction(keys: ["password", "token"])` redacts `login.password`, `headers["Token"]`, the
///   payload of `case token(String)` and the labelled payload elements of `case single(token:
///   String)` and `case pair(name: String, token: String)`, but not `passwordHint`. A name that
///   matches a case hides its whole payload, labelled or not.
/// - **Rules**: a closure receives the path and the value of every part visited and returns `true`
///   to redact it. It is called from whatever thread renders or diffs, hence `@Sendable`. The
///   elements of a set have no path of their own: a rule sees each one at the path of its set.
///
/// A redacted value is replaced whole, even when it is `nil` or a container: nothing below it is
/// visited, and the closures never see a value marked as sensitive. Policies compose:
///
/// ```swift
/// let policy = Redaction.default
///   .redacting(keys: ["password", "token"])
///   .redacting { path, _ in path.description.hasPrefix("session.") }
/// ```
public struct Redaction: Sendable {
  /// Decides whether to redact one value: given its path and the value, returns `true` to redact.
  public typealias Rule = @Sendable (_ path: ValuePath, _ value: Any) -> Bool

  /// The text shown in place of a redacted value, and encoded in place of a ``Redacted`` one.
  public static let placeholder = "<redacted>"

  /// No rules: only values marked as sensitive are redacted, which no policy can turn off.
  public static let none = Redaction()

  /// The policy used when none is given: the values marked as sensitive, and nothing else.
  ///
  /// It equals ``none`` today; call sites that mean "whatever the library considers safe" should
  /// use it rather than ``none``.
  public static let `default` = Redaction()

  /// Lowercased names matched against the last property or case of a path.
  private var names: Set<String> = []
  /// The same names quoted and escaped, lowercased, matched against ``ValuePath/Component/key(_:)``.
  private var quotedNames: Set<String> = []
  private var rules: [Rule] = []

  /// Whether the policy has rules, which read a value's whole path; without them, a value's
  /// redaction depends only on the value and the last component of its path.
  package var readsWholePaths: Bool { !rules.isEmpty }

  /// Whether the policy has key names or rules: without them only values marked as sensitive
  /// are redacted.
  package var hasRules: Bool { !names.isEmpty || !rules.isEmpty }

  private init() {}

  /// A policy that redacts, besides the marked values, the values of the properties, enum cases
  /// and `String` dictionary keys named in `keys`, ignoring case.
  ///
  /// - Parameter keys: The names to redact, such as `["password", "token"]`.
  public init(keys: some Sequence<String>) {
    self = Redaction().redacting(keys: keys)
  }

  /// A policy that redacts, besides the marked values, every value for which `rule` returns `true`.
  ///
  /// - Parameter rule: Receives the path and the value of each part visited.
  public init(where rule: @escaping Rule) {
    self = Redaction().redacting(where: rule)
  }

  /// This policy plus the key rule of ``init(keys:)``.
  ///
  /// - Parameter keys: More names to redact, matched ignoring case.
  /// - Returns: A policy that redacts what this one does and the values named in `keys`.
  public func redacting(keys: some Sequence<String>) -> Redaction {
    var policy = self
    for key in keys {
      policy.names.insert(key.lowercased())
      policy.quotedNames.insert(key.debugDescription.lowercased())
    }
    return policy
  }

  /// This policy plus a rule closure, as in ``init(where:)``.
  ///
  /// - Parameter rule: Receives the path and the value of each part visited; `true` redacts it.
  /// - Returns: A policy that redacts what this one does and whatever `rule` selects.
  public func redacting(where rule: @escaping Rule) -> Redaction {
    var policy = self
    policy.rules.append(rule)
    return policy
  }

  /// Whether the value found at `path` is shown as `<redacted>` under this policy.
  ///
  /// - Parameters:
  ///   - value: The value about to be printed or compared.
  ///   - path: Where the value sits in the root value being printed or compared.
  /// - Returns: `true` when the value is marked as sensitive or a rule of this policy matches it.
  public func redacts(_ value: Any, at path: ValuePath) -> Bool {
    redacts(value, facts: TypeFacts.of(value), at: path)
  }

  /// ``redacts(_:at:)`` for a value whose type facts are at hand.
  func redacts(_ value: Any, facts: TypeFacts, at path: ValuePath) -> Bool {
    if facts.isSensitive(value) { return true }
    if redactsKey(at: path) { return true }
    return rules.contains { $0(path, value) }
  }

  /// Whether a key rule names the last component of `path`, whatever the value there: how an
  /// encoder that meets an enum case's payload as a nested container, without a value to offer,
  /// applies the rules.
  package func redactsKey(at path: ValuePath) -> Bool {
    if !names.isEmpty, let last = path.components.last {
      switch last {
      case .property(let name), .case(let name):
        if names.contains(name.lowercased()) { return true }
      case .key(let key):
        if quotedNames.contains(key.lowercased()) { return true }
      case .index:
        break
      }
    }
    return false
  }
}
