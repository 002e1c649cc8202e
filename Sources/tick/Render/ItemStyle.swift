import TickModel
import TickRecords

/// How one item's parts look in a terminal: box, priority marker, title
/// with its inline styles, tags.
enum ItemStyle {
    /// The box glyph for a status.
    static func box(_ status: TaskStatus) -> StyledText {
        switch status {
        case .open: StyledText("☐")
        case .inProgress: StyledText("◐", TextStyle(bold: true, color: .blue))
        case .done: StyledText("☑", TextStyle(color: RGB(listColor: "green")))
        case .cancelled: StyledText("☒", .dimmed)
        }
    }

    /// `!!!` urgent, `!!` high, `!` medium, nothing for normal, `↓` low, `↓↓` lowest.
    static func priorityMarker(_ priority: Priority) -> StyledText {
        switch priority {
        case .urgent: StyledText("!!!", TextStyle(bold: true, color: .red))
        case .high: StyledText("!!", TextStyle(bold: true, color: .orange))
        case .medium: StyledText("!", TextStyle(color: .yellow))
        case .normal: StyledText()
        case .low: StyledText("↓", .dimmed)
        case .lowest: StyledText("↓↓", .dimmed)
        }
    }

    /// The display title with its inline styles: strong as bold, emphasis
    /// as italics, code in color, strikethrough struck, links as OSC 8
    /// hyperlinks. Its plain text is exactly `item.title`. Finished items
    /// are dimmed (cancelled ones also struck through).
    ///
    /// Read from the title's parsed runs, each piece in its run's style: a
    /// listing asks for it only when the item's text holds markup
    /// (`hasPlainTitle`), and writes any other title as `plainTitle`.
    static func styledTitle(_ item: EncodedListedItem) -> StyledText {
        let base = titleStyle(item.status)
        let runs = item.runs
        var result = StyledText()
        // The display title's own pieces (`TitleWhiteSpace`'s rule); a space
        // joining two runs takes neither run's style.
        for piece in runs.displayPieces {
            result.append(piece.text, piece.isJoiningSpace ? base : style(of: runs[piece.run], base: base))
        }
        return result
    }

    /// The display title as `title(_:)` shows it without inline styles: the
    /// same text (`item.title`), dimmed or struck as `title(_:)` does, with
    /// no runs parsed.
    static func plainTitle(_ item: EncodedListedItem) -> StyledText {
        StyledText(item.title.string, titleStyle(item.status))
    }

    /// The style of a title of an item with `status`: dimmed once it is
    /// finished, struck through when cancelled.
    static func titleStyle(_ status: TaskStatus) -> TextStyle {
        var style = TextStyle.plain
        if !status.isOpen { style.dim = true }
        if status == .cancelled { style.strikethrough = true }
        return style
    }

    private static func style(of run: TitleRun, base: TextStyle) -> TextStyle {
        var style = base
        if run.styles.contains(.strong) { style.bold = true }
        if run.styles.contains(.emphasis) { style.italic = true }
        if run.styles.contains(.strikethrough) { style.strikethrough = true }
        if run.styles.contains(.code) { style.color = .teal }
        if run.styles.contains(.link) || run.styles.contains(.autolink) || run.styles.contains(.image) {
            style.underline = true
            if let url = run.url, isSafeLink(url) { style.link = url }
        }
        return style
    }

