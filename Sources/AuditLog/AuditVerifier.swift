public import Foundation

/// The auditor's offline check of an exported log: every signature, every checkpoint's root
/// against the entries, consistency between the checkpoints and with the auditor's own earlier
/// checkpoint, sequence numbers and entry encoding. It names the first bad entry and the kind of
/// fault. Needs nothing but the export, the vault's verifier key and (optionally) the checkpoint
/// the auditor kept last time.
public enum AuditVerifier {
    /// What kind of tampering was found.
    public enum FaultKind: String, Sendable, Hashable, CaseIterable {
        /// An entry's bytes were changed.
        case modified
        /// An entry was removed.
        case missing
        /// An entry was added (a copy, or one from elsewhere).
        case inserted
        /// Entries are out of order.
        case reordered
        /// The log ends before what was signed (or what the auditor saw before): cut short or
        /// rolled back to an earlier export.
        case truncated
        /// Two signed checkpoints contradict each other: the log was forked, or the store rolled back.
        case forked
        /// A checkpoint's signature does not verify, or the checkpoint is malformed.
        case badSignature = "bad-signature"
        /// A checkpoint or the export is not signed by the expected key.
        case wrongKey = "wrong-key"
    }

    public struct Fault: Error, Sendable, Hashable, CustomStringConvertible {
        public let kind: FaultKind
        /// The first bad entry's sequence number, when one can be named.
        public let entry: UInt64?
        public let message: String

        public var description: String {
            "\(kind.rawValue)" + (entry.map { " at entry \($0)" } ?? "") + ": \(message)"
        }
    }

    public enum Verdict: Sendable, Hashable {
        case verified
        case tampered(Fault)
        case unreadable(String)
        /// The auditor's key is another vault's (its name is not the export's): nothing can be
        /// said of the export with it, so it is not called tampered.
        case otherVault(String)

        /// 0 verified, 1 tampered, 2 could not verify (unreadable, or another vault's key).
        public var exitCode: Int32 {
            switch self {
            case .verified: 0
            case .tampered: 1
            case .unreadable, .otherVault: 2
            }
        }
    }

    /// The auditor's key names another log than the export's.
    struct OtherVault: Error {
        let message: String
    }

    public struct Report: Sendable {
        public let verdict: Verdict
        public let entryCount: Int
        /// The latest checkpoint that verified, to keep for next time.
        public let latestCheckpoint: SignedCheckpoint?
        /// Things that are wrong but do not make the log untrustworthy (a damaged `leaves.bin`).
        public let warnings: [String]

        public init(verdict: Verdict, entryCount: Int, latestCheckpoint: SignedCheckpoint?, warnings: [String]) {
            self.verdict = verdict
            self.entryCount = entryCount
            self.latestCheckpoint = latestCheckpoint
            self.warnings = warnings
        }

        public var summary: String {
            switch verdict {
            case .verified:
                let size = latestCheckpoint?.checkpoint.size ?? 0
                return
                    "verified: \(entryCount) entries, consistent with every signed checkpoint (latest at size \(size))"
            case .tampered(let fault): return "TAMPERED: \(fault)"
            case .unreadable(let why): return "could not read: \(why)"
            case .otherVault(let why): return "not this vault's key: \(why)"
            }
        }
    }

    /// Verifies the export in `directory`. `trustedKey` is the auditor's copy of the vault's
    /// verifier key (without it the export's own `key.vkey` is trusted); `previousCheckpoint` is
    /// the signed checkpoint the auditor kept from an earlier verification.
    public static func verify(
        directory: URL,
        trustedKey: VerifierKey? = nil,
        previousCheckpoint: String? = nil
    ) -> Report {
        let read: (export: AuditExport, framingBrokenAt: Int?)
        do {
            read = try AuditExport.read(from: directory)
        } catch {
            return Report(verdict: .unreadable(error.message), entryCount: 0, latestCheckpoint: nil, warnings: [])
        }
        return verify(
            read.export,
            framingBrokenAt: read.framingBrokenAt,
            trustedKey: trustedKey,
            previousCheckpoint: previousCheckpoint
        )
    }

    /// Verifies an export already read.
    public static func verify(
        _ export: AuditExport,
        framingBrokenAt: Int? = nil,
        trustedKey: VerifierKey? = nil,
        previousCheckpoint: String? = nil
    ) -> Report {
        var run = Run(export: export, framingBrokenAt: framingBrokenAt)
        let verdict: Verdict
        do {
            try run.check(trustedKey: trustedKey, previousCheckpoint: previousCheckpoint)
            verdict = .verified
        } catch let fault as Fault {
            verdict = .tampered(fault)
        } catch let mismatch as OtherVault {
            verdict = .otherVault(mismatch.message)
        } catch let error as AuditLogError {
            verdict = .unreadable(error.message)
        } catch {
            verdict = .unreadable("\(error)")
        }
        return Report(
            verdict: verdict,
            // Could not read: nothing of the export counts, its entries neither.
            entryCount: verdict.exitCode == 2 ? 0 : export.entries.count,
            latestCheckpoint: verdict == .verified ? run.checkpoints.last : nil,
            warnings: run.warnings
        )
    }

