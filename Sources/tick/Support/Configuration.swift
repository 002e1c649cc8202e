import Foundation
import TickModel
import TickStore
import TickSyntax
import TickSystem

/// The settings in force (SPEC §9): the user's config file, with the notes
/// folder's `.tick.yml` over it. Read once, before the command line is
/// parsed (aliases change it); a bad file ends the run with one line (64).
enum Configuration {
    /// The user's settings (empty without a file).
    nonisolated(unsafe) private(set) static var user = ConfigFile()
    /// The folders whose `.tick.yml` was read, and the settings in force there.
    nonisolated(unsafe) private static var byFolder: [String: ConfigFile] = [:]

    /// `$XDG_CONFIG_HOME/tick/config.yml`, else `~/.config/tick/config.yml`.
    static var userPath: String? {
        UserFolders.tick(.config, environment: .process).map { $0 + "/config.yml" }
    }

    /// Reads the user's file.
    static func loadUser() throws(ConfigFile.Problem) {
        if let path = userPath, let file = try ConfigFile.load(path) { user = file }
    }

    /// The user's default notes folder, `~` expanded.
    static var defaultFolder: String? {
        guard let folder = user.folder else { return nil }
        if folder == "~" || folder.hasPrefix("~/") {
            return (Environment.process["HOME"] ?? NSHomeDirectory()) + folder.dropFirst()
        }
        return folder
    }

    /// The settings in force in the notes folder at `path` (its `.tick.yml` over the user's).
    static func settings(forFolder path: String) throws(ConfigFile.Problem) -> ConfigFile {
        if let known = byFolder[path] { return known }
        var settings = user
        if let folder = try ConfigFile.load(path + "/.tick.yml") {
            var folderSettings = folder
            folderSettings.folder = nil // where the notes are is the user's choice
            settings = user.overridden(by: folderSettings)
        }
        byFolder[path] = settings
        return settings
    }

    /// The settings in force for `options`' notes folder.
    static func settings(for options: FolderOptions) throws -> ConfigFile {
        do {
            return try settings(forFolder: options.folderPath)
        } catch {
            throw TickError.usage(error.description)
        }
    }

    /// `arguments` with an alias (the first word that is not a global
    /// option or its value) replaced by its words. A command's own name is
    /// never an alias.
    static func expandingAlias(_ arguments: [String], commandNames: Set<String>) throws(ConfigFile.Problem) -> [String] {
        var index = 0
        var dir: String? = nil
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            if Tick.globalValueOptions.contains(argument) {
                if argument == "--dir", index + 1 < arguments.count { dir = arguments[index + 1] }
                index += 2
            } else {
                if argument.hasPrefix("--dir=") { dir = String(argument.dropFirst(6)) }
                index += 1
            }
        }
        guard index < arguments.count, !commandNames.contains(arguments[index]) else { return arguments }
        let settings = try self.settings(forFolder: FolderOptions.folderPath(dir: dir))
        guard let words = settings.alias(arguments[index]) else { return arguments }
        return Array(arguments[..<index]) + words + Array(arguments[(index + 1)...])
    }
}
