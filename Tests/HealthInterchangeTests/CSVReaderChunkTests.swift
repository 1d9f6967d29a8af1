import Foundation
import Testing

@testable import HealthInterchange

/// The CSV reader reads a file 64 KiB at a time and takes an unquoted field's bytes a run of the
/// buffer at a time; what it reads from a file must be what it reads from the same bytes in memory,
/// wherever the chunks end. The trimming of a field's spaces must be Foundation's.
@Suite struct CSVReaderChunkTests {
    static func read(_ reader: CSVReader) -> [String] {
        var all: [String] = []
        while let next = reader.next() {
            switch next {
            case .success(let record): all.append("\(record.line): \(record.fields)")
            case .failure(let problem): all.append("\(problem.line):\(problem.column ?? 0) \(problem.message)")
            }
        }
        return all
    }

    @Test func aFileReadsAsItsBytesInMemoryWhereverItsChunksEnd() throws {
        // Records of every length, with fields that cross the chunk boundaries: quoted ones with
        // commas, doubled quotes and line breaks, UTF-8 (a character of two and of three bytes split
        // between chunks), spaces, a stray quote, bytes that are not UTF-8, a field of exactly the
        // longest length and one byte longer, both crossing a boundary.
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var bytes: [UInt8] = []
        let pieces = [
            "abc", "é", "日本", " x ", "\"q,\"\"uo\nted\"", "12.5", "", "\u{3000}y\u{3000}", "z\"stray", "\u{FF}",
        ]
        while bytes.count < 400_000 {
            let fields = 1 + next(6)
            var record: [String] = []
            for _ in 0..<fields {
                var field = ""
                for _ in 0..<next(40) {
                    let piece = pieces[next(pieces.count)]
                    if piece.hasPrefix("\"") {
                        if field.isEmpty {
                            field = piece
                            break
                        }
                        continue
                    }
                    field += piece
                }
                record.append(field)
            }
            var line = Array(record.joined(separator: ",").utf8)
            line = line.map { $0 == 0xC3 && next(50) == 0 ? 0xFF : $0 }  // now and then not UTF-8
            bytes += line + Array(["\n", "\r\n", "\r"][next(3)].utf8)
            if next(40) == 0 {
                let length = CSVReader.maximumFieldBytes + next(2)
                bytes += Array("long,".utf8) + [UInt8](repeating: UInt8(ascii: "w"), count: length) + Array("\n".utf8)
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID().uuidString).csv")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = Self.read(try CSVReader(contentsOf: url))
        let fromMemory = Self.read(CSVReader(bytes: bytes))
        #expect(fromFile.count == fromMemory.count)
        #expect(fromFile == fromMemory)
        // The file held every kind of record the test means to cross the boundaries with.
        #expect(fromMemory.contains { $0.contains("a quote inside an unquoted field") })
        #expect(fromMemory.contains { $0.contains("not UTF-8") })
        #expect(fromMemory.contains { $0.contains("longer than 65536 bytes") })
        #expect(fromMemory.contains { $0.contains(String(repeating: "w", count: CSVReader.maximumFieldBytes)) })
    }

    @Test func aFieldSplitAtEveryOffsetOfAChunkReadsWhole() throws {
        // One record whose second field ends at each offset around the first chunk's end.
        for shift in -3...3 {
            let prefix = String(repeating: "p", count: 65_536 - 4 + shift)
            let text = "a,b\n\(prefix),日本 x,\"q\"\"\"\nnext,\"one\"\n"
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("split-\(UUID().uuidString).csv")
            try Data(text.utf8).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let fromFile = Self.read(try CSVReader(contentsOf: url))
            #expect(
                fromFile == ["1: [\"a\", \"b\"]", "2: [\"\(prefix)\", \"日本 x\", \"q\\\"\"]", "3: [\"next\", \"one\"]"]
            )
        }
    }

    @Test func aFieldsSpacesAreTheOnesFoundationTrims() {
        // Every scalar: a tab, a space separator (Zs) or the zero-width space is trimmed, nothing
        // else (not a line break, not a byte order mark).
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(
                scalar.isFieldWhitespace == CharacterSet.whitespaces.contains(scalar),
                "U+\(String(value, radix: 16))"
            )
        }
        let samples = [
            "", " ", "\t", "  72.5 ", "\u{00A0}kg\u{00A0}", "\u{3000}日本\u{2003}", "a b", "\u{200B}x\u{200B}", "\n1\n",
            "\u{FEFF}x", " \t\u{2009}", "é", " é ", "x\t",
        ]
        for text in samples {
            #expect(
                text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces),
                "\(Array(text.unicodeScalars))"
            )
            #expect(String(text[...].trimmingWhitespace()) == text.trimmingCharacters(in: .whitespaces))
        }
    }
}
