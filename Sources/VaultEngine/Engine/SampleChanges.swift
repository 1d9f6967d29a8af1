import HealthModel

/// What one write changed, for those told of changes (observers, background delivery): each
/// changed type with the apps whose samples of it changed, and the change numbers the write
/// used (`after` excluded, `through` included), so that whether a reader with a window sees
/// the change is decided over the write's own rows.
struct SampleChanges: Sendable {
    var sources: [SampleType: Set<String>]
    var after: Int64
    var through: Int64

    init(_ sources: [SampleType: Set<String>], after: Int64, through: Int64) {
        self.sources = sources
        self.after = after
        self.through = through
    }

    /// Every type in `types` changed by `app`.
    init(_ types: some Sequence<SampleType>, by app: String, after: Int64, through: Int64) {
        self.init(Dictionary(uniqueKeysWithValues: Set(types).map { ($0, [app]) }), after: after, through: through)
    }

    var isEmpty: Bool { sources.isEmpty }
}
