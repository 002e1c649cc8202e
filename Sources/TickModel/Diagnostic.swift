/// A problem found while parsing a file: where it is and what is wrong.
///
/// Diagnostics never stop a parse; the rest of the file still parses.
public struct Diagnostic: Sendable, Hashable {
    /// 1-based line number in the file.
    public var line: Int
    /// 1-based column, counted in bytes from the start of the line.
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}
