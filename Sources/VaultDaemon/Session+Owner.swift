import AuditLog
import Foundation
import HealthInterchange
import HealthModel
import NIOCore
import VaultCrypto
import VaultEngine
import VaultProtocol
import VaultStore

extension Session {
    /// The path an import reads (`import.appleHealth`, `import.csv`, `import.json`): absolute,
    /// and there for the daemon's user to read; else `invalidArgument`, field `path`.
    static func checkImportPath(_ path: String) throws {
        guard path.hasPrefix("/") else {
            throw RPCError.from(HealthError.invalidArgument("the path must be absolute", field: "path"))
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw RPCError.from(
                HealthError.invalidArgument(
                    "the daemon cannot read \(path) (no such file, or no permission)",
                    field: "path"
                )
            )
        }
    }

    /// Records per transaction (with its audit entry) when the daemon imports an Apple Health
    /// export. Each commit writes every page of the UUID index the batch touched (UUIDs are
    /// random), so larger batches write less: on a generated 1,000,000-record export, raw inserts
    /// took 14 s at 10,000 a transaction and 8 s at 50,000, and the import's CPU fell from 29 s to
    /// 26 s at 20,000 and 24 s at 50,000. Two batches are in memory at once (one read, one
    /// stored), about 1 KB a record: the daemon's peak grew from 137 MB to 158 MB at 20,000, 177
    /// MB at 30,000 and 217 MB at 50,000. 25,000 keeps it well under 200 MB
    /// (docs/APPLE_HEALTH_IMPORT.md, "Cost").
    static let appleHealthImportBatchSize = 25_000

