extension Unicode.Scalar {
    /// A tab, a Unicode space separator (general category Zs: the space, the no-break space, the
    /// ideographic space, ...) or the zero-width space (U+200B): what Foundation's
    /// `CharacterSet.whitespaces` holds on Linux.
    var isFieldWhitespace: Bool {
        value == 0x20 || value == 0x09
            || (value > 0x7F && (value == 0x200B || properties.generalCategory == .spaceSeparator))
    }
}

extension Substring {
    /// Without the tabs and space separators at either end, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` gives it, without that method's trip through
    /// `NSString` and UTF-16 (two thirds of a CSV import's check before).
    func trimmingWhitespace() -> Substring {
        // Most fields begin and end with a byte of ASCII that is neither.
        let utf8 = utf8
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80, first != 0x20, first != 0x09,
            last != 0x20, last != 0x09
        {
            return self
        }
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start].isFieldWhitespace { scalars.formIndex(after: &start) }
        while start < end {
            let last = scalars.index(before: end)
            guard scalars[last].isFieldWhitespace else { break }
            end = last
        }
        return self[start..<end]
    }
}

extension String {
    /// Without the tabs and space separators at either end (`Substring.trimmingWhitespace()`);
    /// `self` when there are none.
    func trimmingWhitespace() -> String {
        let trimmed = self[...].trimmingWhitespace()
        return trimmed.startIndex == startIndex && trimmed.endIndex == endIndex ? self : String(trimmed)
    }
}
