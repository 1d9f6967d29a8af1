// Saves numbered batches into a vault until it is killed, printing "ACK <batch>" after each
// commit. The crash-safety test kills it with SIGKILL at random moments and then checks that
// every acknowledged batch is whole and no unacknowledged batch is partly there.
//
// Usage: vault-crash-writer <vault dir> <first batch number> <batch size>
// The passphrase comes from HEALTHVAULT_TEST_PASSPHRASE (a test tool; never do this for real).
import Foundation
import HealthModel
import VaultCrypto
import VaultStore

let arguments = CommandLine.arguments
guard arguments.count == 4, let first = Int(arguments[2]), let size = Int(arguments[3]),
    let passphrase = ProcessInfo.processInfo.environment["HEALTHVAULT_TEST_PASSPHRASE"]
else {
    FileHandle.standardError.write(Data("usage: vault-crash-writer <vault dir> <first batch> <batch size>\n".utf8))
    exit(2)
}

do {
    let vault = try Vault.open(at: URL(fileURLWithPath: arguments[1]), passphrase: SecureBytes(utf8: passphrase))
    let store = SampleStore(database: try vault.db())
    let source = SourceRevision(source: Source(bundleIdentifier: "org.healthvault.crashwriter", name: "Crash writer"))
    var batch = first
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
    while true {
        var samples: [Sample] = []
        for index in 0..<size {
            let offset = Double(batch * size + index)
            let sample = try QuantitySample(
                type: .stepCount,
                quantity: Quantity(Double(index), .count),
                start: start.addingTimeInterval(offset),
                end: start.addingTimeInterval(offset + 1),
                sourceRevision: source,
                metadata: [MetadataKey("org.healthvault.batch"): .number(Double(batch))]
            )
            samples.append(.quantity(sample))
        }
        try store.save(samples)
        // Written straight to the pipe: the parent must see the ACK the moment the commit returned.
        FileHandle.standardOutput.write(Data("ACK \(batch)\n".utf8))
        batch += 1
    }
} catch {
    FileHandle.standardError.write(Data("vault-crash-writer: \(error)\n".utf8))
    exit(1)
}
