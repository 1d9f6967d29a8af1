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
            guard let number = scanner.value() else { return nil }
            return (scanner.pathText(), number)
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        /// Set once a number out of range is found, or the text turns out not to be JSON.
        var done = false
        /// Where the scan stands: each member's name as the bytes of its string token (quotes
        /// included), each element's index. Made into text only for the number found.
        var path: [PathPart] = []

        enum PathPart {
            case member(Range<Int>)
            case element(Int)
        }

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// The path to where the scan stopped, as ``codingPathString`` writes one.
        func pathText() -> String {
            var text = ""
            for part in path {
                switch part {
                case .element(let index):
                    text += "[\(index)]"
                case .member(let range):
                    let token = Data(UnsafeRawBufferPointer(rebasing: bytes[range]))
                    let name = (try? JSONDecoder().decode(String.self, from: token)) ?? ""
                    text += text.isEmpty ? name : "." + name
                }
            }
            return text
        }

        /// Scans one value; the text of the first number out of range in it, if any, with
        /// ``path`` left pointing at it.
        mutating func value() -> String? {
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
                    path.append(.member(key))
                    if let found = value() { return found }
                    path.removeLast()
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
                    path.append(.element(element))
                    if let found = value() { return found }
                    path.removeLast()
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
                    return text
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

        /// The bytes of a string token at `index` (its opening quote to its closing one, escapes
        /// passed over, not read); nil if it is not one.
        mutating func string() -> Range<Int>? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                done = true
                return nil
            }
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"):
                    index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<index
                default:
                    index += 1
                }
            }
            done = true
            return nil
        }
    }
}