    /// One verification's state.
    struct Run {
        let export: AuditExport
        let framingBrokenAt: Int?
        var checkpoints: [SignedCheckpoint] = []
        var warnings: [String] = []
        /// Each entry's leaf hash and its sequence number (nil when it does not decode).
        var hashes: [MerkleHash] = []
        var sequences: [UInt64?] = []
        /// The tree's root at each checkpoint size the entries reach.
        var roots: [UInt64: MerkleHash] = [:]

        init(export: AuditExport, framingBrokenAt: Int?) {
            self.export = export
            self.framingBrokenAt = framingBrokenAt
        }

        mutating func check(trustedKey: VerifierKey?, previousCheckpoint: String?) throws {
            // The vault signs a checkpoint for every export: one without any is not an export.
            guard !export.checkpoints.isEmpty else {
                throw AuditLogError(.io, "the export holds no checkpoint (the vault signs one for every export)")
            }
            let key = try verifierKey(trusted: trustedKey)
            try readCheckpoints(key: key)
            let previous = try previousCheckpoint.map { text -> SignedCheckpoint in
                let signed: SignedCheckpoint
                do {
                    signed = try SignedCheckpoint(text: text)
                } catch {
                    throw AuditLogError(.io, "the previous checkpoint given is not a signed checkpoint: \(error)")
                }
                try verifySignature(signed, key: key, what: "the previous checkpoint")
                return signed
            }
            hashEntries(extraSizes: previous.map { [$0.checkpoint.size] } ?? [])
            try checkEntries()
            if let previous {
                try checkAgainstPrevious(previous)
            }
            checkLeafFile()
        }

        /// The key to verify with: the auditor's, which the export's own must match.
        func verifierKey(trusted: VerifierKey?) throws -> VerifierKey {
            let shipped = try? VerifierKey(line: export.verifierKeyLine)
            guard let trusted else {
                guard let shipped else {
                    throw AuditLogError(.io, "the export's key.vkey is not a verifier key")
                }
                return shipped
            }
            // Another vault's key (every vault's log has its own name): the auditor holds the
            // wrong key, or the wrong export. Not tampering: nothing was checked.
            if let shipped, shipped.name != trusted.name {
                throw OtherVault(
                    message: "the key given is for \(trusted.name), this export is the log of \(shipped.name); "
                        + "verify it with that vault's audit-key.pub"
                )
            }
            guard shipped == trusted else {
                throw Fault(
                    kind: .wrongKey,
                    entry: nil,
                    message: "the export's key is not the auditor's key for \(trusted.name)"
                )
            }
            return trusted
        }

        func verifySignature(_ signed: SignedCheckpoint, key: VerifierKey, what: String) throws {
            do {
                try signed.verify(with: key)
            } catch {
                let kind: FaultKind = error.code == .wrongKey ? .wrongKey : .badSignature
                throw Fault(kind: kind, entry: nil, message: "\(what): \(error.message)")
            }
        }

        /// Parses and checks every checkpoint: signed by the key, one root per size, store counters
        /// that never go backwards.
        mutating func readCheckpoints(key: VerifierKey) throws {
            var parsed: [SignedCheckpoint] = []
            for (index, text) in export.checkpoints.enumerated() {
                let signed: SignedCheckpoint
                do {
                    signed = try SignedCheckpoint(text: text)
                } catch {
                    throw Fault(
                        kind: .badSignature,
                        entry: nil,
                        message: "checkpoint file \(index + 1) is malformed: \(error.message)"
                    )
                }
                try verifySignature(signed, key: key, what: "checkpoint file \(index + 1)")
                parsed.append(signed)
            }
            parsed.sort { $0.checkpoint.size < $1.checkpoint.size }
            for (earlier, later) in zip(parsed, parsed.dropFirst()) {
                let (a, b) = (earlier.checkpoint, later.checkpoint)
                if a.size == b.size, a != b {
                    throw Fault(
                        kind: .forked,
                        entry: nil,
                        message: "two signed checkpoints at size \(a.size) differ: proof of a fork"
                    )
                }
                if b.storeChangeCounter < a.storeChangeCounter {
                    throw Fault(
                        kind: .forked,
                        entry: nil,
                        message: "the store's change counter went back from \(a.storeChangeCounter) to "
                            + "\(b.storeChangeCounter) between the checkpoints at sizes \(a.size) and \(b.size): "
                            + "the database was rolled back"
                    )
                }
            }
            checkpoints = parsed
        }

