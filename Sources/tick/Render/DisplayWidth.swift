/// How many terminal columns text takes: wide East Asian characters and
/// emoji take two, combining marks and zero-width characters none.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        // ASCII, most titles, without walking characters: a printable byte
        // takes a column, a control byte none (CR LF, one character, too).
        let printable: Int? = text.withUTF8Bytes { bytes in
            var printable = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if byte >= 0x20, byte < 0x7F { printable += 1 }
            }
            return printable
        }
        return printable ?? ofCharacters(text)
    }

    private static func ofCharacters(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 } // emoji presentation selector
        if first.properties.isEmojiPresentation { return 2 }
        var width = 0
        for scalar in scalars { width = max(width, of(scalar)) }
        return width
    }

    private static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        let value = scalar.value
        if value == 0x200B || value == 0x200D { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains(where: { $0.contains(value) }) ? 2 : 1
    }
}
