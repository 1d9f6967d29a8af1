// The engine's denied read: an app without a read grant queries steps, through VaultEngine (its
// grants read from the store, the query in its scope, the audit entry committed before the
// answer), in a vault where another app holds 500,000 step samples, against the same in a vault
// without them. The engine must keep the store's promise: the answer costs the same whatever the
// app may not see. Beside them, the same query on the store alone shows what the engine adds
// (mostly the audit entry's durable commit).
import Benchmark
import Foundation
import HealthModel
import VaultCrypto
import VaultEngine
import VaultStore

func engineBenchmarks(query: SampleQueryDescriptor, configuration: Benchmark.Configuration) {
    let app = Caller.app("org.example.mine")

    for (name, hidden) in [("500k hidden rows", hiddenCount), ("empty store", 0)] {
        nonisolated(unsafe) var fixture: (TemporaryVault, VaultEngine)?
        Benchmark("Engine denied read: \(name)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await fixture!.1.samples(matching: query, as: app))
            }
        } setup: {
            let vault = try TemporaryVault(hidden: hidden)
            let engine = try VaultEngine(vault: vault.vault)
            try await engine.enroll(
                AppRegistration(
                    appID: "org.example.mine",
                    displayName: "Mine",
                    publicKey: Ed25519.SigningKey().publicKey,
                    readPurpose: "benchmark",
                    declaredRead: [.quantity(.stepCount)]
                ),
                // Its 100 samples were put in through the store, before it was enrolled.
                adoptingExistingSamples: true
            )
            fixture = (vault, engine)
        } teardown: {
            await fixture?.1.shutdown()
            fixture = nil
        }
    }
}
