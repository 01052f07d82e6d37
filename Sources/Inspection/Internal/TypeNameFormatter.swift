/// Turns a runtime type name into the form the printers show: without module names, without the
/// contexts of private and local types, and with the standard sugar for optionals, arrays and
/// dictionaries. `MyApp.Outer.Box<Swift.Optional<Swift.Array<MyApp.Todo>>>` reads
/// `Outer.Box<[Todo]?>`, and a type declared inside a function is named as in its declaration.
enum TypeNameFormatter {
  /// The short, module-free name of `type`.
  static func name(of type: Any.Type) -> String {
    var characters = Array(_typeName(type, qualified: true))
    removeExtensionContexts(from: &characters)
    applySugar(to: &characters)
    return String(shorteningPaths(in: characters))
  }

  /// The marker of a member of an extension of another module's type:
  /// `(extension in MyApp):Swift.Int.Nested`.
  private static let extensionContext = (opening: Array("(extension in "), closing: Array("):"))

  private static func removeExtensionContexts(from characters: inout [Character]) {
    while let start = characters.firstRange(of: extensionContext.opening)?.lowerBound,
      let end = characters[start...].firstRange(of: extensionContext.closing)?.upperBound
    {
      characters.removeSubrange(start..<end)
    }
  }

  /// The generic types the compiler writes with sugar, by the runtime name that starts them.
  private enum Sugar: CaseIterable {
    case optional, array, dictionary

    var prefix: [Character] {
      switch self {
      case .optional: Array("Swift.Optional<")
      case .array: Array("Swift.Array<")
      case .dictionary: Array("Swift.Dictionary<")
      }
    }

    /// The sugared form of this type applied to `arguments`, or `nil` when they don't fit.
    func apply(to arguments: ArraySlice<Character>) -> [Character]? {
      switch self {
      case .optional:
        (hasTopLevelSpace(arguments) ? ["("] + arguments + [")"] : Array(arguments)) + ["?"]
      case .array:
        ["["] + arguments + ["]"]
      case .dictionary:
        topLevelComma(in: arguments).map { ["["] + arguments[..<$0] + [":"] + arguments[($0 + 1)...] + ["]"] }
      }
    }
  }

  private static func applySugar(to characters: inout [Character]) {
    var searchStart = 0
    while true {
      let candidates = Sugar.allCases.compactMap { sugar in
        characters[searchStart...].firstRange(of: sugar.prefix).map { (start: $0.lowerBound, sugar: sugar) }
      }
      guard let (start, sugar) = candidates.min(by: { $0.start < $1.start }) else { return }
      searchStart = start + 1
      let isWholeName =
        start == 0 || !(isIdentifierCharacter(characters[start - 1]) || characters[start - 1] == ".")
      let argumentsStart = start + sugar.prefix.count
      guard isWholeName,
        let argumentsEnd = closingBracket(in: characters, from: argumentsStart),
        let sugared = sugar.apply(to: characters[argumentsStart..<argumentsEnd])
      else { continue }
      characters.replaceSubrange(start...argumentsEnd, with: sugared)
      // The arguments may hold more sugarable names; they now start at `start`.
      searchStart = start
    }
  }

  /// The index of the `>` closing the generic argument list that starts at `start`.
  private static func closingBracket(in characters: [Character], from start: Int) -> Int? {
    var depth = 0
    for index in start..<characters.count {
      switch characters[index] {
      case "<", "(", "[": depth += 1
      case ")", "]": depth -= 1
      case ">" where index > 0 && characters[index - 1] == "-": break
      case ">":
        if depth == 0 { return index }
        depth -= 1
      default: break
      }
    }
    return nil
  }

  private static func topLevelComma(in characters: ArraySlice<Character>) -> Int? {
    var depth = 0
    for (index, character) in zip(characters.indices, characters) {
      switch character {
      case "<", "(", "[": depth += 1
      case ">" where index > characters.startIndex && characters[index - 1] == "-": break
      case ">", ")", "]": depth -= 1
      case "," where depth == 0: return index
      default: break
      }
    }
    return nil
  }

  /// Whether a type written as `characters` needs parentheses before a `?`: `(Int) -> Void`,
  /// `any Error`.
  private static func hasTopLevelSpace(_ characters: ArraySlice<Character>) -> Bool {
    var depth = 0
    for (index, character) in zip(characters.indices, characters) {
      switch character {
      case "<", "(", "[": depth += 1
      case ">" where index > characters.startIndex && characters[index - 1] == "-": break
      case ">", ")", "]": depth -= 1
      case " " where depth == 0: return true
      default: break
      }
    }
    return false
  }

  /// The context of a private or local type: `MyApp.(unknown context at $10a3b4c).Todo`.
  private static let anonymousContext = Array("(unknown context at ")

  /// Shortens every dotted path to what a reader needs. In a qualified runtime name, a path starts
  /// with the module (`Swift.Int.Type` → `Int.Type`), and what precedes an anonymous context is the
  /// file or the function that holds a private or local type (`MyApp.Tests.(unknown context at
  /// $10a3b4c).Todo` → `Todo`).
  private static func shorteningPaths(in characters: [Character]) -> [Character] {
    var result: [Character] = []
    result.reserveCapacity(characters.count)
    var index = 0
    while index < characters.count {
      let startsPath =
        isIdentifierCharacter(characters[index])
        && (index == 0 || !(isIdentifierCharacter(characters[index - 1]) || characters[index - 1] == "."))
      guard startsPath else {
        result.append(characters[index])
        index += 1
        continue
      }
      var components: [ArraySlice<Character>] = []
      var keptFrom = 1
      var end = index
      while true {
        let start = end
        if characters[start...].starts(with: anonymousContext),
          let close = characters[start...].firstIndex(of: ")")
        {
          end = close + 1
          keptFrom = components.count + 1
        } else {
          while end < characters.count, isIdentifierCharacter(characters[end]) { end += 1 }
        }
        components.append(characters[start..<end])
        let continues =
          end + 1 < characters.count && characters[end] == "."
          && (isIdentifierCharacter(characters[end + 1])
            || characters[(end + 1)...].starts(with: anonymousContext))
        guard continues else { break }
        end += 1
      }
      let kept = components.count > 1 ? components[min(keptFrom, components.count - 1)...] : components[...]
      result.append(contentsOf: kept.joined(separator: "."))
      index = end
    }
    return result
  }

  private static func isIdentifierCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }
}
