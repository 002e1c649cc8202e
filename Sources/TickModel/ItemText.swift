/// The fields of an item's list that its JSON repeats.
public enum ListField: Sendable {
    case path, name, color, icon
}

/// A piece of an item's text: a `String`, or UTF-8 bytes read in place.
public protocol ItemText {
    var string: String { get }
    /// Appends the text as a JSON string literal, quotes included.
    func appendJSON(to output: inout ByteOutput)
}

extension String: ItemText {
    public var string: String { self }
    public func appendJSON(to output: inout ByteOutput) { JSONValue.appendString(self, to: &output) }
}

/// A fixed word (a status, a priority) that needs no escaping.
package struct JSONWord: ItemText {
    let word: StaticString
    package var string: String { word.description }
    package func appendJSON(to output: inout ByteOutput) {
        output.append(UInt8(ascii: "\""))
        output.append(word)
        output.append(UInt8(ascii: "\""))
    }

    /// Every stored property, as the memberwise initializer takes them.
    package init(word: StaticString) {
        self.word = word
    }
}

/// A date prints as its `isoString`, straight into the output.
extension TaskDate: ItemText {
    public var string: String { isoString }
    public func appendJSON(to output: inout ByteOutput) {
        output.append(UInt8(ascii: "\""))
        appendISO(to: &output)
        output.append(UInt8(ascii: "\""))
    }
}
