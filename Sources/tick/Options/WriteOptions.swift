import ArgumentParser

/// Options every command that changes files takes.
struct WriteOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the change as a unified diff (as `diff -u` would) and write nothing.")
    var dryRun = false
}

/// How a command that names items may narrow the search.
struct ItemSearchOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("Look for ITEM only in this list (path, file name or name).", valueName: "list"),
        completion: Completions.lists)
    var list: String?
}
