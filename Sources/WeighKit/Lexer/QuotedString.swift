/// A string in double quotes with `"`, `\` and newlines escaped, as the language writes it
/// (and the lexer reads it back).
public func quoted(_ text: String) -> String {
  var result = "\""
  for character in text {
    switch character {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    default: result.append(character)
    }
  }
  return result + "\""
}
