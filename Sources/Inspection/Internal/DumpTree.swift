/// A value laid out for printing, before the choice between the multi-line and the inline form.
///
/// ``ValueRenderer`` builds it once; ``multiline()`` and ``inline()`` print it.
enum DumpTree {
  /// A value printed as one token: `42`, `"Milk"`, `nil`, `.idle`, `<redacted>`, `Node(↩︎)`.
  case text(String)
  /// A value printed as its parts between an opening and a closing text.
  case group(Group)

  /// A value with parts: a struct, a class, an enum case with a payload, a tuple or a collection.
  struct Group {
    /// How a group with a single part is laid out in the multi-line form.
    enum Layout {
      /// Structs, classes, payloads, tuples: a single part printed as one token stays on the line,
      /// as in `UserID(rawValue: 42)` or `.loaded(3)`.
      case record
      /// Collections: always one element per line.
      case list
    }

    /// `Todo(`, `.loaded(`, `(`, `[` or `Set([`.
    var opening: String
    /// `)`, `]` or `])`.
    var closing: String
    /// The whole text when there are no parts: `Todo()`, `[]`, `[:]`, `Set([])`.
    var empty: String
    var layout: Layout
    var items: [Item]
    /// Whether the value has parts that were left out because of the depth limit; printed `…`.
    var isElided = false
  }

  /// One part of a group and the label it is shown with.
  struct Item {
    enum Label {
      /// No label: a set element, an unlabeled tuple or payload element.
      case none
      /// `title: ` in both forms.
      case name(String)
      /// `[2]: ` in the multi-line form only.
      case index(Int)
      /// A dictionary key, rendered inline: `"theme": ` in both forms.
      case key(String)
    }

    var label: Label
    var tree: DumpTree
  }

  /// The multi-line form: one part per line, indented by two spaces per level.
  func multiline() -> String {
    var output = ""
    write(to: &output, indentation: "")
    return output
  }

  /// Appends the multi-line form to `output`, whose current line is indented by `indentation`.
  private func write(to output: inout String, indentation: String) {
    switch self {
    case .text(let text):
      output += text.utf8.contains(UInt8(ascii: "\n")) ? text.replacing("\n", with: "\n" + indentation) : text
    case .group(let group):
      if group.isElided {
        output += group.opening + "…" + group.closing
      } else if group.items.isEmpty {
        output += group.empty
      } else if group.layout == .record, group.items.count == 1, case .text = group.items[0].tree {
        output += group.opening + group.items[0].multilinePrefix
        group.items[0].tree.write(to: &output, indentation: indentation)
        output += group.closing
      } else {
        let inner = indentation + "  "
        output += group.opening
        for (offset, item) in group.items.enumerated() {
          output += (offset == 0 ? "\n" : ",\n") + inner + item.multilinePrefix
          item.tree.write(to: &output, indentation: inner)
        }
        output += "\n" + indentation + group.closing
      }
    }
  }

  /// The one-line form: parts separated by `, `, array positions left out.
  func inline() -> String {
    switch self {
    case .text(let text):
      return text
    case .group(let group):
      if group.isElided { return group.opening + "…" + group.closing }
      if group.items.isEmpty { return group.empty }
      let parts = group.items.map { $0.inlinePrefix + $0.tree.inline() }
      return group.opening + parts.joined(separator: ", ") + group.closing
    }
  }
}

extension DumpTree.Item {
  fileprivate var multilinePrefix: String {
    switch label {
    case .none: ""
    case .name(let name), .key(let name): name + ": "
    case .index(let index): "[\(index)]: "
    }
  }

  fileprivate var inlinePrefix: String {
    switch label {
    case .none, .index: ""
    case .name(let name), .key(let name): name + ": "
    }
  }
}
