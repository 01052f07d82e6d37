/// Per-entry work of the formats, carried as closures formed in the app's module, so that it
/// runs specialized for the app's `State` and `Action`.
///
/// The exporters, the importers and the NDJSON sink are generic over the app's types, and most of
/// their code runs unspecialized, in this module: there, every value of `Action` or `State` that
/// per-entry code makes, copies or drops looks up its type's metadata, which cost a tenth of an
/// export or an import (`export/*`, `import/*`) and most of a sink's line. So each of them takes
/// the per-entry work as a value of a type conforming to this protocol: a struct of closures,
/// read from ``specialized`` *only* inside an `@inlinable` public entry point (an export method,
/// an importer's initializer, the sink's initializer). The compiler emits that entry point in the
/// app's module, specialized for its types, and so forms the closures there; the unspecialized
/// code calls them once per entry.
///
/// The four:
/// - `JournalJSONEntries`: writes a Journal JSON export's entries.
/// - `LineFormat`: writes the NDJSON sink's lines.
/// - `HandOff`: queues what a background sink records for its writer.
/// - `EntryAdding`: adds an imported entry, read from its tokens, to a `JournalBuilder`.
@usableFromInline
protocol ClientSpecialized {
  /// The closures, specialized for the types of the code that reads this: read it only in an
  /// `@inlinable` public entry point.
  static var specialized: Self { get }
}

extension JournalJSONEntries: ClientSpecialized {}
extension LineFormat: ClientSpecialized {}
extension HandOff: ClientSpecialized {}
extension EntryAdding: ClientSpecialized {}
