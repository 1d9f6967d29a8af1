import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Synchronization
import Testing
import VaultCrypto
import VaultEngine
import VaultStore

/// A throwaway vault with an engine over it, for one test; removed when the value goes.
final class TestEngine: @unchecked Sendable {
    let directory: URL
    let vault: Vault
    let engine: VaultEngine

    /// A new vault; its engine's clock is `clock` when given (windows and expiries judged by it).
    /// `largestObjectJSONBytes` is the engine's (its default when nil).
    init(clock: TestClock? = nil, largestObjectJSONBytes: Int? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthvault-engine-\(UUID().uuidString)", isDirectory: true)
        vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: "engine test passphrase"),
            parameters: .minimumForTesting
        )
        let largest = largestObjectJSONBytes ?? VaultEngine.largestObjectJSONBytes(forFrames: 16 * 1024 * 1024)
        if let clock {
            engine = try VaultEngine(vault: vault, now: { clock.now }, largestObjectJSONBytes: largest)
        } else {
            engine = try VaultEngine(vault: vault, largestObjectJSONBytes: largest)
        }
    }

    deinit {
        // Stops the engine's threads; the vault closes once the work under way is done.
        let engine = engine
        Task { await engine.shutdown() }
        vault.lock()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Enrolls an app declaring `read` and `share` (all sample types when nil), with a new key.
    @discardableResult
    func enroll(
        _ appID: String,
        read: Set<ObjectType>? = nil,
        share: Set<SampleType>? = nil
    ) async throws -> AppRegistration {
        let shareable = Set(SampleType.allTypes).filter {
            if case .correlation = $0 { return false }
            return !VaultPolicy.standard.neverShared.contains(ObjectType($0))
        }
        let readable = Set(ObjectType.allTypes).filter {
            if case .correlation = $0 { return false }
            return true
        }
        return try await engine.enroll(
            AppRegistration(
                appID: appID,
                displayName: "App \(appID)",
                publicKey: Ed25519.SigningKey().publicKey,
                readPurpose: "to show your trends",
                sharePurpose: "to keep what you record",
                declaredRead: read ?? readable,
                declaredShare: share ?? shareable
            )
        )
    }

    func grant(_ access: Access, _ types: SampleType..., to appID: String) async throws {
        try await engine.decide(.grant, access, of: Set(types.map(ObjectType.init)), for: appID)
    }

    /// The audit log's entries, in order.
    func auditEntries() throws -> [AuditEntry] {
        try vault.db().read { try vault.auditLog(in: $0).entries() }
    }

    /// Number of samples of every source in the store.
    func sampleCount() throws -> Int {
        Int(try vault.db().read { try $0.scalarInt("SELECT count(*) FROM samples WHERE parent_id IS NULL") } ?? 0)
    }

    /// Makes every append to the audit log fail (a full disk, a damaged log), until `restore`.
    func breakAuditLog() throws {
        try vault.db().write {
            try $0.execute(
                "CREATE TRIGGER test_audit_broken BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END"
            )
        }
    }

    func restoreAuditLog() throws {
        try vault.db().write { try $0.execute("DROP TRIGGER test_audit_broken") }
    }
}

/// A clock a test sets: the engine's `now`.
final class TestClock: Sendable {
    private let instant: Mutex<Date>

    init(_ start: Date) {
        instant = Mutex(start)
    }

    var now: Date { instant.withLock { $0 } }

    func set(_ date: Date) { instant.withLock { $0 = date } }

    func advance(by seconds: TimeInterval) { instant.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A step-count (or other quantity) sample claiming to come from `claimedSource`.
func quantitySample(
    _ type: QuantityTypeIdentifier = .stepCount,
    value: Double? = nil,
    start: Date = Fixtures.start,
    claimedSource: String = "org.example.impostor"
) throws -> Sample {
    let unit = type.canonicalUnit
    let domain = type.valueDomain
    let quantity = value ?? min(max(type == .stepCount ? 100 : 1, domain.lowerBound), domain.upperBound)
    return .quantity(
        try QuantitySample(
            type: type,
            quantity: Quantity(quantity, unit),
            start: start,
            end: start.addingTimeInterval(60),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: claimedSource, name: "Claimed"))
        )
    )
}

/// The canonical JSON bytes of a value, as the daemon will send them.
func wireBytes<T: Encodable>(_ value: T) throws -> Data {
    try HealthJSON.encode(value)
}

/// Runs `body` and returns the HealthError it throws, or nil.
func healthError(_ body: () async throws -> Void) async -> HealthError? {
    do {
        try await body()
        return nil
    } catch let error as HealthError {
        return error
    } catch {
        return HealthError(.unknownError, "not a HealthError: \(error)")
    }
}
