/// A small streaming XML tokenizer for what Apple Health writes: it reports start, empty and end
/// tags with their attributes, and skips the XML declaration, processing instructions, comments,
/// CDATA sections, text, and the DOCTYPE with its internal subset.
///
/// Why not libxml2's `xmlTextReader`: Apple's export needs a reader that is tolerant exactly where
/// Apple errs, strict everywhere else, and able to say where a cut file ends. Tried here with
/// Debian 12's libxml2 2.9.14, `xmlTextReaderRead` fails before the first node on the iOS 16 DTD
/// defect (`Tests/HealthInterchangeTests/Fixtures/ios16-malformed-doctype.xml`: an `<!ATTLIST`
/// never closed, a stray `>`), with and without `XML_PARSE_RECOVER`, and fails at a vertical tab
/// (U+000B, which XML 1.0 forbids and Apple writes in device names) in either mode too: working
/// around both would mean rewriting the bytes before libxml2 sees them, which is most of a
/// scanner already. This scanner skips the internal subset without interpreting it (Apple's DTD
/// declares no entities and no defaults), removes and counts forbidden characters, and stops at
/// anything else with its byte offset and line. It also keeps C out of the module and reads about
/// 500,000 records a second here, since it decodes only what the reader asks for.
///
/// The scanner keeps a window of the input (one chunk, plus the unread part of the token that
/// straddles two chunks); a token larger than `maximumTokenSize` is refused. Byte positions it
/// reports are indices into ``bytes``, valid until the next call to ``next()``.
final class XMLScanner {
    /// One attribute of the current start tag: the ranges of its name and of its raw value (between
    /// the quotes, not yet decoded) in ``bytes``, and what the value holds.
    struct Attribute {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
        var flags: ValueFlags
    }

    /// What a raw attribute value holds beyond plain ASCII text: decides how it is decoded.
    struct ValueFlags: OptionSet {
        let rawValue: UInt8
        /// A `&`: an entity or character reference (or a stray ampersand).
        static let ampersand = ValueFlags(rawValue: 1)
        /// A byte below 0x20: tab, line feed and carriage return are normalized to spaces, the others
        /// (forbidden in XML 1.0) removed.
        static let control = ValueFlags(rawValue: 2)
        /// A byte at or above 0x80: UTF-8 to validate.
        static let nonASCII = ValueFlags(rawValue: 4)
        /// A `<`, which XML forbids in a value; kept as written.
        static let lessThan = ValueFlags(rawValue: 8)
    }

    enum Event {
        /// A start tag (`empty`: written `<Name .../>`); its attributes are in ``attributes``.
        case start(nameStart: Int, nameEnd: Int, empty: Bool)
        case end(nameStart: Int, nameEnd: Int)
        /// No more input.
        case endOfInput
    }

    /// Why scanning stopped: input cut inside a token, or bytes that are not XML.
    enum Failure: Error {
        case truncated(offset: Int)
        case malformed(offset: Int, reason: String)
        case tokenTooLarge(offset: Int)
        case unreadable(AppleHealthReadError)
    }

    private let source: ByteSource
    private let chunkSize: Int
    private let maximumTokenSize: Int

    /// The window: `bytes[0..<end]` holds input from absolute offset `baseOffset`.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    private var end = 0
    private var position = 0
    private var baseOffset = 0
    /// Newlines are counted once, up to `countedIndex` (an index into the window); `countedLines`
    /// is how many there are in the input before it.
    private var countedIndex = 0
    private var countedLines = 0
    private var atEndOfInput = false
    /// The largest the window has been, in bytes.
    private(set) var peakCapacity: Int

    /// The attributes of the last start tag, in written order.
    private(set) var attributes: [Attribute] = []
    /// Where the last token began (an index into ``bytes``).
    private(set) var tokenStart = 0

    /// What the DOCTYPE said and how well it was formed.
    private(set) var sawDoctype = false
    /// The number in `<!-- HealthKit Export Version: N -->`, when the internal subset has it.
    private(set) var exportVersion: Int?
    /// Unterminated declarations, stray `>` or `<`, and an internal subset never closed.
    private(set) var doctypeIrregularities = 0
    /// Whether the file began with a UTF-8 byte order mark (skipped).
    private var checkedByteOrderMark = false

