public import Foundation

/// Finds a number JSON's grammar allows but a double cannot hold (`1e400`): Foundation's decoder
/// refuses the whole text as "not valid JSON", with no path, and this says which member it was.
enum JSONNumberRange {
    /// The path (`params.objects[0].quantity.value`) and the text of the first number in `data`
    /// whose magnitude is beyond the largest double, or nil when there is none or the text is
    /// not JSON. Call it on a text ``JSONNesting`` found within its depth.
    static func firstOutOfRange(in data: Data) -> (path: String, number: String)? {
        data.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.value(at: "")
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        /// Set once a number out of range is found, or the text turns out not to be JSON.
        var done = false

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// Scans one value at `path`; the first number out of range below it, if any.
        mutating func value(at path: String) -> (path: String, number: String)? {
            skipSpace()
            guard !done, index < bytes.count else {
                done = true
                return nil
            }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return nil
                }
                while !done {
                    skipSpace()
                    guard let key = string() else { break }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { break }
                    index += 1
                    if let found = value(at: path.isEmpty ? key : path + "." + key) { return found }
                    skipSpace()
                    guard index < bytes.count else { break }
                    if bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        return nil
                    }
                    guard bytes[index] == UInt8(ascii: ",") else { break }
                    index += 1
                }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return nil
                }
                var element = 0
                while !done {
                    if let found = value(at: path + "[\(element)]") { return found }
                    skipSpace()
                    guard index < bytes.count else { break }
                    if bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        return nil
                    }
                    guard bytes[index] == UInt8(ascii: ",") else { break }
                    index += 1
                    element += 1
                }
            case UInt8(ascii: "\""):
                if string() != nil { return nil }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                guard let number = Double(text) else { break }
                if number.isInfinite {
                    done = true
                    return (path, text)
                }
                return nil
            default:
                // true, false, null
                while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index]) {
                    index += 1
                }
                return nil
            }
            done = true
            return nil
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
        }

        /// A string at `index` (its opening quote), read with its escapes; nil if it is not one.
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                done = true
                return nil
            }
            let start = index
            index += 1
            var escapes = false
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    escapes = true
                    index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    let token = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    if !escapes {
                        return String(decoding: token.dropFirst().dropLast(), as: UTF8.self)
                    }
                    guard let text = try? JSONDecoder().decode(String.self, from: Data(token)) else {
                        done = true
                        return nil
                    }
                    return text
                default:
                    index += 1
                }
            }
            done = true
            return nil
        }
    }
}
