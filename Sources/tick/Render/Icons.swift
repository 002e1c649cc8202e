/// Symbol names (in the style of SF Symbols) shown as emoji in a terminal.
enum Icons {
    /// The emoji for an icon name; an icon written as an emoji is shown as
    /// it is, and an unknown name becomes a bullet.
    static func emoji(for icon: String) -> String {
        if icon.unicodeScalars.contains(where: { $0.value > 0x7F }) { return icon }
        var name = icon.lowercased()
        if let known = table[name] { return known }
        // `star.fill`, `cart.circle`, `heart.square.fill`: the base symbol's emoji.
        for suffix in [".fill", ".circle", ".square", ".badge", ".rectangle"] {
            while name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        }
        if let known = table[name] { return known }
        if let base = name.split(separator: ".").first, let known = table[String(base)] { return known }
        return bullet
    }

    static let bullet = "•"

    static let table: [String: String] = [
        "list.bullet": "•", "list.dash": "•", "list.number": "•", "checklist": "✅", "checkmark": "✔️",
        "cart": "🛒", "bag": "👜", "basket": "🧺", "creditcard": "💳", "dollarsign": "💲", "banknote": "💵", "gift": "🎁",
        "house": "🏠", "building": "🏢", "building.2": "🏢", "bed.double": "🛏️", "sofa": "🛋️", "lamp.desk": "💡",
        "briefcase": "💼", "folder": "📁", "doc": "📄", "doc.text": "📄", "tray": "📥", "archivebox": "🗄️",
        "paperclip": "📎", "paperplane": "📨", "envelope": "✉️", "phone": "📞", "bubble.left": "💬", "message": "💬",
        "calendar": "📅", "clock": "🕒", "alarm": "⏰", "timer": "⏲️", "hourglass": "⌛", "bell": "🔔",
        "leaf": "🍃", "tree": "🌳", "camera.macro": "🌷", "sun.max": "☀️", "moon": "🌙", "cloud": "☁️",
        "snowflake": "❄️", "flame": "🔥", "drop": "💧", "bolt": "⚡", "sparkles": "✨", "star": "⭐", "heart": "❤️",
        "flag": "🚩", "bookmark": "🔖", "tag": "🏷️", "pin": "📌", "mappin": "📍", "map": "🗺️", "globe": "🌍",
        "book": "📖", "books.vertical": "📚", "book.closed": "📕", "newspaper": "📰", "graduationcap": "🎓",
        "pencil": "✏️", "highlighter": "🖍️", "paintbrush": "🖌️", "paintpalette": "🎨", "scissors": "✂️",
        "hammer": "🔨", "wrench": "🔧", "wrench.and.screwdriver": "🛠️", "screwdriver": "🪛", "gearshape": "⚙️", "gear": "⚙️",
        "lightbulb": "💡", "key": "🔑", "lock": "🔒", "shield": "🛡️",
        "person": "👤", "person.2": "👥", "person.3": "👥", "figure.walk": "🚶", "figure.run": "🏃",
        "dumbbell": "🏋️", "sportscourt": "🏟️", "bicycle": "🚲", "car": "🚗", "bus": "🚌", "tram": "🚋",
        "airplane": "✈️", "ferry": "⛴️", "fuelpump": "⛽", "suitcase": "🧳",
        "fork.knife": "🍴", "cup.and.saucer": "☕", "mug": "☕", "wineglass": "🍷", "carrot": "🥕", "birthday.cake": "🎂",
        "pills": "💊", "cross": "✚", "stethoscope": "🩺", "bandage": "🩹", "heart.text.square": "❤️",
        "pawprint": "🐾", "hare": "🐇", "tortoise": "🐢", "bird": "🐦", "fish": "🐟", "ant": "🐜", "ladybug": "🐞",
        "music.note": "🎵", "guitars": "🎸", "headphones": "🎧", "film": "🎬", "tv": "📺", "gamecontroller": "🎮",
        "desktopcomputer": "🖥️", "laptopcomputer": "💻", "keyboard": "⌨️", "printer": "🖨️", "iphone": "📱",
        "terminal": "💻", "chevron.left.forwardslash.chevron.right": "💻", "server.rack": "🗄️", "ladybug.fill": "🐞",
        "chart.bar": "📊", "chart.pie": "📊", "chart.line.uptrend.xyaxis": "📈", "lightbulb.max": "💡",
        "trash": "🗑️", "cube": "📦", "shippingbox": "📦", "puzzlepiece": "🧩", "crown": "👑", "trophy": "🏆",
        "graduationcap.fill": "🎓", "theatermasks": "🎭", "party.popper": "🎉", "balloon": "🎈",
    ]
}
