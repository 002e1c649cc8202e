import TickModel
import TickRecords

/// Which items wait for others: Obsidian Tasks' dependencies (an item's
/// `dependsOn` ids name the items, by block id, that must be finished
/// first).
///
/// Guarantees, as Obsidian Tasks defines them: an item is *blocked* when it
/// is open or in progress and one of the items it depends on is open or in
/// progress; it is *blocking* when it is open or in progress and an open or
/// in-progress item depends on it. Only direct dependencies count; an id
/// that several items carry stands for all of them.
public struct DependencyIndex: Sendable, Equatable {
    /// Ids of open and in-progress items.
    let unfinishedIDs: Set<String>
    /// Ids that an open or in-progress item depends on.
    let awaitedIDs: Set<String>

    /// No dependencies at all.
    public static let none = DependencyIndex(unfinishedIDs: [], awaitedIDs: [])

    init(unfinishedIDs: Set<String>, awaitedIDs: Set<String>) {
        self.unfinishedIDs = unfinishedIDs
        self.awaitedIDs = awaitedIDs
    }

    /// The index of every item of a folder.
    public init<Records: Sequence>(_ records: Records) where Records.Element == EncodedListedItem {
        var unfinished = Set<String>()
        var awaited = Set<String>()
        for record in records where record.status.isOpen {
            if let id = record.id?.string { unfinished.insert(id) }
            if let ids = record.dependsOnText { awaited.formUnion(ItemMetadata.dependencyIDs(ids.string)) }
        }
        self.init(unfinishedIDs: unfinished, awaitedIDs: awaited)
    }

    public func isBlocked(_ record: EncodedListedItem) -> Bool {
        guard record.status.isOpen, let ids = record.dependsOnText, !unfinishedIDs.isEmpty else { return false }
        return ItemMetadata.dependencyIDs(ids.string).contains(where: unfinishedIDs.contains)
    }

    public func isBlocking(_ record: EncodedListedItem) -> Bool {
        guard record.status.isOpen, !awaitedIDs.isEmpty, let id = record.id else { return false }
        return awaitedIDs.contains(id.string)
    }
}

extension DependencyIndex {
    /// One problem of `problems(in:)`.
    public struct Problem: Sendable, Equatable {
        public var path: String
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// Problems with the dependencies among `documents` (a whole folder),
    /// for `tick check`: an id two items carry, a dependency on an id no
    /// item carries, and a cycle (an item that waits, through others, for
    /// itself), each at the token concerned.
    public static func problems(in documents: [Document]) -> [Problem] {
        typealias Holder = (document: Document, item: TaskItem)
        var carriers: [String: [Holder]] = [:]
        var dependents: [Holder] = []
        for document in documents {
            for item in document.items {
                if let id = item.metadata.id { carriers[id, default: []].append((document, item)) }
                if !item.metadata.dependsOn.isEmpty { dependents.append((document, item)) }
            }
        }
        var problems: [Problem] = []
        func problem(_ holder: Holder, _ field: MetadataField, _ message: String) {
            let source = holder.document.source
            let start = holder.item.runs.tokens.first { $0.field == field }?.range.lowerBound ?? holder.item.titleRange.lowerBound
            let column =
                source.lineStarts.count >= holder.item.line && start <= source.bytes.count
                ? start - source.lineStarts[holder.item.line - 1] + 1 : 1
            problems.append(Problem(path: holder.document.path, line: holder.item.line, column: max(column, 1), message: message))
        }
        for (id, holders) in carriers.sorted(by: { $0.key < $1.key }) where holders.count > 1 {
            for holder in holders {
                let others = holders.filter { $0.document.path != holder.document.path || $0.item.line != holder.item.line }
                    .map { $0.document.address(of: $0.item) }.joined(separator: ", ")
                problem(holder, .blockID, "duplicate id '\(id)': \(others) has it too; give each item its own id")
            }
        }
        for holder in dependents {
            for id in holder.item.metadata.dependsOn where carriers[id] == nil {
                problem(
                    holder, .dependsOn,
                    "depends on '\(id)', an id no item has; fix the id, or remove the dependency (tick edit \(holder.document.address(of: holder.item)) --no-after)"
                )
            }
        }
        // Cycles: a depth-first walk over the "depends on" edges between ids.
        var state: [String: Int] = [:] // 1: on the current path, 2: done
        var reported = Set<[String]>()
        func visit(_ id: String, path: [String]) {
            if state[id] == 2 { return }
            if state[id] == 1 {
                let cycle = Array(path[(path.firstIndex(of: id) ?? 0)...]) + [id]
                if reported.insert(Set(cycle).sorted()).inserted, let holder = carriers[id]?.first {
                    problem(
                        holder, .dependsOn,
                        "dependency cycle \(cycle.joined(separator: " → ")): none of these items can start; remove one of the dependencies")
                }
                return
            }
            state[id] = 1
            for holder in carriers[id] ?? [] {
                for next in holder.item.metadata.dependsOn where carriers[next] != nil { visit(next, path: path + [id]) }
            }
            state[id] = 2
        }
        for id in carriers.keys.sorted() { visit(id, path: []) }
        return problems
    }
}