    /// Runs `body` with a way to send `method` notifications (an import's progress) that sends
    /// them in the order given, from any thread, and all before the request's answer: each was a
    /// task of its own, so a late one could arrive after a newer one, or after the answer.
    func withProgress<Params: Encodable & Sendable, T>(
        _ method: String,
        _ body: (_ report: @escaping @Sendable (Params) -> Void) async throws -> T
    ) async throws -> T {
        let (stream, continuation) = AsyncStream.makeStream(of: Params.self)
        let sender = Task {
            for await params in stream { await send(notification: method, params) }
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body { continuation.yield($0) })
        } catch {
            result = .failure(error)
        }
        continuation.finish()
        await sender.value
        return try result.get()
    }

    /// The most entries one `audit.entries` answer holds.
    static let maximumAuditEntries = 10_000

    /// This process's resident memory (`/proc/self/statm`), bytes.
    static var residentBytes: Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The owner's methods (docs/PROTOCOL.md, "The owner's methods").
    func dispatchOwner(method: String, data: Data, requestID: String) async throws -> any Encodable {
        switch method {
        case Method.status:
            var apps: Int?
            var pending: Int?
            var entries: Int?
            if let engine = try? daemon.engine() {
                let counts = try await engine.counts()
                apps = counts.apps
                pending = counts.pendingRequests
                entries = Int(try await engine.auditLogSize())
            }
            return StatusResult(
                vault: daemon.vaultID,
                directory: daemon.configuration.vaultDirectory.path,
                locked: daemon.isLocked,
                connections: daemon.connectionCount,
                apps: apps,
                pendingRequests: pending,
                auditEntries: entries,
                residentBytes: Self.residentBytes,
                storeBytes: Database.memoryInUse
            )
        case Method.sessionOpen:
            return try await openOwnerSession(data: data, requestID: requestID)
        case Method.sessionClose:
            return try await closeOwnerSession(requestID: requestID)
        case Method.lock:
            try await daemon.lock()
            return Empty()
        case Method.unlock:
            let p = try params(PassphraseParams.self, from: data)
            let passphrase = try Self.passphrase(p.passphrase, field: "passphrase")
            defer { passphrase.wipe() }
            try await daemon.unlock(passphrase: passphrase)
            return Empty()
        case Method.changePassphrase:
            let p = try params(ChangePassphraseParams.self, from: data)
            let old = try Self.passphrase(p.old, field: "old")
            let new = try Self.passphrase(p.new, field: "new")
            defer {
                old.wipe()
                new.wipe()
            }
            guard let vault = daemon.vault else {
                _ = try daemon.engine()
                return Empty()
            }
            try Self.checkingPassphrase("the current passphrase is wrong") {
                try vault.changePassphrase(from: old, to: new)
            }
            _ = try? vault.signAuditCheckpoint(
                recording: AuditEntry(time: Date(), actor: .owner, operation: .passphraseChange, outcome: .ok)
            )
            return Empty()
        case Method.appsEnroll:
            let p = try params(EnrollParams.self, from: data)
            let manifest = try AppManifest(json: Data(p.manifest.utf8), file: p.file)
            guard let keyBytes = Data(base64Encoded: p.publicKey),
                let key = try? Ed25519.PublicKey(rawRepresentation: Array(keyBytes))
            else {
                throw RPCError.from(
                    HealthError.invalidArgument("not an Ed25519 public key (base64 of 32 bytes)", field: "publicKey")
                )
            }
            // Every public key is a point of the curve; most other 32 bytes (an app's private
            // seed sent by mistake) are not, and are never stored or shown.
            guard key.isValidPoint else {
                throw RPCError.from(
                    HealthError.invalidArgument(
                        "not an Ed25519 public key: its 32 bytes are no point of the curve (an app's private key?); nothing was enrolled",
                        field: "publicKey"
                    )
                )
            }
            let registration = try await daemon.engine().enroll(
                manifest: manifest,
                publicKey: key,
                adoptingExistingSamples: p.adoptExistingSamples ?? false
            )
            return Self.info(registration, grants: nil)
        case Method.appsList:
            let engine = try daemon.engine()
            var apps: [AppInfo] = []
            for app in try await engine.apps() {
                apps.append(Self.info(app, grants: try await engine.grants(of: app.appID)))
            }
            return AppsResult(apps: apps)
        case Method.appsShow:
            let p = try params(AppParams.self, from: data)
            let engine = try daemon.engine()
            guard let app = try await engine.app(p.app) else {
                throw RPCError.from(HealthError(.noData, "no app \(p.app) is enrolled", field: "app"))
            }
            return Self.info(app, grants: try await engine.grants(of: app.appID))
        case Method.appsRemove:
            let p = try params(AppParams.self, from: data)
            let engine = try daemon.engine()
            // Not enrolled: the same answer as apps.show's (noData), not a second code for it.
            guard try await engine.app(p.app) != nil else {
                throw RPCError.from(HealthError(.noData, "no app \(p.app) is enrolled", field: "app"))
            }
            try await engine.removeApp(p.app)
            // Its connections end with its enrolment: a key it had no longer opens anything.
            daemon.closeSessions(ofApp: p.app)
            return Empty()
        case Method.requestsList:
            let p = try params(RequestsListParams.self, from: data)
            let engine = try daemon.engine()
            let repeated = try await engine.repeatedRequests(of: p.app).map {
                RepeatedRequestInfo(
                    app: $0.appID,
                    firstAskedAt: $0.firstAskedAt,
                    lastAskedAt: $0.lastAskedAt,
                    times: $0.times,
                    read: $0.read,
                    share: $0.share
                )
            }
            return RequestsResult(
                requests: try await engine.pendingRequests(of: p.app).map(Self.info),
                repeated: repeated.isEmpty ? nil : repeated,
                objectRequests: try await engine.pendingObjectRequests(of: p.app).map(Self.info)
            )
        case Method.requestsApprove:
            let p = try params(RequestIDParams.self, from: data)
            _ = try await daemon.engine().approveRequest(p.id)
            return Empty()
        case Method.requestsDeny:
            let p = try params(RequestIDParams.self, from: data)
            try await daemon.engine().denyRequest(p.id)
            return Empty()
        case Method.grantsDecide:
            let p = try params(DecideParams.self, from: data)
            let decision: Decision
            switch p.decision {
            case "grant": decision = .grant
            case "deny": decision = .deny
            case "revoke": decision = .revoke
            default:
                throw RPCError.from(HealthError.invalidArgument("grant, deny or revoke", field: "decision"))
            }
            let accesses = try p.access.map { name throws(RPCError) -> Access in
                switch name {
                case "read": return .read
                case "share": return .share
                default: throw RPCError.from(HealthError.invalidArgument("read or share", field: "access"))
                }
            }
            guard !accesses.isEmpty else {
                throw RPCError.from(HealthError.invalidArgument("name read, share or both", field: "access"))
            }
            let engine = try daemon.engine()
            // Both permissions or neither: a type the manifest does not declare for one of them
            // is refused before anything is decided.
            if decision == .grant, let app = try await engine.app(p.app) {
                let undeclared = p.types.filter { type in
                    (accesses.contains(.read) && !app.declaredRead.contains(type))
                        || (accesses.contains(.share) && !(type.sampleType.map(app.declaredShare.contains) ?? false))
                }
                if !undeclared.isEmpty {
                    throw RPCError.from(
                        HealthError.invalidArgument(
                            "\(p.app) does not declare \(undeclared.map(\.description).joined(separator: ", ")) for that in its manifest; nothing was granted",
                            field: "types"
                        )
                    )
                }
            }
            let window = try p.window.map(Self.window)
            if window != nil, !accesses.contains(.read) {
                throw RPCError.from(
                    HealthError.invalidArgument(
                        "a window limits what an app reads; a share grant takes only an expiry",
                        field: "window"
                    )
                )
            }
            // The window for reading, the expiry for both; checked for both before either is decided.
            func terms(_ access: Access) -> GrantTerms {
                GrantTerms(window: access == .read ? window : nil, expiresAt: p.expiresAt)
            }
            for access in accesses {
                try engine.checkTerms(terms(access), decision, access, of: Set(p.types))
            }
            for access in Set(accesses).sorted(by: { $0.rawValue < $1.rawValue }) {
                try await engine.decide(decision, access, of: Set(p.types), for: p.app, terms: terms(access))
            }
            return Empty()
        case Method.profileSet:
            let p = try params(ProfileSetParams.self, from: data)
            try await daemon.engine().setCharacteristic(p.value, requestID: requestID)
            return Empty()
        case Method.profileRemove:
            let p = try params(CharacteristicParams.self, from: data)
            try await daemon.engine().removeCharacteristic(p.type, requestID: requestID)
            return Empty()
        case Method.profileShow:
            // One read and one audit entry for the six characteristics.
            return ProfileResult(values: try await daemon.engine().characteristics(as: .owner, requestID: requestID))
        case Method.samplesCategoryStatistics:
            let p = try params(CategoryStatisticsQueryParams.self, from: data)
            return CategoryStatisticsResult(
                collection: try await daemon.engine().categoryStatisticsCollection(
                    matching: p.query,
                    as: .owner,
                    requestID: requestID
                )
            )
        case Method.importAppleHealth:
            let p = try params(ImportAppleHealthParams.self, from: data)
            try Self.checkImportPath(p.path)
            do {
                return try await withProgress(Method.importProgress) { report in
                    try await daemon.engine().importAppleHealth(
                        at: URL(fileURLWithPath: p.path),
                        acceptTruncated: p.acceptTruncated ?? false,
                        batchSize: Self.appleHealthImportBatchSize,
                        requestID: requestID,
                        // The owner gave up (Ctrl-C): stop after the batch under way.
                        stopRequested: { [channel] in !channel.isActive },
                        progress: { progress in
                            report(
                                ImportProgressParams(
                                    bytesRead: progress.bytesRead,
                                    totalBytes: progress.totalBytes,
                                    records: progress.records
                                )
                            )
                        }
                    )
                }
            } catch let error as AppleHealthReadError {
                // Said in words; the code (for programs) is not a prefix of the message.
                let what = error.code == .truncated ? "the export is cut short: " : ""
                throw RPCError.from(HealthError.invalidArgument(what + error.located, field: "path"))
            }
        case Method.importCSV:
            let p = try params(ImportCSVParams.self, from: data)
            try Self.checkImportPath(p.path)
            return try await withProgress(Method.importProgress) { report in
                try await daemon.engine().importCSV(
                    at: URL(fileURLWithPath: p.path),
                    defaultSource: p.source,
                    requestID: requestID,
                    // The owner gave up (Ctrl-C): stop at the next 10,000 rows checked, or after
                    // the batch under way.
                    stopRequested: { [channel] in !channel.isActive },
                    progress: { progress in
                        report(
                            ImportProgressParams(
                                bytesRead: progress.bytesRead,
                                totalBytes: progress.totalBytes,
                                records: progress.rowsDone
                            )
                        )
                    }
                )
            }
        case Method.exportWrite:
            return try await export(try params(ExportParams.self, from: data), requestID: requestID)
        case Method.importJSON:
            let p = try params(ImportJSONParams.self, from: data)
            try Self.checkImportPath(p.path)
            return try await withProgress(Method.importProgress) { report in
                try await daemon.engine().importJSONExport(
                    at: URL(fileURLWithPath: p.path),
                    requestID: requestID,
                    stopRequested: { [channel] in !channel.isActive },
                    progress: { read, total in
                        report(ImportProgressParams(bytesRead: 0, totalBytes: nil, records: read))
                    }
                )
            }
        case Method.backup:
            return try await backup(try params(BackupParams.self, from: data), requestID: requestID)
        case Method.backupFailed:
            _ = try params(Empty.self, from: data)
            try await daemon.engine().recordBackupFailure(requestID: requestID)
            return Empty()
        case Method.samplesAdd:
            let p = try params(SaveParams.self, from: data)
            let outcome = try await daemon.engine().saveOwnerEntries(p.objects, requestID: requestID)
            return SaveResult(saved: outcome.saved)
        case Method.samplesSummary:
            return SamplesSummaryResult(
                types: try await daemon.engine().typeSummaries(requestID: requestID).map { summary in
                    SamplesSummaryResult.TypeInfo(
                        type: summary.type,
                        count: summary.count,
                        firstStart: summary.firstStart,
                        lastStart: summary.lastStart,
                        sources: summary.sources.map {
                            .init(bundleIdentifier: $0.bundleIdentifier, name: $0.name, count: $0.count)
                        }
                    )
                }
            )
        case Method.samplesDeletePreview:
            let p = try params(DeletePreviewParams.self, from: data)
            let engine = try daemon.engine()
            let preview: DeletionPreview
            switch (p.uuids, p.type) {
            case (let uuids?, nil):
                guard p.predicate == nil else {
                    throw RPCError.from(
                        HealthError.invalidArgument("a predicate goes with type, not uuids", field: "predicate")
                    )
                }
                preview = try await engine.deletionPreview(uuids: uuids, requestID: requestID)
            case (nil, let type?):
                preview = try await engine.deletionPreview(of: type, predicate: p.predicate, requestID: requestID)
            default:
                throw RPCError.from(HealthError.invalidArgument("give uuids or type, one of them", field: "uuids"))
            }
            return DeletePreviewResult(
                count: preview.count,
                types: preview.types.map { part in
                    DeletePreviewResult.TypeInfo(
                        type: part.type,
                        count: part.count,
                        firstStart: part.firstStart,
                        lastEnd: part.lastEnd,
                        sources: part.sources.map {
                            .init(bundleIdentifier: $0.bundleIdentifier, name: $0.name, count: $0.count)
                        }
                    )
                }
            )
        case Method.sourcesPriority:
            let p = try params(SourcePriorityParams.self, from: data)
            let engine = try daemon.engine()
            let priorities =
                if let type = p.type {
                    [type: try await engine.sourcePriority(for: type)]
                } else {
                    try await engine.sourcePriorities()
                }
            return SourcePriorityResult(
                priorities: Dictionary(uniqueKeysWithValues: priorities.map { ($0.key.rawValue, $0.value) })
            )
        case Method.sourcesSetPriority:
            let p = try params(SetSourcePriorityParams.self, from: data)
            try await daemon.engine().setSourcePriority(p.sources, for: p.type, requestID: requestID)
            return Empty()
        case Method.settingsShow:
            let engine = try daemon.engine()
            return SettingsResult(
                timeZone: try await engine.timeZoneName(),
                activityGoals: try await engine.activityGoals()
            )
        case Method.settingsSetPreferredUnit:
            let p = try params(PreferredUnitParams.self, from: data)
            try await daemon.engine().setPreferredUnit(p.unit, for: p.type, requestID: requestID)
            return Empty()
        case Method.settingsSetActivityGoals:
            let p = try params(ActivityGoals.self, from: data)
            try await daemon.engine().setActivityGoals(p, requestID: requestID)
            return Empty()
        case Method.settingsSetTimeZone:
            let p = try params(TimeZoneParams.self, from: data)
            try await daemon.engine().setTimeZone(p.timeZone, requestID: requestID)
            return Empty()
        case Method.report:
            let p = try params(ReportParams.self, from: data)
            return try await daemon.engine().healthReport(firstDay: p.start, lastDay: p.end, requestID: requestID)
        case Method.auditExport:
            let p = try params(AuditExportParams.self, from: data)
            guard p.directory.hasPrefix("/") else {
                throw RPCError.from(HealthError.invalidArgument("an absolute path", field: "directory"))
            }
            let checkpoint = try await daemon.engine().exportAuditLog(to: URL(fileURLWithPath: p.directory))
            return AuditExportResult(
                directory: p.directory,
                entries: checkpoint.checkpoint.size,
                checkpoint: checkpoint.text
            )
        case Method.auditEntries:
            let p = try params(AuditEntriesParams.self, from: data)
            var outcome: AuditEntry.Outcome?
            if let name = p.outcome {
                guard let known = AuditEntry.Outcome.allCases.first(where: { $0.description == name }) else {
                    throw RPCError.from(
                        HealthError.invalidArgument("ok, denied, denied-served-empty or error", field: "outcome")
                    )
                }
                outcome = known
            }
            let filter = AuditEntryFilter(
                app: p.app,
                type: p.type,
                operation: p.operation.map(AuditEntry.Operation.init(rawValue:)),
                outcome: outcome,
                from: p.from,
                to: p.to
            )
            let limit = (p.limit ?? 0) > 0 ? p.limit! : 1000
            // Bounds the answer before it is built: 10,000 entries are about 2 MB of JSON.
            guard limit <= Self.maximumAuditEntries else {
                throw RPCError.from(
                    HealthError.invalidArgument(
                        "at most \(Self.maximumAuditEntries) entries per call; page with `to`",
                        field: "limit"
                    )
                )
            }
            let (entries, total) = try await daemon.engine().auditEntries(matching: filter, limit: limit)
            return AuditEntriesResult(
                entries: entries.map {
                    AuditEntryInfo(
                        index: $0.sequence,
                        time: $0.time,
                        actor: $0.actor.description,
                        operation: $0.operation.rawValue,
                        types: $0.types,
                        count: $0.objectCount,
                        outcome: $0.outcome.description,
                        request: $0.requestID,
                        attributes: $0.attributes
                    )
                },
                total: total
            )
        default:
            throw RPCError(code: RPCError.methodNotFound, message: "no method \"\(method)\"")
        }
    }

    /// Runs `body`, turning a wrong passphrase into `authorizationDenied` with `message`.
    static func checkingPassphrase(_ message: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as StoreError {
            if case .wrongPassphrase = error {
                throw RPCError.from(HealthError(.authorizationDenied, message))
            }
            throw RPCError.from(HealthError(.databaseInaccessible, error.description))
        }
    }

    static func passphrase(_ base64: String, field: String) throws(RPCError) -> SecureBytes {
        guard var bytes = Data(base64Encoded: base64), !bytes.isEmpty else {
            throw RPCError.from(HealthError.invalidArgument("base64 of the passphrase's UTF-8 bytes", field: field))
        }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        return SecureBytes(copying: bytes)
    }

    static func info(_ app: AppRegistration, grants: AppGrants?) -> AppInfo {
        AppInfo(
            app: app.appID,
            name: app.displayName,
            publicKey: Data(app.publicKey.rawRepresentation).base64EncodedString(),
            readPurpose: app.readPurpose,
            sharePurpose: app.sharePurpose,
            declaredRead: app.declaredRead.sortedByIdentifier(),
            declaredShare: app.declaredShare.sortedByIdentifier(),
            purposes: app.typePurposes.isEmpty
                ? nil : Dictionary(uniqueKeysWithValues: app.typePurposes.map { ($0.key.identifier, $0.value) }),
            enrolledAt: app.enrolledAt,
            grants: grants?.grants.map {
                GrantInfo(type: $0.type, read: info($0.read, $0.readTerms), share: info($0.share, $0.shareTerms))
            },
            pendingRequests: grants?.pendingRequests.map(info)
        )
    }

    static func info(_ determination: Determination, _ terms: GrantTerms) -> DeterminationInfo {
        switch determination {
        case .notDetermined:
            return DeterminationInfo(state: "notDetermined", at: nil, by: nil)
        case .granted(let at, let by):
            return DeterminationInfo(
                state: "granted",
                at: at,
                by: by,
                window: terms.window.map { info($0, grantedAt: at) },
                expiresAt: terms.expiresAt
            )
        case .denied(let at, let by):
            // A grant that expired keeps the instant it did.
            return DeterminationInfo(state: "denied", at: at, by: by, expiresAt: terms.expiresAt)
        }
    }

    static func info(_ window: GrantWindow, grantedAt: Date) -> WindowInfo {
        switch window {
        case .fixed(let start, let end): WindowInfo(kind: "fixed", start: start, end: end)
        case .last(let seconds): WindowInfo(kind: "last", seconds: seconds)
        case .sinceGrant: WindowInfo(kind: "sinceGrant", start: grantedAt)
        }
    }

    /// A window as `grants.decide` names it; anything else is refused (field `window`).
    static func window(_ info: WindowInfo) throws(RPCError) -> GrantWindow {
        switch info.kind {
        case "fixed" where info.seconds == nil:
            return .fixed(start: info.start, end: info.end)
        case "last" where info.start == nil && info.end == nil:
            guard let seconds = info.seconds else {
                throw RPCError.from(HealthError.invalidArgument("a `last` window needs `seconds`", field: "window"))
            }
            return .last(seconds: seconds)
        case "sinceGrant" where info.start == nil && info.end == nil && info.seconds == nil:
            return .sinceGrant
        default:
            throw RPCError.from(
                HealthError.invalidArgument(
                    "a window is {\"kind\": \"fixed\", \"start\", \"end\"}, {\"kind\": \"last\", \"seconds\"} or {\"kind\": \"sinceGrant\"}",
                    field: "window"
                )
            )
        }
    }

    static func info(_ request: AuthorizationRequest) -> RequestInfo {
        RequestInfo(
            id: request.id,
            app: request.appID,
            requestedAt: request.requestedAt,
            read: request.read,
            share: request.share
        )
    }
}

