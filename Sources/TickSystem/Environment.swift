/// Environment variables: the process's own, read one at a time where they
/// are needed, or a fixed set (tests, and callers that pass their own).
///
/// Guarantees: a lookup of the process's environment reads the variable as
/// it is at that moment (`getenv`), and costs only that variable.
/// Foundation's `ProcessInfo.environment` copies every variable into a new
/// dictionary on each use, about a tenth of a millisecond at the start of
/// every command, several times over.
public struct Environment: Sendable, ExpressibleByDictionaryLiteral {
    /// The variables given, or nil for the process's own.
    private let fixed: [String: String]?

    /// This process's environment.
    public static let process = Environment(fixed: nil)

    private init(fixed: [String: String]?) { self.fixed = fixed }

    /// A fixed set of variables, as written: `["XDG_CACHE_HOME": "/tmp/cache"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fixed = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The variable's value, or nil when it is not set.
    public subscript(name: String) -> String? {
        if let fixed { return fixed[name] }
        return Posix.environmentValue(name)
    }

    /// The variable's value, or nil when it is not set or empty.
    public func nonEmpty(_ name: String) -> String? {
        guard let value = self[name], !value.isEmpty else { return nil }
        return value
    }
}
