/// A marker for values that must never appear in a log, a journal, an export or a viewer.
///
/// Conform a type to `SensitiveValue` when every instance of it is a secret: ``ValueDump`` prints
/// such a value as `<redacted>` as a whole, and ``StateDiff`` reports that it changed without
/// showing either side. No ``Redaction`` policy can switch this off.
///
/// ```swift
/// struct APIToken: SensitiveValue, Equatable { var raw: String }
/// ```
///
/// To mark a single property instead of a whole type, wrap it in ``Redacted``, which conforms.
public protocol SensitiveValue {}
