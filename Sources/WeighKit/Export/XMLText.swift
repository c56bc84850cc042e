/// Text inside XML (Apple Health exports, CDA documents, SVG charts).
enum XMLText {
  /// `text` safe inside an element or a double-quoted attribute, read back exactly:
  /// `& < > "` and line breaks and tabs (which an attribute would otherwise normalize to
  /// spaces) become references.
  static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n": out += "&#10;"
      case "\r": out += "&#13;"
      case "\t": out += "&#9;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
