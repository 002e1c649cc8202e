/// The keys results can be grouped by (SPEC §4), plus `day`, which the
/// `scheduled` smart group uses.
public enum GroupKey: String, Sendable, CaseIterable {
    /// One group per list, in list order.
    case list
    /// One group per section of each list ("List › Section"), in list order
    /// then file order; items above every heading form a group named after the list.
    case section
    /// Urgent first, lowest last.
    case priority
    /// Overdue, Today, Tomorrow, This week (to Sunday), Later, No date;
    /// done or cancelled items due before today go to Earlier.
    case due
    /// One group per tag, by name; an item with several tags is in each of
    /// their groups, items without tags are in "No tag", last.
    case tag
    /// Open, in progress, done, cancelled.
    case status
    /// One group per folder of the list's path ("." for the root), by path.
    case folder
    /// One group per due day (ISO date), earliest first; "No date" last.
    case day
}