    init(source: ByteSource, chunkSize: Int, maximumTokenSize: Int) {
        self.source = source
        self.chunkSize = max(chunkSize, 64)
        self.maximumTokenSize = max(maximumTokenSize, self.chunkSize)
        capacity = 2 * self.chunkSize
        bytes = .allocate(capacity: capacity)
        peakCapacity = capacity
        attributes.reserveCapacity(16)
    }

    deinit {
        bytes.deallocate()
        source.close()
    }

    /// The absolute offset in the input of an index into ``bytes``.
    func offset(of index: Int) -> Int { baseOffset + index }

    /// How many bytes have been consumed.
    var bytesConsumed: Int { baseOffset + position }

    /// The size of the whole input, when known.
    var totalBytes: Int? { source.totalBytes }

    /// The 1-based line of an index into ``bytes``. Lines are counted forward from the last index
    /// asked (or backward, within the window), so asking in file order costs one pass in all.
    func line(of index: Int) -> Int {
        let target = min(max(index, 0), end)
        while countedIndex < target {
            if bytes[countedIndex] == Byte.newline { countedLines += 1 }
            countedIndex += 1
        }
        while countedIndex > target {
            countedIndex -= 1
            if bytes[countedIndex] == Byte.newline { countedLines -= 1 }
        }
        return countedLines + 1
    }

    /// The 1-based line where the input ends (or the window does, before the end).
    var lineAtEnd: Int { line(of: end) }

    /// The next tag, or `endOfInput`.
    func next() throws(Failure) -> Event {
        if !checkedByteOrderMark {
            try skipByteOrderMark()
        }
        while true {
            // Text between tags is skipped.
            var index = position
            while index < end, bytes[index] != Byte.lessThan {
                index += 1
            }
            position = index
            if index == end {
                if atEndOfInput { return .endOfInput }
                try refill(keepingFrom: end)
                continue
            }
            tokenStart = index
            switch try scanToken(at: index) {
            case .event(let event):
                return event
            case .skipped:
                continue
            case .needMore:
                if atEndOfInput {
                    throw .truncated(offset: offset(of: tokenStart))
                }
                try refill(keepingFrom: tokenStart)
            }
        }
    }

    private func skipByteOrderMark() throws(Failure) {
        while end - position < 3, !atEndOfInput {
            try refill(keepingFrom: position)
        }
        if end - position >= 3, bytes[position] == 0xEF, bytes[position + 1] == 0xBB, bytes[position + 2] == 0xBF {
            position += 3
        }
        checkedByteOrderMark = true
    }

    // MARK: - The window

    /// Drops the bytes before `keep`, moves the rest to the front and reads the next chunk.
    private func refill(keepingFrom keep: Int) throws(Failure) {
        _ = line(of: max(keep, countedIndex))
        let kept = end - keep
        if keep > 0 {
            if kept > 0 {
                bytes.update(from: bytes + keep, count: kept)
            }
            baseOffset += keep
            position -= keep
            tokenStart -= keep
            countedIndex -= keep
            end = kept
        }
        if kept >= maximumTokenSize {
            throw .tokenTooLarge(offset: baseOffset)
        }
        if capacity - end < chunkSize {
            let grown = min(max(capacity * 2, end + chunkSize), maximumTokenSize + chunkSize)
            let replacement = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            replacement.update(from: bytes, count: end)
            bytes.deallocate()
            bytes = replacement
            capacity = grown
            peakCapacity = max(peakCapacity, capacity)
        }
        let read: Int
        do {
            read = try source.read(into: bytes + end, count: min(chunkSize, capacity - end))
        } catch {
            throw .unreadable(error)
        }
        if read == 0 {
            atEndOfInput = true
        }
        end += read
    }

    // MARK: - Tokens

    private enum TokenResult {
        case event(Event)
        case skipped
        case needMore
    }

    private func scanToken(at start: Int) throws(Failure) -> TokenResult {
        guard start + 1 < end else { return .needMore }
        let second = bytes[start + 1]
        switch second {
        case Byte.question:
            return skip(until: "?>", from: start + 2)
        case Byte.exclamation:
            if matches("<!--", at: start) {
                return skip(until: "-->", from: start + 4)
            }
            if matches("<![CDATA[", at: start) {
                return skip(until: "]]>", from: start + 9)
            }
            if matches("<!DOCTYPE", at: start) {
                return try scanDoctype(from: start + 9)
            }
            // A prefix of one of the above: wait for more bytes before deciding.
            if end - start < 9 { return .needMore }
            return skip(until: ">", from: start + 2)
        case Byte.slash:
            return try scanEndTag(at: start)
        default:
            guard Byte.isNameStart(second) else {
                throw .malformed(offset: offset(of: start), reason: "a \"<\" that begins no tag")
            }
            return try scanStartTag(at: start)
        }
    }