        /// Hashes every entry and notes its sequence number and the roots at checkpoint sizes.
        mutating func hashEntries(extraSizes: [UInt64]) {
            let sizes = Set(checkpoints.map(\.checkpoint.size) + extraSizes)
            var range = CompactRange()
            hashes.reserveCapacity(export.entries.count)
            sequences.reserveCapacity(export.entries.count)
            if sizes.contains(0) { roots[0] = range.root }
            for entry in export.entries {
                let hash = Merkle.leafHash(entry)
                hashes.append(hash)
                sequences.append(Self.sequence(of: entry))
                range.append(hash)
                if sizes.contains(range.size) { roots[range.size] = range.root }
            }
        }

        /// The sequence number of an entry that decodes, else nil.
        static func sequence(of entry: [UInt8]) -> UInt64? {
            (try? AuditEntry(decoding: entry))?.sequence
        }

        /// Every checkpoint's root against the entries, and the entries against their numbering;
        /// on any disagreement, finds the first bad entry.
        func checkEntries() throws {
            let signedSize = checkpoints.last?.checkpoint.size ?? 0
            var agrees = framingBrokenAt == nil && UInt64(hashes.count) == signedSize
            for signed in checkpoints where roots[signed.checkpoint.size] != signed.checkpoint.rootHash {
                agrees = false
            }
            for (position, sequence) in sequences.enumerated() where sequence != UInt64(position) {
                agrees = false
                break
            }
            if agrees { return }
            throw locateFault(signedSize: signedSize)
        }

        /// Finds the first bad entry and what happened to it: by the stored leaf hashes when they
        /// reproduce the signed roots (then they are the authentic list), else by sequence numbers.
        func locateFault(signedSize: UInt64) -> Fault {
            if let authentic = authenticLeaves(signedSize: signedSize) {
                return locate(against: authentic, signedSize: signedSize)
            }
            return locateBySequence(signedSize: signedSize)
        }

        /// `leaves.bin` when it reproduces every signed root.
        func authenticLeaves(signedSize: UInt64) -> [MerkleHash]? {
            let leaves = export.leafHashes
            guard UInt64(leaves.count) >= signedSize, !checkpoints.isEmpty else { return nil }
            var range = CompactRange()
            var next = checkpoints.makeIterator()
            var pending = next.next()
            for leaf in leaves.prefix(Int(signedSize)) {
                while let checkpoint = pending?.checkpoint, checkpoint.size == range.size {
                    guard range.root == checkpoint.rootHash else { return nil }
                    pending = next.next()
                }
                range.append(leaf)
            }
            while let checkpoint = pending?.checkpoint {
                guard checkpoint.size == range.size, range.root == checkpoint.rootHash else { return nil }
                pending = next.next()
            }
            return Array(leaves.prefix(Int(signedSize)))
        }

        func locate(against leaves: [MerkleHash], signedSize: UInt64) -> Fault {
            let count = hashes.count
            let end = max(count, leaves.count)
            let first = (0..<end).first(where: { $0 >= count || $0 >= leaves.count || hashes[$0] != leaves[$0] })
            // Every whole entry before the broken framing is authentic: the fault is where it breaks
            // (bytes after the last entry, or an entry cut short), whatever should follow.
            if let broken = framingBrokenAt, first == nil || first! >= broken {
                return Fault(
                    kind: .modified,
                    entry: UInt64(broken),
                    message: "entries.bin is damaged at entry \(broken): its length framing does not hold"
                )
            }
            guard let p = first else {
                return Fault(kind: .modified, entry: nil, message: "the entries do not match their signed checkpoints")
            }
            let entry = UInt64(p)
            if p >= count {
                return Fault(
                    kind: .truncated,
                    entry: entry,
                    message: "the export ends after \(count) entries but its checkpoints sign \(signedSize)"
                )
            }
            if p >= leaves.count {
                return Fault(
                    kind: .inserted,
                    entry: entry,
                    message: "\(count - p) entries follow the last signed checkpoint (size \(signedSize))"
                )
            }
            if p + 1 < count, p + 1 < leaves.count, hashes[p] == leaves[p + 1], hashes[p + 1] == leaves[p] {
                return Fault(kind: .reordered, entry: entry, message: "entries \(p) and \(p + 1) are swapped")
            }
            if p + 1 < leaves.count, hashes[p] == leaves[p + 1] {
                return Fault(kind: .missing, entry: entry, message: "entry \(p) was removed")
            }
            if let moved = leaves[(p + 1)...].firstIndex(of: hashes[p]) {
                return Fault(kind: .reordered, entry: entry, message: "entry \(moved) appears where entry \(p) belongs")
            }
            if p + 1 < count, hashes[p + 1] == leaves[p] {
                let copied = leaves[..<p].firstIndex(of: hashes[p]).map { " (a copy of entry \($0))" } ?? ""
                return Fault(kind: .inserted, entry: entry, message: "an entry was inserted before entry \(p)\(copied)")
            }
            let detail = sequences[p] == nil ? "it does not decode" : "its bytes differ from the signed log"
            return Fault(kind: .modified, entry: entry, message: "entry \(p) was altered: \(detail)")
        }

