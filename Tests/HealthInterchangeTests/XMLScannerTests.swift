import Foundation
import Testing

@testable import HealthInterchange

/// The tokenizer under the reader: what it reports and what it skips.
@Suite struct XMLScannerTests {
    /// Every tag as text (`<a x="1">`, `<b/>`, `</a>`), read in chunks of `chunkSize` bytes.
    static func tags(_ text: String, chunkSize: Int = 64) throws -> [String] {
        let scanner = XMLScanner(
            source: ByteSource(bytes: Array(text.utf8)),
            chunkSize: chunkSize,
            maximumTokenSize: 1 << 20
        )
        var tags: [String] = []
        func string(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(start: scanner.bytes + start, count: end - start), as: UTF8.self)
        }
        while true {
            switch try scanner.next() {
            case .start(let nameStart, let nameEnd, let empty):
                let attributes = scanner.attributes.map {
                    " \(string($0.nameStart, $0.nameEnd))=\"\(string($0.valueStart, $0.valueEnd))\""
                }
                tags.append("<" + string(nameStart, nameEnd) + attributes.joined() + (empty ? "/>" : ">"))
            case .end(let nameStart, let nameEnd):
                tags.append("</" + string(nameStart, nameEnd) + ">")
            case .endOfInput:
                return tags
            }
        }
    }

    @Test func tagsAndRawAttributeValuesComeInOrderWhateverTheChunkSize() throws {
        let text = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <?xml-stylesheet href="x"?>
            <!-- a comment with <Record> in it -->
            <a  x = "1"   y='two &amp; "three"'>text <![CDATA[<b>not a tag</b>]]> more
              <b z="&lt;&#x2019;"/>
            </a >
            """
        for chunk in [64, 65, 80, 4096] {
            #expect(
                try Self.tags(text, chunkSize: chunk) == [
                    "<a x=\"1\" y=\"two &amp; \"three\"\">", "<b z=\"&lt;&#x2019;\"/>", "</a>",
                ]
            )
        }
    }

    @Test func aDoctypeWithoutASubsetAndOneWhoseCommentHoldsABracketAreSkipped() throws {
        #expect(try Self.tags("<!DOCTYPE HealthData SYSTEM \"x[1]>\"><HealthData/>") == ["<HealthData/>"])
        let text = """
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 11 ]> -->
            <!ELEMENT HealthData (Record*)>
            ]><HealthData/>
            """
        let scanner = XMLScanner(source: ByteSource(bytes: Array(text.utf8)), chunkSize: 64, maximumTokenSize: 1 << 20)
        guard case .start = try scanner.next() else {
            Issue.record("no start tag")
            return
        }
        #expect(scanner.exportVersion == 11)
        #expect(scanner.doctypeIrregularities == 0)
    }

    @Test func linesAreCountedAcrossChunks() throws {
        let text = (0..<50).map { "<r n=\"\($0)\"/>" }.joined(separator: "\n") + "\n<"
        let scanner = XMLScanner(source: ByteSource(bytes: Array(text.utf8)), chunkSize: 64, maximumTokenSize: 1 << 20)
        for expected in 1...50 {
            guard case .start = try scanner.next() else {
                Issue.record("no start tag")
                return
            }
            #expect(scanner.line(of: scanner.tokenStart) == expected)
        }
        #expect(throws: XMLScanner.Failure.self) { try scanner.next() }
        #expect(scanner.lineAtEnd == 51)
    }

    @Test(arguments: ["<a x=1/>", "<a x/>", "< a/>", "<a x=\"1\" / >", "</a"])
    func bytesThatAreNotTagsAreMalformedOrTruncated(text: String) throws {
        #expect(throws: XMLScanner.Failure.self) { try Self.tags(text) }
    }
}
