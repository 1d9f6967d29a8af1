/// The one escaping rule of the report: every text and attribute value that did not come from
/// this module's own literals passes through ``escape(_:)``, so a source's name, an app id or a
/// type identifier can never open a tag, close an attribute or start a script.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references (safe in element
    /// content and in double- or single-quoted attribute values alike), and control characters
    /// other than tab and newline dropped.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                // C0 and C1 controls, and the noncharacters HTML forbids, are not text anyone wrote.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || (0xFDD0...0xFDEF).contains(scalar.value)
                    || scalar.value & 0xFFFE == 0xFFFE
                {
                    continue
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// A page under construction: text appended in order, escaped unless it is this module's markup.
struct HTMLWriter {
    private(set) var text = ""

    init() {
        text.reserveCapacity(1 << 16)
    }

    /// Markup written by this module (never data).
    mutating func raw(_ markup: String) {
        text += markup
    }

    /// Data, escaped.
    mutating func text(_ data: String) {
        text += HTML.escape(data)
    }

    /// `<name attributes>` … `</name>`, the attributes' values escaped, `body` writing the content.
    mutating func element(
        _ name: String,
        _ attributes: KeyValuePairs<String, String> = [:],
        _ body: (inout HTMLWriter) -> Void
    ) {
        open(name, attributes)
        body(&self)
        text += "</\(name)>"
    }

    /// `<name attributes>text</name>`, the text escaped.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text data: String) {
        open(name, attributes)
        text += HTML.escape(data)
        text += "</\(name)>"
    }

    /// An opening tag (or a void element's only tag).
    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        text += "<\(name)"
        for (key, value) in attributes {
            text += " \(key)=\"\(HTML.escape(value))\""
        }
        text += ">"
    }
}
