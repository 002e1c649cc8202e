/// The colors a list, section or item may have: a name or `#rrggbb`.
public enum ListColor {
    /// Each name, in the order messages list them, with its 24-bit RGB
    /// value (`grey` is also read, as `gray`).
    private static let named: [(name: String, rgb: (Int, Int, Int))] = [
        ("red", (255, 59, 48)), ("orange", (255, 149, 0)), ("yellow", (255, 204, 0)), ("green", (52, 199, 89)),
        ("mint", (0, 199, 190)), ("teal", (48, 176, 199)), ("cyan", (50, 173, 230)), ("blue", (0, 122, 255)),
        ("indigo", (88, 86, 214)), ("purple", (175, 82, 222)), ("pink", (255, 45, 85)), ("brown", (162, 132, 94)),
        ("gray", (142, 142, 147)),
    ]

    public static let names = named.map(\.name)

    public static func isValid(_ value: String) -> Bool { rgb(value) != nil }

    /// The 24-bit RGB value of a color, for terminals: a name in any case,
    /// or `#rrggbb`.
    public static func rgb(_ value: String) -> (Int, Int, Int)? {
        // The name as written first: nearly every name is written in lower
        // case, and a listing asks for a color on every row (lowercasing
        // makes a string).
        rgb(ofName: value) ?? hex(value) ?? rgb(ofName: value.lowercased())
    }

    private static func rgb(ofName name: String) -> (Int, Int, Int)? {
        let name = name == "grey" ? "gray" : name
        return named.first { $0.name == name }?.rgb
    }

    private static func hex(_ value: String) -> (Int, Int, Int)? {
        let utf8 = Array(value.utf8)
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return nil }
        let digits = utf8.dropFirst().compactMap { InlineScanner.hexValue($0) }
        guard digits.count == 6 else { return nil }
        return (Int(digits[0] * 16 + digits[1]), Int(digits[2] * 16 + digits[3]), Int(digits[4] * 16 + digits[5]))
    }
}