    /// A URL that is safe inside an OSC 8 sequence (no control characters).
    private static func isSafeLink(_ url: String) -> Bool {
        !url.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || ($0.value >= 0x80 && $0.value < 0xA0) }
    }

    /// The width of the widest priority marker among `items`. The first
    /// items nearly always hold the widest marker there is (`urgent`'s), and
    /// then the others need not be read; else every item is read, in the
    /// parse cache's order.
    private static func markerWidth(_ items: [EncodedListedItem]) -> Int {
        let markerWidths = Priority.allCases.map { priorityMarker($0).width }
        let widestThereIs = markerWidths.max() ?? 0
        var widest = 0
        for item in items.prefix(4096) {
            widest = max(widest, markerWidths[item.priority.rawValue])
            if widest == widestThereIs { return widest }
        }
        items.dropFirst(4096).forEachInCacheOrderReleasingCachePages { widest = max(widest, markerWidths[$0.priority.rawValue]) }
        return widest
    }

    /// What comes before the titles of a listing's rows: indentation, the
    /// box, a space, and, when some item of the listing has a priority
    /// marker, the marker padded to the widest one (`markerWidth`) and a
    /// space. The prefixes of rows up to `builtDepths` levels deep are built
    /// once per listing, not once per row.
    struct RowPrefixes: Sendable {
        /// The spans of the prefix of each depth below `builtDepths`,
        /// status and priority (`place`), one prefix after another in one
        /// array, and where each prefix's spans start (and the last ends):
        /// each span's style, width, and where its text lies in `texts`,
        /// the texts' bytes one after another. A row copies its prefix's
        /// bytes: a prefix held as `StyledText` was retained and released
        /// for every row, on the same few counts from every core at once,
        /// and spans of strings were each copied and read as strings.
        private let spans: [(style: TextStyle, width: Int, text: Range<Int>)]
        private let texts: [UInt8]
        private let spanStarts: [Int32]
        private static let builtDepths = 4
        private static let priorityCount = Priority.allCases.count
        private static let statusCount = TaskStatus.allCases.count

        /// The prefixes of a listing of `items`.
        init(for items: [EncodedListedItem]) {
            let markerWidth = ItemStyle.markerWidth(items)
            var built = [StyledText](repeating: StyledText(), count: Self.builtDepths * Self.statusCount * Self.priorityCount)
            for status in TaskStatus.allCases {
                for priority in Priority.allCases {
                    var prefix = ItemStyle.box(status) + StyledText(" ")
                    if markerWidth > 0 { prefix = prefix + ItemStyle.priorityMarker(priority).padded(to: markerWidth) + StyledText(" ") }
                    for depth in 0..<Self.builtDepths {
                        built[Self.place(status: status, priority: priority, depth: depth)] = Self.indented(prefix, depth: depth)
                    }
                }
            }
            var texts: [UInt8] = []
            spans = built.flatMap(\.spans).map { span in
                let start = texts.count
                texts.append(contentsOf: span.text.utf8)
                return (span.style, span.width, start..<texts.count)
            }
            self.texts = texts
            spanStarts = built.reduce(into: [0]) { starts, prefix in starts.append(starts.last! + Int32(prefix.spans.count)) }
        }

        /// The prefix of a row of an item with `status` and `priority`,
        /// indented two spaces per level of `depth`.
        func prefix(status: TaskStatus, priority: Priority, depth: Int) -> StyledText {
            var prefix = StyledText()
            let width = forEachSpan(status: status, priority: priority, depth: depth) { text, style, width in
                prefix.append(visible: String(decoding: text, as: UTF8.self), style, width: width)
            }
            assert(width == prefix.width)
            return prefix
        }

        /// Calls `body` with each span of the prefix of a row of an item
        /// with `status` and `priority`, indented two spaces per level of
        /// `depth`, in order (its visible text's bytes, its style and its
        /// width); returns the prefix's width.
        @discardableResult
        func forEachSpan(
            status: TaskStatus, priority: Priority, depth: Int, _ body: (UnsafeBufferPointer<UInt8>, TextStyle, Int) -> Void
        ) -> Int {
            guard depth < Self.builtDepths else {
                let prefix = Self.indented(self.prefix(status: status, priority: priority, depth: 0), depth: depth)
                for span in prefix.spans {
                    var text = span.text
                    text.withUTF8 { body($0, span.style, span.width) }
                }
                return prefix.width
            }
            let place = Self.place(status: status, priority: priority, depth: depth)
            var width = 0
            texts.withUnsafeBufferPointer { texts in
                for index in Int(spanStarts[place])..<Int(spanStarts[place + 1]) {
                    let span = spans[index]
                    width += span.width
                    body(UnsafeBufferPointer(rebasing: texts[span.text]), span.style, span.width)
                }
            }
            return width
        }

        /// Where the prefix of `depth` (below `builtDepths`), `status` and `priority` lies among the built ones.
        private static func place(status: TaskStatus, priority: Priority, depth: Int) -> Int {
            let statusIndex: Int
            switch status {
            case .open: statusIndex = 0
            case .done: statusIndex = 1
            case .cancelled: statusIndex = 2
            case .inProgress: statusIndex = 3
            }
            return (depth * statusCount + statusIndex) * priorityCount + priority.rawValue
        }

        private static func indented(_ prefix: StyledText, depth: Int) -> StyledText {
            depth == 0 ? prefix : StyledText(String(repeating: "  ", count: depth)) + prefix
        }
    }

    /// `#tag #other`, dimmed.
    static func tags(_ tags: [String]) -> StyledText {
        StyledText(tagsText(tags), .dimmed)
    }

    /// `#tag #other`.
    static func tagsText(_ tags: [String]) -> String {
        tags.map { "#" + $0 }.joined(separator: " ")
    }

    /// A list's name in its color.
    static func listName(_ document: EncodedDocument) -> StyledText {
        StyledText(document.name, listNameStyle(document))
    }

    /// The style of a list's name: its color.
    static func listNameStyle(_ document: EncodedDocument) -> TextStyle {
        TextStyle(color: RGB(listColor: document.color))
    }

    /// A list's icon as an emoji (or a bullet) followed by its name, bold and colored.
    static func listHeading(_ document: EncodedDocument) -> StyledText {
        StyledText(Icons.emoji(for: document.icon) + " ") + StyledText(document.name, TextStyle(bold: true, color: RGB(listColor: document.color)))
    }
}
