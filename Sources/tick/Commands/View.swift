import ArgumentParser
import TickModel
import TickSyntax

extension Tick {
    /// `tick view [NAME]`: runs a saved view, or lists them.
    struct View: TickCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "view",
            abstract: "Run a saved view (a named query with its sort and groups), or list the views.",
            discussion: """
                Views are saved under views: in ~/.config/tick/config.yml ($XDG_CONFIG_HOME) or in \
                the notes folder's .tick.yml (whose views win). Words after the name narrow the \
                view; the options of tick query apply (--json, --sort, --limit, ...). See \
                docs/CONFIG.md.

                  views:
                    work: {query: "open #work", sort: "priority,due", group-by: list}
                    soon: "open due <= +7d"

                Examples:
                  tick view
                  tick view work
                  tick view work '!high' --json
                """)

        @OptionGroup var folder: FolderOptions
        @Argument(help: "The view's name; none lists the views.") var name: String?
        @Argument(parsing: .captureForPassthrough, help: "More query words and tick query's options.") var rest: [String] = []

        func execute() throws {
            // Options after the name are the query's; --dir among them names the folder whose views count.
            var dirAfterName: String? = nil
            for (index, word) in rest.enumerated() {
                if word == "--dir", index + 1 < rest.count { dirAfterName = rest[index + 1] }
                if word.hasPrefix("--dir=") { dirAfterName = String(word.dropFirst(6)) }
            }
            let settings: ConfigFile
            do {
                settings = try Configuration.settings(forFolder: dirAfterName ?? folder.folderPath)
            } catch {
                throw TickError.usage(error.description)
            }
            guard let name else {
                if settings.views.isEmpty {
                    print(
                        "No saved views yet: add them under views: in \(Configuration.userPath ?? "~/.config/tick/config.yml") or the notes folder's .tick.yml (see tick help view)."
                    )
                }
                for (viewName, view) in settings.views {
                    var line = "\(viewName)  \(view.query)"
                    if let sort = view.sort { line += "  --sort \(sort.map(\.rawValue).joined(separator: ","))" }
                    if let group = view.groupBy { line += "  --group-by \(group.rawValue)" }
                    print(TerminalText.safe(line))
                }
                return
            }
            guard let view = settings.view(name) else {
                let names = settings.views.map(\.name)
                let hint = NearestWord.nearest(to: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw TickError.usage(
                    "no view named '\(name)'\(hint); \(names.isEmpty ? "no views are saved yet" : "views: " + names.joined(separator: ", "))")
            }
            // The view as a query: its words (and the narrowing ones), its
            // sort and groups unless the options given say otherwise.
            var arguments = ["(" + view.query + ")"]
            var options: [String] = []
            var index = 0
            while index < rest.count {
                let word = rest[index]
                if word.hasPrefix("-") {
                    options.append(contentsOf: rest[index...])
                    break
                }
                arguments.append(word)
                index += 1
            }
            if let sort = view.sort, !options.contains(where: { $0 == "--sort" || $0.hasPrefix("--sort=") }) {
                options += ["--sort", sort.map(\.rawValue).joined(separator: ",")]
            }
            if let group = view.groupBy, !options.contains(where: { $0 == "--group-by" || $0.hasPrefix("--group-by=") }) {
                options += ["--group-by", group.rawValue]
            }
            if let dir = folder.dir { options += ["--dir", dir] }
            if let today = folder.today { options += ["--today", today] }
            var query: Query
            do {
                query = try Query.parse(arguments + options)
            } catch {
                throw TickError.usage(Query.message(for: error))
            }
            try query.execute()
        }
    }
}
