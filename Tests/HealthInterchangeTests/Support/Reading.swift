import Foundation
import HealthInterchange
import HealthModel

/// Everything a reader returned for a document, and how it ended.
struct ReadResult {
    var items: [AppleHealthItem] = []
    var diagnostics = AppleHealthDiagnostics()
    var error: AppleHealthReadError?

    var records: [AppleHealthRecord] {
        items.compactMap { if case .record(let record) = $0 { record } else { nil } }
    }

    var correlations: [AppleHealthCorrelation] {
        items.compactMap { if case .correlation(let correlation) = $0 { correlation } else { nil } }
    }

    var workouts: [AppleHealthWorkout] {
        items.compactMap { if case .workout(let workout) = $0 { workout } else { nil } }
    }

    var summaries: [AppleHealthActivitySummary] {
        items.compactMap { if case .activitySummary(let summary) = $0 { summary } else { nil } }
    }

    var skipped: [AppleHealthSkipped] {
        items.compactMap { if case .skipped(let skipped) = $0 { skipped } else { nil } }
    }

    var unsupported: [AppleHealthUnsupported] {
        items.compactMap { if case .unsupported(let unsupported) = $0 { unsupported } else { nil } }
    }

    var me: AppleHealthMe? {
        items.lazy.compactMap { if case .me(let me) = $0 { me } else { nil } }.first
    }
}

/// Reads a whole document, keeping every item and the error that ended it, if any.
func read(_ text: String, options: AppleHealthReader.Options = .init()) -> ReadResult {
    read(bytes: Array(text.utf8), options: options)
}

func read(bytes: [UInt8], options: AppleHealthReader.Options = .init()) -> ReadResult {
    let reader = AppleHealthReader(bytes: bytes, options: options)
    var result = ReadResult()
    do {
        while let item = try reader.next() {
            result.items.append(item)
        }
    } catch {
        result.error = error
    }
    result.diagnostics = reader.diagnostics
    return result
}

/// A document with Apple's prolog (a short, well-formed DOCTYPE) around `body`.
func export(_ body: String, close: Bool = true) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 14 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    ]>
    <HealthData locale="en_US">
     <ExportDate value="2022-11-20 09:00:00 -0800"/>

    """ + body + (close ? "</HealthData>\n" : "")
}

/// A file under `Tests/HealthInterchangeTests/Fixtures`.
func fixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
        .appendingPathComponent(name)
    return Array(try Data(contentsOf: url))
}

/// The source an importer would give a record of the owner's watch.
let importSource = Source(bundleIdentifier: "com.apple.health.watch", name: "Jane\u{2019}s Apple Watch")