        func locateBySequence(signedSize: UInt64) -> Fault {
            let count = hashes.count
            for p in 0..<count where sequences[p] != UInt64(p) {
                let entry = UInt64(p)
                guard let sequence = sequences[p] else {
                    return Fault(kind: .modified, entry: entry, message: "entry \(p) does not decode")
                }
                let nextAgrees = p + 1 >= count || sequences[p + 1] == UInt64(p + 1)
                if sequence == UInt64(p + 1), p + 1 >= count || sequences[p + 1] == UInt64(p + 2) {
                    return Fault(kind: .missing, entry: entry, message: "entry \(p) was removed")
                }
                if sequence < UInt64(p) {
                    return Fault(
                        kind: .inserted,
                        entry: sequence,
                        message: "two entries claim sequence \(sequence) (an entry was inserted or duplicated)"
                    )
                }
                if sequences[(p + 1)...].contains(UInt64(p)) {
                    return Fault(kind: .reordered, entry: entry, message: "entry \(p) appears later in the log")
                }
                if nextAgrees {
                    return Fault(kind: .modified, entry: entry, message: "entry \(p) was altered: its sequence number")
                }
                return Fault(kind: .missing, entry: entry, message: "entries from \(p) are missing")
            }
            if let broken = framingBrokenAt {
                return Fault(
                    kind: .modified,
                    entry: UInt64(broken),
                    message: "entries.bin is damaged at entry \(broken): its length framing does not hold"
                )
            }
            if UInt64(count) < signedSize {
                return Fault(
                    kind: .truncated,
                    entry: UInt64(count),
                    message: "the export ends after \(count) entries but its checkpoints sign \(signedSize)"
                )
            }
            if UInt64(count) > signedSize {
                return Fault(
                    kind: .inserted,
                    entry: signedSize,
                    message: "\(UInt64(count) - signedSize) entries follow the last signed checkpoint"
                )
            }
            // Numbering intact, roots wrong: name the span of the first checkpoint that fails.
            var start: UInt64 = 0
            for signed in checkpoints {
                let size = signed.checkpoint.size
                if roots[size] != signed.checkpoint.rootHash {
                    return Fault(
                        kind: .modified,
                        entry: start,
                        message:
                            "an entry from \(start) to \(size - 1) was altered (and leaves.bin with it, so which one cannot be told)"
                    )
                }
                start = size
            }
            return Fault(kind: .modified, entry: nil, message: "the entries do not match their signed checkpoints")
        }

        /// The auditor's earlier checkpoint must be a prefix of this log.
        func checkAgainstPrevious(_ previous: SignedCheckpoint) throws {
            let old = previous.checkpoint
            let latest = checkpoints.last?.checkpoint
            let signedSize = latest?.size ?? 0
            if old.size > signedSize {
                throw Fault(
                    kind: .truncated,
                    entry: signedSize,
                    message: "the auditor's checkpoint is at size \(old.size) but this export is signed only to "
                        + "\(signedSize): the log was cut short or rolled back to an earlier export"
                )
            }
            if roots[old.size] != old.rootHash {
                throw Fault(
                    kind: .forked,
                    entry: nil,
                    message: "the auditor's checkpoint at size \(old.size) and this export's checkpoint at size "
                        + "\(signedSize) are both signed and contradict each other: proof of a fork"
                )
            }
            if let latest, latest.storeChangeCounter < old.storeChangeCounter {
                throw Fault(
                    kind: .forked,
                    entry: nil,
                    message: "the store's change counter went back from \(old.storeChangeCounter) (auditor's "
                        + "checkpoint) to \(latest.storeChangeCounter): the database was rolled back"
                )
            }
        }

        /// `leaves.bin` only helps to name entries; when it disagrees with verified entries, say so.
        mutating func checkLeafFile() {
            if export.leafHashes != hashes {
                warnings.append("leaves.bin does not match the entries (the entries themselves verified)")
            }
        }
    }
}
