/// The names closest to one that names nothing, for "did you mean" in a message: the way types
/// are suggested (docs/NAMES.md), for any list of names (the audit log's operations).
public enum ClosestNames {
    /// Those of `names` within a few typing mistakes of `text` (an edit distance, a swap of
    /// neighbours counting one, of at most a third of its length, at least 1; case, `_`, `-`, `.`
    /// and spaces ignored), then those that contain it or that it contains (three letters or
    /// more); the closest first, at most `limit`.
    public static func to(_ text: String, among names: [String], limit: Int = 3) -> [String] {
        let key = NameIndex.key(text)
        guard !key.isEmpty else { return [] }
        let allowed = max(1, key.count / 3)
        var scored: [(score: Int, name: String)] = []
        for name in names {
            let candidate = NameIndex.key(name)
            let distance = NameIndex.distance(key, candidate, atMost: allowed)
            if distance <= allowed {
                scored.append((distance, name))
            } else if key.count >= 3, candidate.contains(key) || key.contains(candidate) {
                scored.append((allowed + 1 + abs(candidate.count - key.count), name))
            }
        }
        var seen: Set<String> = []
        return scored.sorted { ($0.score, $0.name) < ($1.score, $1.name) }.compactMap {
            seen.insert($0.name).inserted ? $0.name : nil
        }
        .prefix(limit).map { $0 }
    }
}
