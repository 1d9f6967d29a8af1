import Foundation

/// Reads what HealthKit reads out of a CDA document (HL7 Clinical Document Architecture,
/// release 2): its title, the patient's name, the author's name and the custodian's name; and
/// refuses a document that is not well-formed XML or not a CDA `ClinicalDocument`.
///
/// Why a reader of its own in the model, rather than HealthInterchange's `XMLScanner` or
/// libxml2: a document sample checks itself when it is made, as every sample does, so the check
/// belongs where the sample is (the model depends on Foundation alone, and the import module
/// depends on the model, not the other way round). The scanner there is tuned to Apple's export:
/// tolerant of Apple's defects, blind to text. This reader is strict and small: UTF-8 only, the
/// five predefined entities and character references only, no DOCTYPE (CDA documents are
/// described by an XML schema, never a DTD, and refusing one refuses entity expansion and
/// external entities with it), namespaces resolved. It checks the structure the CDA schema
/// requires of a `ClinicalDocument` (typeId, id, code, effectiveTime, confidentialityCode,
/// recordTarget, author, custodian, component), not the whole schema.
struct CDADocumentReader {
    /// The HL7 version 3 namespace every CDA element is in.
    static let namespace = "urn:hl7-org:v3"

    /// What the reader extracts.
    struct Extract: Hashable {
        var title: String
        var patientName: String
        var authorName: String
        var custodianName: String
    }

    /// One element: its namespace and local name, and its content in order.
    final class Element {
        let namespace: String?
        let name: String
        var children: [Element] = []
        /// The element's text content and its children's, an element boundary read as a space.
        var parts: [Part] = []

        enum Part {
            case text(String)
            case element(Element)
        }

        init(namespace: String?, name: String) {
            self.namespace = namespace
            self.name = name
        }

        /// The first child in the CDA namespace with this local name.
        func child(_ name: String) -> Element? {
            children.first { $0.name == name && $0.namespace == CDADocumentReader.namespace }
        }

        /// The element at a path of child names, each the first of its name.
        func descendant(_ path: [String]) -> Element? {
            var element: Element? = self
            for name in path { element = element?.child(name) }
            return element
        }

        /// Every piece of text inside, element boundaries read as spaces, runs of white space
        /// made one space, trimmed.
        var text: String {
            var pieces: [String] = []
            func collect(_ element: Element) {
                for part in element.parts {
                    switch part {
                    case .text(let text): pieces.append(text)
                    case .element(let child):
                        pieces.append(" ")
                        collect(child)
                        pieces.append(" ")
                    }
                }
            }
            collect(self)
            return pieces.joined().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                .joined(separator: " ")
        }
    }

    /// Why a document was refused: a sentence for a person, with the line where the XML broke.
    struct Failure: Error {
        let message: String
    }

    /// The most nested elements a document may have (the reader recurses on nothing, but keeps a
    /// stack; a document deeper than this is refused rather than held).
    static let maximumDepth = 256

    /// Extracts the four names from `bytes`, or throws a ``Failure`` saying why it is not a CDA
    /// document.
    static func read(_ bytes: [UInt8]) throws(Failure) -> Extract {
        var parser = Parser(bytes)
        let root = try parser.document()
        guard root.namespace == namespace, root.name == "ClinicalDocument" else {
            let found = root.namespace.map { "{\($0)}" } ?? ""
            throw Failure(
                message:
                    "the root element is \(found)\(root.name), not a CDA ClinicalDocument in the \(namespace) namespace"
            )
        }
        for required in [
            "typeId", "id", "code", "effectiveTime", "confidentialityCode", "recordTarget", "author", "custodian",
            "component",
        ] where root.child(required) == nil {
            throw Failure(message: "the ClinicalDocument has no \(required), which the CDA standard requires")
        }
        return Extract(
            title: root.child("title")?.text ?? "",
            patientName: root.descendant(["recordTarget", "patientRole", "patient", "name"])?.text ?? "",
            authorName: root.descendant(["author", "assignedAuthor", "assignedPerson", "name"])?.text ?? "",
            custodianName: root.descendant([
                "custodian", "assignedCustodian", "representedCustodianOrganization", "name",
            ])?.text ?? ""
        )
    }

    /// A strict XML 1.0 parser over UTF-8 bytes, building the element tree.
    struct Parser {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        init(_ bytes: [UInt8]) {
            // A UTF-8 byte order mark is allowed and skipped.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                self.bytes = Array(bytes.dropFirst(3))
            } else {
                self.bytes = bytes
            }
        }

        func fail(_ reason: String) -> Failure {
            Failure(message: "the document is not well-formed XML: \(reason) (line \(line))")
        }

        var atEnd: Bool { position >= bytes.count }

