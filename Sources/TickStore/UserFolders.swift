import TickSystem

/// Where tick keeps its files for the user, by the XDG Base Directory
/// specification: `$XDG_CACHE_HOME` (parse cache), `$XDG_STATE_HOME`
/// (change journal), `$XDG_CONFIG_HOME` (settings), each with its
/// default below `$HOME` when unset or not absolute.
public enum UserFolders {
    public enum Kind: Sendable {
        case cache, state, config

        var variable: String {
            switch self {
            case .cache: "XDG_CACHE_HOME"
            case .state: "XDG_STATE_HOME"
            case .config: "XDG_CONFIG_HOME"
            }
        }

        var defaultBelowHome: String {
            switch self {
            case .cache: "/.cache"
            case .state: "/.local/state"
            case .config: "/.config"
            }
        }
    }

    /// tick's folder of `kind` (`…/tick`), or nil when neither the
    /// variable nor HOME says where.
    public static func tick(_ kind: Kind, environment: Environment) -> String? {
        if let base = environment[kind.variable], base.hasPrefix("/") { return base + "/tick" }
        if let home = environment["HOME"], !home.isEmpty { return home + kind.defaultBelowHome + "/tick" }
        return nil
    }
}
