import Foundation
import HealthModel
import Testing

/// docs/MODEL_JSON.md, "Metadata keys", lists exactly the keys the vault checks, as app developers
/// must send them.
struct MetadataKeyDocTests {
    @Test func theDocumentListsEveryWellKnownMetadataKeyAndNoOther() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/MODEL_JSON.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### Metadata keys").dropFirst().first)
        let rows = section.components(separatedBy: "\n###").first!.split(separator: "\n")
            .filter { $0.hasPrefix("| `") }
        #expect(rows.count == MetadataKey.wellKnownValueKinds.count)
        for key in MetadataKey.wellKnownValueKinds.keys {
            let constant = MetadataKey.healthKitConstants[key] ?? key.rawValue
            #expect(
                rows.contains { $0.hasPrefix("| `\(constant)` | `\(key.rawValue)` |") },
                "\(constant) (\(key.rawValue)) is not listed"
            )
        }
    }
}
