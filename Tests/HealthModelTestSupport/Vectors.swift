public import Foundation
public import Testing

/// Other people's test data in `../shared/vectors` (beside the checkout), read in place.
///
/// Set `HEALTHVAULT_VECTORS` to point elsewhere. Tests that need the vectors are
/// `.enabled(if: Vectors.available, Vectors.missingMessage)` so they skip with a clear message
/// when the directory is absent.
public enum Vectors {
    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["HEALTHVAULT_VECTORS"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // <checkout>/Tests/HealthModelTestSupport/Vectors.swift -> <checkout>/../shared/vectors
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared/vectors", isDirectory: true)
    }()

    public static var available: Bool { has("healthkit/types.tsv") }

    /// Whether a file or folder of the vectors is there.
    public static func has(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(relativePath).path)
    }

    public static let missingMessage: Comment =
        "skipped: ../shared/vectors is absent (set HEALTHVAULT_VECTORS to the vectors directory)"

    /// The rows of a tab-separated file with one header row, as column name -> cell.
    public static func table(_ relativePath: String) throws -> [[String: String]] {
        let text = try String(contentsOf: directory.appendingPathComponent(relativePath), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, name) in header.enumerated() {
                row[name] = index < cells.count ? cells[index] : ""
            }
            return row
        }
    }
}
