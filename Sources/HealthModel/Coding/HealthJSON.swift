public import Foundation

/// The JSON coders that give HealthVault's values their stable wire form.
///
/// Keys sorted, slashes unescaped, dates as RFC 3339 with fractional seconds (``RFC3339``).
/// Everything in `HealthModel` round-trips through these coders; other coders work but give
/// Foundation's default date form.
public enum HealthJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            // A date the form cannot carry fails loudly rather than changing on the way.
            guard RFC3339.representableRange.contains(date) else {
                throw EncodingError.invalidValue(
                    date,
                    EncodingError.Context(
                        codingPath: encoder.codingPath,
                        debugDescription: "a date outside the years 0000-9999 has no RFC 3339 form"
                    )
                )
            }
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            guard let date = RFC3339.date(from: string), RFC3339.representableRange.contains(date) else {
                throw HealthError.invalidArgument(
                    "not an RFC 3339 date between the years 0000 and 9999 (as 2026-11-22T10:15:30.250Z)",
                    field: codingPathString(decoder.codingPath)
                )
            }
            return date
        }
        return decoder
    }

    /// Encodes a value to its wire JSON.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try encoder().encode(value)
    }

    /// What JSON value a decoder wanted, in JSON's words: "a number", "a string", "an object".
    static func jsonKind(of type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "a whole number"
        case is any BinaryFloatingPoint.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).hasPrefix("Array<")
                ? "a list" : String(describing: type).hasPrefix("Dictionary<") ? "an object" : "another kind of value"
        }
    }

    /// Decodes a value from its wire JSON. Anything wrong (malformed JSON, a missing field, an
    /// invalid value, a number beyond a double's range, nesting deeper than
    /// ``JSONNesting/maximumDepth``) throws a ``HealthError`` with code `invalidArgument` naming
    /// the field.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(HealthError) -> T {
        guard JSONNesting.isWithin(data) else { throw JSONNesting.tooDeep() }
        do {
            return try decoder().decode(type, from: data)
        } catch let error as HealthError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidArgument("missing field", field: codingPathString(context.codingPath + [key]))
        } catch let DecodingError.typeMismatch(expected, context), let DecodingError.valueNotFound(expected, context) {
            // Said in JSON's words, not the decoder's (which names Swift types).
            throw .invalidArgument(
                "wrong type of value: expected \(jsonKind(of: expected))",
                field: codingPathString(context.codingPath)
            )
        } catch let DecodingError.dataCorrupted(context) {
            // Foundation's decoder refuses a number beyond a double's range (`1e400`) as "not valid
            // JSON", though JSON's grammar allows it: say which member holds it.
            if context.codingPath.isEmpty, let (path, number) = JSONNumberRange.firstOutOfRange(in: data) {
                let shown = number.count <= 40 ? number : number.prefix(40) + "… (\(number.count) characters)"
                throw .invalidArgument(
                    "the number \(shown) is beyond the range of a double (about ±1.8e308)",
                    field: path
                )
            }
            // Foundation's decoder says "not valid JSON", with no path, of a well-formed document
            // whose number does not fit the whole-number field it is read into: say that instead.
            if context.codingPath.isEmpty,
                (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
            {
                throw .invalidArgument(
                    "a number does not fit its field: a fraction, or a number too large, where a whole number is expected"
                )
            }
            // Foundation's words for a string that is no UUID name its Swift type: say it in JSON's.
            if context.debugDescription.contains("invalid UUID string") {
                throw .invalidArgument(
                    "not a UUID: 32 hexadecimal digits in groups of 8, 4, 4, 4 and 12, with hyphens",
                    field: codingPathString(context.codingPath)
                )
            }
            throw .invalidArgument(
                "malformed JSON: \(context.debugDescription)",
                field: codingPathString(context.codingPath)
            )
        } catch {
            throw .invalidArgument("malformed JSON: \(error)")
        }
    }
}
