/// Text from files made safe to print on a terminal.
///
/// A title, list name, heading, tag or file name may hold control
/// characters that a terminal would obey (ESC starting an OSC 52 clipboard
/// write or a screen clear, BEL, a C1 CSI). Every human output passes such
/// text through `safe(_:)` before it is printed, so that the only escape
/// sequences tick writes are its own (SGR colors and OSC 8 links):
///
/// - a C0 control character (U+0000–U+001F) is shown as its Unicode control
///   picture, ESC as `␛`, BEL as `␇`, a line feed as `␊`;
/// - a tab becomes one space (a tab is harmless, but its width is unknown);
/// - DEL (U+007F) is shown as `␡`;
/// - a C1 control character (U+0080–U+009F) becomes U+FFFD `�`.
///
/// Each replacement takes one column, so widths are measured on the safe
/// text. JSON output escapes control characters itself and is not changed.
enum TerminalText {
    /// `text` with every control character replaced as described above.
    static func safe(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: result.append(" ")
            case 0x00..<0x20: result.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: result.append("\u{2421}")
            case 0x80..<0xA0: result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// The same for a message of several lines: its line feeds are kept.
    static func safeLines(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }.joined(separator: "\n")
    }

    /// Whether `text` holds a C0, DEL or C1 control character. (In UTF-8 a
    /// C1 character is the byte 0xC2 followed by 0x80–0x9F.)
    static func needsEscaping(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            var afterC2 = false
            for byte in bytes {
                if byte < 0x20 || byte == 0x7F || (afterC2 && byte < 0xA0) { return true }
                afterC2 = byte == 0xC2
            }
            return false
        }
    }
}