extension Session {
    /// `export.write`: the owner's export into a new (or empty) directory, owner-only, in the
    /// format asked for; progress as `export.progress` notifications.
    func export(_ p: ExportParams, requestID: String) async throws -> ExportSummary {
        guard p.path.hasPrefix("/") else {
            throw RPCError.from(HealthError.invalidArgument("the path must be absolute", field: "path"))
        }
        guard let format = ExportFormat(rawValue: p.format) else {
            throw RPCError.from(
                HealthError.invalidArgument(
                    "the format is one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))",
                    field: "format"
                )
            )
        }
        var types: [SampleType]?
        if let identifiers = p.types {
            types = try identifiers.enumerated().map { index, identifier in
                guard let type = try? SampleType(identifier: identifier) else {
                    throw RPCError.from(
                        HealthError.invalidArgument("not a sample type identifier", field: "types[\(index)]")
                    )
                }
                return type
            }
        }
        let filter = ExportFilter(types: types, from: p.from, to: p.to, sources: p.sources)
        // A filter refused before a directory is made for it.
        try filter.validate()
        let engine = try daemon.engine()
        let started = ContinuousClock.now
        let url = URL(fileURLWithPath: p.path).standardizedFileURL
        let writer: any ExportWriter
        let directory = try ExportDirectory(url, overwrite: p.overwrite ?? false)
        switch format {
        case .json:
            writer = try JSONExportWriter(directory: directory)
        case .fhir:
            writer = try FHIRExportWriter(directory: directory)
        case .csv:
            writer = try CSVExportWriter(directory: directory, context: try await engine.exportContext())
        }
        let manifest = try await engine.export(
            filter,
            to: writer,
            requestID: requestID,
            stopRequested: { [channel] in !channel.isActive },
            progress: { [self] written, total in
                Task {
                    await send(
                        notification: Method.exportProgress,
                        ExportProgressParams(samples: written, totalSamples: total)
                    )
                }
            }
        )
        let elapsed = ContinuousClock.now - started
        return ExportSummary(
            format: format,
            path: url.path,
            manifest: manifest,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
    }
}
