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

    /// The 24-bit RGB value of a color, for terminals: a name in any case,
    /// or `#rrggbb`.
    public static func rgb(_ value: String) -> (Int, Int, Int)? {
        // The name as written first: nearly every name is written in lower
        // case, and a listing asks for a color on every row (lowercasing
        // makes a string).
        named(value) ?? hex(value) ?? named(value.lowercased())
    }

    private static func named(_ value: String) -> (Int, Int, Int)? {
        switch value {
        case "red": (255, 59, 48)
        case "orange": (255, 149, 0)
        case "yellow": (255, 204, 0)
        case "green": (52, 199, 89)
        case "mint": (0, 199, 190)
        case "teal": (48, 176, 199)
        case "cyan": (50, 173, 230)
        case "blue": (0, 122, 255)
        case "indigo": (88, 86, 214)
        case "purple": (175, 82, 222)
        case "pink": (255, 45, 85)
        case "brown": (162, 132, 94)
        case "gray", "grey": (142, 142, 147)
        default: nil
        }
    }

    private static func hex(_ value: String) -> (Int, Int, Int)? {
        let utf8 = Array(value.utf8)
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return nil }
        let digits = utf8.dropFirst().compactMap { InlineScanner.hexValue($0) }
        guard digits.count == 6 else { return nil }
        return (Int(digits[0] * 16 + digits[1]), Int(digits[2] * 16 + digits[3]), Int(digits[4] * 16 + digits[5]))
    }
}
