import Foundation

/// An error a client shows as one line, with the exit code SPEC §7 gives it.
///
/// Guarantees: `message` is one line that says what is wrong and what to do;
/// `kind.exitCode` is the one place a kind becomes an exit code. Library
/// errors that a command can end with say which `TickError` they are
/// (`TickErrorConvertible`).
public struct TickError: Error, LocalizedError, Sendable, Equatable {
    /// What went wrong, as SPEC §7 sorts failures.
    public enum Kind: Sendable, Equatable {
        /// `tick check` found problems, or a program tick starts (the
        /// editor) could not run (1).
        case failed
        /// A command line or an argument that cannot be used (64).
        case usage
        /// The files hold something the command cannot do its work on: no
        /// such item or list, an ambiguous name, a file with conflict markers (65).
        case badData
        /// A folder or file that cannot be read (66).
        case noInput
        /// A file that cannot be written (73).
        case cannotWrite
        /// A file changed on disk while the command worked, so nothing was written (75).
        case changedOnDisk

        /// SPEC §7's exit code.
        public var exitCode: Int32 {
            switch self {
            case .failed: 1
            case .usage: 64
            case .badData: 65
            case .noInput: 66
            case .cannotWrite: 73
            case .changedOnDisk: 75
            }
        }
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var errorDescription: String? { message }

    public static func failed(_ message: String) -> TickError { TickError(.failed, message) }
    public static func usage(_ message: String) -> TickError { TickError(.usage, message) }
    public static func badData(_ message: String) -> TickError { TickError(.badData, message) }
    public static func noInput(_ message: String) -> TickError { TickError(.noInput, message) }
    public static func cannotWrite(_ message: String) -> TickError { TickError(.cannotWrite, message) }
    public static func changedOnDisk(_ message: String) -> TickError { TickError(.changedOnDisk, message) }
}

/// A library error that a command can end with: which `TickError` it is.
public protocol TickErrorConvertible: Error {
    var tickError: TickError { get }
}

extension TickError: TickErrorConvertible {
    public var tickError: TickError { self }
}
