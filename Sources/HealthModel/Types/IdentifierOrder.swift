extension Sequence where Element: CustomStringConvertible {
    /// The elements in the byte order of their identifiers (descriptions): the one order every
    /// listing, audit entry and wire answer uses, the same on every machine and locale.
    public func sortedByIdentifier() -> [Element] {
        sorted { $0.description.utf8.lexicographicallyPrecedes($1.description.utf8) }
    }
}
