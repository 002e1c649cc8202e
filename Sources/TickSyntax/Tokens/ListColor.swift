/// The colors a list, section or item may have: a name or `#rrggbb`.
public enum ListColor {
    public static let names = [
        "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue",
        "indigo", "purple", "pink", "brown", "gray",
    ]

    public static func isValid(_ value: String) -> Bool {
        if names.contains(value.lowercased()) || value.lowercased() == "grey" { return true }
        let utf8 = Array(value.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#") && utf8.dropFirst().allSatisfy { InlineScanner.hexValue($0) != nil }
    }

    /// The 24-bit RGB value of a color, for terminals.
    public static func rgb(_ value: String) -> (Int, Int, Int)? {
        switch value.lowercased() {
        case "red": return (255, 59, 48)
        case "orange": return (255, 149, 0)
        case "yellow": return (255, 204, 0)
        case "green": return (52, 199, 89)
        case "mint": return (0, 199, 190)
        case "teal": return (48, 176, 199)
        case "cyan": return (50, 173, 230)
        case "blue": return (0, 122, 255)
        case "indigo": return (88, 86, 214)
        case "purple": return (175, 82, 222)
        case "pink": return (255, 45, 85)
        case "brown": return (162, 132, 94)
        case "gray", "grey": return (142, 142, 147)
        default:
            let utf8 = Array(value.utf8)
            guard utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return nil }
            let digits = utf8.dropFirst().compactMap { InlineScanner.hexValue($0) }
            guard digits.count == 6 else { return nil }
            return (Int(digits[0] * 16 + digits[1]), Int(digits[2] * 16 + digits[3]), Int(digits[4] * 16 + digits[5]))
        }
    }
}
