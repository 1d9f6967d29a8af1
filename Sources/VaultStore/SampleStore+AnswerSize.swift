public import HealthModel

extension SampleStore {
    /// The most objects one query answer holds. A query that matches more (without a limit, or
    /// with a larger one) is refused once one row past it is read, before any sample is built, so
    /// no request builds an answer it could never send: 100,000 samples are more than a frame of
    /// the default 16 MiB carries. Only rows the caller may see are counted.
    public static let maximumAnswerObjects = 100_000

    /// The SQL `LIMIT` for a query's `limit` (0: none): never more than one past the cap, so an
    /// answer over it shows without reading further.
    static func sqlLimit(_ limit: Int) -> Int {
        limit > 0 ? min(limit, maximumAnswerObjects + 1) : maximumAnswerObjects + 1
    }

    /// Refuses `count` rows when they are more than an answer holds.
    static func checkAnswerSize(_ count: Int, of what: String) throws(HealthError) {
        guard count <= maximumAnswerObjects else {
            throw HealthError(
                .dataSizeExceeded,
                "more than \(maximumAnswerObjects) \(what) match; ask for fewer with a limit or a shorter date range"
            )
        }
    }
}
