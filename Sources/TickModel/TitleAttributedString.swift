import Foundation

/// Attributes tick puts on a title's `AttributedString`, beside Foundation's
/// own `inlinePresentationIntent` and `link`.
public enum TickAttributes {
    /// The inline styles of the run, as tick parsed them.
    public enum InlineStylesAttribute: AttributedStringKey {
        public typealias Value = InlineStyles
        public static let name = "tick.inlineStyles"
    }

    /// The key of the metadata token this run is (`due`, `priority`, `tag`, …).
    public enum MetadataFieldAttribute: AttributedStringKey {
        public typealias Value = String
        public static let name = "tick.metadataField"
    }

    /// The token's parsed value, as JSON shows it (`2026-11-24`, `high`, `errand`).
    public enum MetadataValueAttribute: AttributedStringKey {
        public typealias Value = String
        public static let name = "tick.metadataValue"
    }

    /// The half-open byte range in the file that the run came from.
    public enum SourceRangeAttribute: AttributedStringKey {
        public typealias Value = Range<Int>
        public static let name = "tick.sourceRange"
    }
}

extension AttributeScopes {
    /// tick's attributes plus Foundation's, for `AttributedString(title:)`.
    public struct TickAttributeScope: AttributeScope {
        public let inlineStyles: TickAttributes.InlineStylesAttribute
        public let metadataField: TickAttributes.MetadataFieldAttribute
        public let metadataValue: TickAttributes.MetadataValueAttribute
        public let sourceRange: TickAttributes.SourceRangeAttribute
        public let foundation: FoundationAttributes
    }

    public var tick: TickAttributeScope.Type { TickAttributeScope.self }
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.TickAttributeScope, T>) -> T {
        self[T.self]
    }
}

extension AttributedString {
    /// A title as an attributed string: one slice per run, carrying the run's
    /// styles (also as Foundation's link, and its presentation intents where
    /// they exist), its
    /// source byte range and, for a metadata token, its field and value.
    ///
    /// With `includingTokens: false` the tokens are left out and white space
    /// collapsed as `TitleWhiteSpace` says: its characters are exactly the
    /// display title's (`[TitleRun].displayTitle`, the JSON `title`).
    public init(title runs: [TitleRun], includingTokens: Bool = true) {
        self.init()
        if includingTokens {
            for run in runs { append(Self.piece(run.text, of: run)) }
        } else {
            // The display title's own pieces (`TitleWhiteSpace`'s rule), each
            // with its run's attributes.
            for piece in runs.displayPieces { append(Self.piece(piece.text, of: runs[piece.run])) }
        }
    }

    /// `text` with the attributes of `run`.
    private static func piece(_ text: String, of run: TitleRun) -> AttributedString {
        var piece = AttributedString(text)
        piece.tick.inlineStyles = run.styles
        piece.tick.sourceRange = run.range
        #if canImport(Darwin)
            // Foundation's presentation intents exist on Apple platforms only;
            // on Linux the styles travel in `tick.inlineStyles`.
            var intent: InlinePresentationIntent = []
            if run.styles.contains(.emphasis) { intent.insert(.emphasized) }
            if run.styles.contains(.strong) { intent.insert(.stronglyEmphasized) }
            if run.styles.contains(.code) { intent.insert(.code) }
            if run.styles.contains(.strikethrough) { intent.insert(.strikethrough) }
            if !intent.isEmpty { piece.inlinePresentationIntent = intent }
        #endif
        if let url = run.url.flatMap(URL.init(string:)) { piece.link = url }
        if let token = run.token {
            piece.tick.metadataField = token.field.key
            piece.tick.metadataValue = describe(token.value)
        }
        return piece
    }

    private static func describe(_ value: MetadataValue) -> String {
        switch value {
        case .priority(let priority): priority.name
        case .date(let date): date.isoString
        case .text(let text): text
        }
    }
}
