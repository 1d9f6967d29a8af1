import Foundation

/// Text compared and hashed by its UTF-8 bytes, as SQLite compares it. Swift's `String` equality
/// follows Unicode canonical equivalence ("é" precomposed equals "e" + U+0301), so a cache keyed by
/// `String` would give two different stored strings one row id.
struct ExactString: Hashable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: ExactString, rhs: ExactString) -> Bool {
        equal(lhs.string, rhs.string)
    }

    /// Whether two strings hold the same UTF-8 bytes.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                // One string shared (an import's source, a revision kept from the last sample).
                a.baseAddress == b.baseAddress || a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
    }

    static func equal(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let a?, let b?): equal(a, b)
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// Several optional texts compared by their bytes: the identity of a source revision or a device.
struct ExactStrings: Hashable {
    let parts: [ExactString?]

    init(_ parts: [String?]) {
        self.parts = parts.map { $0.map(ExactString.init) }
    }
}

/// Row ids of interned texts (types, app ids, units), keyed by bytes, with the last one asked for
/// kept aside: a batch usually repeats one, and comparing equal strings is cheaper than hashing.
struct InternCache {
    private var ids: [ExactString: Int64] = [:]
    private var last: (ExactString, Int64)?

    /// The id of `text`, from the cache or else from `insert` (which finds or adds the row).
    mutating func id(for text: String, orInsert insert: () throws -> Int64) rethrows -> Int64 {
        let key = ExactString(text)
        if let last, last.0 == key { return last.1 }
        let id = try ids[key] ?? insert()
        ids[key] = id
        last = (key, id)
        return id
    }
}
