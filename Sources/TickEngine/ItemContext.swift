import Foundation
import TickModel
import TickRecords

/// What an item's JSON and display need beyond the item itself: the day
/// (for urgency) and the folder's dependencies (for `blocked`).
///
/// The dependencies are worked out on first use, once (a pass over every
/// item of the folder): only an item that depends on another can be
/// blocked, so a folder without dependencies never pays for it.
public final class ItemContext: @unchecked Sendable {
    // Sendable: `built` is only read and written under `lock`.
    public let today: TaskDate
    private let makeDependencies: @Sendable () -> DependencyIndex
    private let lock = NSLock()
    private var built: DependencyIndex?

    public init(today: TaskDate, dependencies: @escaping @Sendable () -> DependencyIndex) {
        self.today = today
        self.makeDependencies = dependencies
    }

    public convenience init(today: TaskDate, dependencies: DependencyIndex) {
        self.init(today: today) { dependencies }
    }

    /// The folder's dependencies, worked out on first use.
    public var dependencies: DependencyIndex {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let index = makeDependencies()
        built = index
        return index
    }

    /// True when `record` is blocked; reads the dependencies only for an
    /// item that depends on something.
    public func isBlocked(_ record: EncodedListedItem) -> Bool {
        guard record.status.isOpen, record.dependsOnText != nil else { return false }
        return dependencies.isBlocked(record)
    }
}
