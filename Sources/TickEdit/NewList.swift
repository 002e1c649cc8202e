/// The text of a new list file (`tick new`).
///
/// Guarantees: YAML front matter with `title:` (and `color:`, `icon:` when
/// given) that a YAML parser reads back as the same strings, then a level-1
/// heading with the name, each line ended by `\n`.
public enum NewList {
    /// The file's bytes for a list named `name`.
    public static func text(name: String, color: String?, icon: String?) -> [UInt8] {
        var lines = ["---", "title: " + yamlScalar(name)]
        if let color { lines.append("color: " + yamlScalar(color)) }
        if let icon { lines.append("icon: " + yamlScalar(icon)) }
        lines += ["---", "", "# " + name, ""]
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// `text` as a plain YAML scalar when that reads back unchanged, else
    /// double-quoted with escapes.
    static func yamlScalar(_ text: String) -> String {
        let plainSafe =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || " _.-/".unicodeScalars.contains(scalar)
                    || scalar.properties.isEmojiPresentation) && scalar.value != 0x2028 && scalar.value != 0x2029
            }
        let reserved = ["true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"]
        let numeric = Double(text) != nil || Int(text) != nil
        if plainSafe, !reserved.contains(text.lowercased()), !numeric, text.first != " ", text.last != " ",
            text.first != "-", text.first != "." || text.count > 1
        {
            return text
        }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20: quoted += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