        func peek(_ offset: Int = 0) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }

        func looking(at literal: String) -> Bool {
            let utf8 = Array(literal.utf8)
            guard position + utf8.count <= bytes.count else { return false }
            return bytes[position..<position + utf8.count].elementsEqual(utf8)
        }

        mutating func advance(_ count: Int = 1) {
            for _ in 0..<count where position < bytes.count {
                if bytes[position] == UInt8(ascii: "\n") { line += 1 }
                position += 1
            }
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        mutating func skipSpace() {
            while let byte = peek(), Self.isSpace(byte) { advance() }
        }

        /// The document: a prolog (declaration, comments, processing instructions), one root
        /// element, then only comments, processing instructions and white space.
        mutating func document() throws(Failure) -> Element {
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw Failure(message: "the document is not UTF-8 text")
            }
            if looking(at: "<?xml") && peek(5).map(Self.isSpace) == true {
                try declaration()
            }
            try misc()
            if looking(at: "<!DOCTYPE") {
                throw fail("a DOCTYPE is not allowed (a CDA document is described by its schema, not a DTD)")
            }
            guard peek() == UInt8(ascii: "<") else { throw fail("there is no root element") }
            let root = try element(scopes: [["xml": "http://www.w3.org/XML/1998/namespace"]])
            try misc()
            guard atEnd else { throw fail("there is content after the root element") }
            return root
        }

        /// The XML declaration: its encoding, if given, must be UTF-8.
        mutating func declaration() throws(Failure) {
            guard let end = find("?>") else { throw fail("the XML declaration is not closed") }
            let text = String(decoding: bytes[position..<end], as: UTF8.self)
            if let range = text.range(of: "encoding") {
                let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
                let name = rest.prefix { $0 != "\"" && $0 != "'" }.lowercased()
                guard name == "utf-8" || name == "utf8" else {
                    throw fail("the document declares the encoding \(name); only UTF-8 is read")
                }
            }
            advance(end + 2 - position)
        }

        /// Comments, processing instructions and white space.
        mutating func misc() throws(Failure) {
            while true {
                skipSpace()
                if looking(at: "<!--") {
                    try comment()
                } else if looking(at: "<?") {
                    try processingInstruction()
                } else {
                    return
                }
            }
        }

        func find(_ literal: String) -> Int? {
            let utf8 = Array(literal.utf8)
            var index = position
            while index + utf8.count <= bytes.count {
                if bytes[index] == utf8[0], bytes[index..<index + utf8.count].elementsEqual(utf8) { return index }
                index += 1
            }
            return nil
        }

        mutating func comment() throws(Failure) {
            advance(4)
            guard let end = find("--") else { throw fail("a comment is not closed") }
            advance(end - position)
            guard looking(at: "-->") else { throw fail("a comment holds \"--\"") }
            advance(3)
        }

        mutating func processingInstruction() throws(Failure) {
            advance(2)
            let target = try name()
            guard target.lowercased() != "xml" else { throw fail("an XML declaration is only allowed at the start") }
            guard let end = find("?>") else { throw fail("a processing instruction is not closed") }
            advance(end + 2 - position)
        }

        static func isNameStart(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":") || byte >= 0x80
        }

        static func isNameByte(_ byte: UInt8) -> Bool {
            isNameStart(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }

        mutating func name() throws(Failure) -> String {
            guard let first = peek(), Self.isNameStart(first) else { throw fail("a name is expected") }
            let start = position
            while let byte = peek(), Self.isNameByte(byte) { advance() }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// An element and everything in it, iteratively (a stack, not recursion), with namespace
        /// scopes: each element's `xmlns` declarations over its parent's.
        mutating func element(scopes: [[String: String]]) throws(Failure) -> Element {
            var stack: [(element: Element, qualifiedName: String, scope: [String: String])] = []
            var root: Element?
            var scope = scopes[0]
            repeat {
                if let top = stack.last {
                    // Content of the open element.
                    if looking(at: "</") {
                        advance(2)
                        let closing = try name()
                        skipSpace()
                        guard peek() == UInt8(ascii: ">") else { throw fail("an end tag is not closed") }
                        advance()
                        guard closing == top.qualifiedName else {
                            throw fail("the end tag </\(closing)> does not close <\(top.qualifiedName)>")
                        }
                        stack.removeLast()
                        scope = stack.last?.scope ?? scopes[0]
                        continue
                    } else if looking(at: "<!--") {
                        try comment()
                        continue
                    } else if looking(at: "<![CDATA[") {
                        advance(9)
                        guard let end = find("]]>") else { throw fail("a CDATA section is not closed") }
                        top.element.parts.append(.text(String(decoding: bytes[position..<end], as: UTF8.self)))
                        advance(end + 3 - position)
                        continue
                    } else if looking(at: "<?") {
                        try processingInstruction()
                        continue
                    } else if looking(at: "<!") {
                        throw fail("a declaration is not allowed inside an element")
                    } else if peek() != UInt8(ascii: "<") {
                        guard !atEnd else { throw fail("the document ends inside <\(top.qualifiedName)>") }
                        top.element.parts.append(.text(try text()))
                        continue
                    }
                }
                // A start tag.
                advance()
                let qualifiedName = try name()
                var attributes: [(String, String)] = []
                var selfClosing = false
                while true {
                    let hadSpace = peek().map(Self.isSpace) ?? false
                    skipSpace()
                    if looking(at: "/>") {
                        advance(2)
                        selfClosing = true
                        break
                    }
                    if peek() == UInt8(ascii: ">") {
                        advance()
                        break
                    }
                    guard !atEnd else { throw fail("a start tag is not closed") }
                    guard hadSpace else { throw fail("attributes are separated by white space") }
                    let attribute = try name()
                    skipSpace()
                    guard peek() == UInt8(ascii: "=") else { throw fail("the attribute \(attribute) has no value") }
                    advance()
                    skipSpace()
                    guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                        throw fail("the value of \(attribute) is not quoted")
                    }
                    advance()
                    let value = try attributeValue(quote: quote)
                    guard !attributes.contains(where: { $0.0 == attribute }) else {
                        throw fail("the attribute \(attribute) is given twice")
                    }
                    attributes.append((attribute, value))
                }
                var elementScope = scope
                for (attribute, value) in attributes {
                    if attribute == "xmlns" {
                        elementScope[""] = value
                    } else if attribute.hasPrefix("xmlns:") {
                        guard !value.isEmpty else {
                            throw fail("the prefix \(attribute.dropFirst(6)) is bound to nothing")
                        }
                        elementScope[String(attribute.dropFirst(6))] = value
                    }
                }
                let parts = qualifiedName.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count <= 2, !parts.contains(where: \.isEmpty) else {
                    throw fail("the name \(qualifiedName) is not a qualified name")
                }
                let prefix = parts.count == 2 ? String(parts[0]) : ""
                let namespace = elementScope[prefix].flatMap { $0.isEmpty ? nil : $0 }
                if !prefix.isEmpty && namespace == nil {
                    throw fail("the prefix \(prefix) is not bound to a namespace")
                }
                let element = Element(namespace: namespace, name: String(parts.last!))
                if let parent = stack.last {
                    parent.element.children.append(element)
                    parent.element.parts.append(.element(element))
                } else {
                    root = element
                }
                if !selfClosing {
                    guard stack.count < CDADocumentReader.maximumDepth else {
                        throw fail("elements are nested more than \(CDADocumentReader.maximumDepth) deep")
                    }
                    stack.append((element, qualifiedName, elementScope))
                    scope = elementScope
                }
            } while !stack.isEmpty
            guard let root else { throw fail("there is no root element") }
            return root
        }

        /// Character data up to the next `<`, its references decoded.
        mutating func text() throws(Failure) -> String {
            var out: [UInt8] = []
            while let byte = peek(), byte != UInt8(ascii: "<") {
                if byte == UInt8(ascii: "&") {
                    out += try reference()
                } else {
                    if byte == UInt8(ascii: "]") && looking(at: "]]>") { throw fail("\"]]>\" is not allowed in text") }
                    out.append(byte)
                    advance()
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func attributeValue(quote: UInt8) throws(Failure) -> String {
            var out: [UInt8] = []
            while true {
                guard let byte = peek() else { throw fail("an attribute value is not closed") }
                if byte == quote {
                    advance()
                    break
                }
                if byte == UInt8(ascii: "<") { throw fail("\"<\" is not allowed in an attribute value") }
                if byte == UInt8(ascii: "&") {
                    out += try reference()
                } else {
                    out.append(Self.isSpace(byte) ? 0x20 : byte)
                    advance()
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// `&amp;` and the four others, or a character reference; anything else is refused (no
        /// DTD declares entities here).
        mutating func reference() throws(Failure) -> [UInt8] {
            advance()
            let start = position
            while let byte = peek(), byte != UInt8(ascii: ";"), position - start < 16 { advance() }
            guard peek() == UInt8(ascii: ";") else { throw fail("an \"&\" does not start a reference") }
            let body = String(decoding: bytes[start..<position], as: UTF8.self)
            advance()
            switch body {
            case "amp": return [UInt8(ascii: "&")]
            case "lt": return [UInt8(ascii: "<")]
            case "gt": return [UInt8(ascii: ">")]
            case "quot": return [UInt8(ascii: "\"")]
            case "apos": return [UInt8(ascii: "'")]
            default:
                var code: UInt32?
                if body.hasPrefix("#x") {
                    code = UInt32(body.dropFirst(2), radix: 16)
                } else if body.hasPrefix("#") {
                    code = UInt32(body.dropFirst(), radix: 10)
                }
                guard let code, let scalar = Unicode.Scalar(code), Self.isXMLCharacter(scalar) else {
                    throw fail(
                        "&\(body); is not a reference XML defines (only the five predefined and character references are read)"
                    )
                }
                return Array(String(Character(scalar)).utf8)
            }
        }

        static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
            default: false
            }
        }
    }
}
