/// Puts decoding errors at the field where they happened, so a bad unit deep in a correlation
/// reports `objects[0].quantity.unit`, not `unit`.
extension HealthError {
    /// The error about the value decoded at `codingPath`: its field becomes that path.
    func field(at codingPath: [any CodingKey]) -> HealthError {
        var copy = self
        copy.field = codingPathString(codingPath) ?? field
        return copy
    }

    /// An error from validating an object decoded at `codingPath`: its field, relative to the
    /// object, is prefixed with that path.
    func located(at codingPath: [any CodingKey]) -> HealthError {
        guard let prefix = codingPathString(codingPath) else { return self }
        return nested(in: prefix)
    }
}

/// `objects[1].quantity.unit` for a coding path; nil for the root.
func codingPathString(_ codingPath: [any CodingKey]) -> String? {
    guard !codingPath.isEmpty else { return nil }
    var path = ""
    for key in codingPath {
        if let index = key.intValue {
            path += "[\(index)]"
        } else {
            path += path.isEmpty ? key.stringValue : "." + key.stringValue
        }
    }
    return path
}

/// Runs the validating part of a decoder and locates its errors at the decoder's path.
func validating<T>(_ decoder: any Decoder, _ body: () throws(HealthError) -> T) throws(HealthError) -> T {
    do {
        return try body()
    } catch {
        throw error.located(at: decoder.codingPath)
    }
}