    /// Whether `literal` is at `index` (false when the window ends first).
    private func matches(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= end else { return false }
        let pointer = literal.utf8Start
        for k in 0..<count where bytes[index + k] != pointer[k] {
            return false
        }
        return true
    }

    private func skip(until terminator: StaticString, from index: Int) -> TokenResult {
        let first = terminator.utf8Start[0]
        var i = index
        while i < end {
            if bytes[i] == first, matches(terminator, at: i) {
                position = i + terminator.utf8CodeUnitCount
                return .skipped
            }
            i += 1
        }
        return .needMore
    }

    private func scanEndTag(at start: Int) throws(Failure) -> TokenResult {
        let nameStart = start + 2
        var i = nameStart
        while i < end, Byte.isNameByte(bytes[i]) {
            i += 1
        }
        let nameEnd = i
        while i < end, Byte.isSpace(bytes[i]) {
            i += 1
        }
        guard i < end else { return .needMore }
        guard bytes[i] == Byte.greaterThan, nameEnd > nameStart else {
            throw .malformed(offset: offset(of: start), reason: "an end tag that is not closed by \">\"")
        }
        position = i + 1
        return .event(.end(nameStart: nameStart, nameEnd: nameEnd))
    }

    private func scanStartTag(at start: Int) throws(Failure) -> TokenResult {
        attributes.removeAll(keepingCapacity: true)
        let nameStart = start + 1
        var i = nameStart
        while i < end, Byte.isNameByte(bytes[i]) {
            i += 1
        }
        let nameEnd = i
        while true {
            while i < end, Byte.isSpace(bytes[i]) {
                i += 1
            }
            guard i < end else { return .needMore }
            let byte = bytes[i]
            if byte == Byte.greaterThan {
                position = i + 1
                return .event(.start(nameStart: nameStart, nameEnd: nameEnd, empty: false))
            }
            if byte == Byte.slash {
                guard i + 1 < end else { return .needMore }
                guard bytes[i + 1] == Byte.greaterThan else {
                    throw .malformed(offset: offset(of: start), reason: "a \"/\" inside a tag not followed by \">\"")
                }
                position = i + 2
                return .event(.start(nameStart: nameStart, nameEnd: nameEnd, empty: true))
            }
            guard Byte.isNameStart(byte) else {
                throw .malformed(offset: offset(of: i), reason: "a tag holds something other than attributes")
            }
            let attributeNameStart = i
            while i < end, Byte.isNameByte(bytes[i]) {
                i += 1
            }
            let attributeNameEnd = i
            while i < end, Byte.isSpace(bytes[i]) {
                i += 1
            }
            guard i < end else { return .needMore }
            guard bytes[i] == Byte.equals else {
                throw .malformed(offset: offset(of: attributeNameStart), reason: "an attribute without \"=\"")
            }
            i += 1
            while i < end, Byte.isSpace(bytes[i]) {
                i += 1
            }
            guard i < end else { return .needMore }
            let quote = bytes[i]
            guard quote == Byte.doubleQuote || quote == Byte.singleQuote else {
                throw .malformed(offset: offset(of: i), reason: "an attribute value not in quotes")
            }
            i += 1
            let valueStart = i
            var flags: UInt8 = 0
            while i < end {
                let byte = bytes[i]
                if byte == quote { break }
                if byte < 0x3D {
                    if byte < 0x20 {
                        flags |= ValueFlags.control.rawValue
                    } else if byte == Byte.ampersand {
                        flags |= ValueFlags.ampersand.rawValue
                    } else if byte == Byte.lessThan {
                        flags |= ValueFlags.lessThan.rawValue
                    }
                } else if byte >= 0x80 {
                    flags |= ValueFlags.nonASCII.rawValue
                }
                i += 1
            }
            guard i < end else { return .needMore }
            attributes.append(
                Attribute(
                    nameStart: attributeNameStart,
                    nameEnd: attributeNameEnd,
                    valueStart: valueStart,
                    valueEnd: i,
                    flags: ValueFlags(rawValue: flags)
                )
            )
            i += 1
        }
    }

    /// Skips `<!DOCTYPE name [internal subset]>`, tolerating the defects of Apple's subset: a
    /// declaration never closed, a stray `>`, and a subset that never ends before the root element.
    private func scanDoctype(from index: Int) throws(Failure) -> TokenResult {
        var i = index
        // The name and an external identifier, up to "[" or ">".
        while i < end, bytes[i] != Byte.openBracket, bytes[i] != Byte.greaterThan {
            if bytes[i] == Byte.doubleQuote || bytes[i] == Byte.singleQuote {
                let quote = bytes[i]
                i += 1
                while i < end, bytes[i] != quote {
                    i += 1
                }
            }
            i += 1
        }
        guard i < end else { return .needMore }
        if bytes[i] == Byte.greaterThan {
            position = i + 1
            sawDoctype = true
            return .skipped
        }
        i += 1
        var irregularities = 0
        var version: Int?
        var inDeclaration = false
        while true {
            guard i < end else { return .needMore }
            let byte = bytes[i]
            if byte == Byte.lessThan {
                guard i + 1 < end else { return .needMore }
                let next = bytes[i + 1]
                if next == Byte.exclamation {
                    guard i + 4 <= end else { return .needMore }
                    if matches("<!--", at: i) {
                        var j = i + 4
                        while j < end, !(bytes[j] == Byte.hyphen && matches("-->", at: j)) {
                            j += 1
                        }
                        guard j < end else { return .needMore }
                        version = version ?? exportVersion(inComment: i + 4..<j)
                        i = j + 3
                        continue
                    }
                    if inDeclaration { irregularities += 1 }
                    inDeclaration = true
                    i += 2
                    continue
                }
                if next == Byte.question {
                    if inDeclaration { irregularities += 1 }
                    inDeclaration = true
                    i += 2
                    continue
                }
                if Byte.isNameStart(next) {
                    // An element's start tag: the subset was never closed. The DOCTYPE ends here.
                    irregularities += 1
                    position = i
                    finishDoctype(version: version, irregularities: irregularities)
                    return .skipped
                }
                irregularities += 1
                i += 1
                continue
            }
            if byte == Byte.greaterThan {
                if inDeclaration {
                    inDeclaration = false
                } else {
                    irregularities += 1
                }
                i += 1
                continue
            }
            if byte == Byte.closeBracket {
                var j = i + 1
                while j < end, Byte.isSpace(bytes[j]) {
                    j += 1
                }
                guard j < end else { return .needMore }
                if bytes[j] == Byte.greaterThan {
                    if inDeclaration { irregularities += 1 }
                    position = j + 1
                    finishDoctype(version: version, irregularities: irregularities)
                    return .skipped
                }
            }
            i += 1
        }
    }

    private func finishDoctype(version: Int?, irregularities: Int) {
        sawDoctype = true
        exportVersion = version
        doctypeIrregularities += irregularities
    }

    /// The N of "HealthKit Export Version: N" in a comment's text, if it is there.
    private func exportVersion(inComment range: Range<Int>) -> Int? {
        let marker: StaticString = "Export Version:"
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "E"), i + marker.utf8CodeUnitCount <= range.upperBound, matches(marker, at: i) {
                var j = i + marker.utf8CodeUnitCount
                while j < range.upperBound, bytes[j] == Byte.space {
                    j += 1
                }
                var value = 0
                var digits = 0
                while j < range.upperBound, Byte.isDigit(bytes[j]), digits < 6 {
                    value = value * 10 + Int(bytes[j] - Byte.zero)
                    digits += 1
                    j += 1
                }
                return digits > 0 ? value : nil
            }
            i += 1
        }
        return nil
    }
}

/// The bytes the scanner and the reader compare against.
enum Byte {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let exclamation = UInt8(ascii: "!")
    static let doubleQuote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let ampersand = UInt8(ascii: "&")
    static let singleQuote = UInt8(ascii: "'")
    static let hyphen = UInt8(ascii: "-")
    static let slash = UInt8(ascii: "/")
    static let zero = UInt8(ascii: "0")
    static let semicolon = UInt8(ascii: ";")
    static let lessThan = UInt8(ascii: "<")
    static let equals = UInt8(ascii: "=")
    static let greaterThan = UInt8(ascii: ">")
    static let question = UInt8(ascii: "?")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == space || byte == newline || byte == tab || byte == carriageReturn
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= zero && byte <= UInt8(ascii: "9")
    }

    /// A byte that may begin an element or attribute name (letters, `_`, `:`, and any non-ASCII).
    static func isNameStart(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    /// A byte that may continue a name.
    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte) || byte == hyphen || byte == UInt8(ascii: ".")
    }
}
