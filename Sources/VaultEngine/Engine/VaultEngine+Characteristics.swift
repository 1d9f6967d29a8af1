public import AuditLog
public import HealthModel
import VaultStore

extension VaultEngine {
    /// Sets one of the owner's characteristics (only the owner does).
    public func setCharacteristic(_ value: CharacteristicValue, requestID: String = "") async throws {
        let types = [value.type.rawValue]
        try await perform { [self] in
            try audited(.owner, .characteristicSet, types: types, requestID: requestID) {
                try database.write { db in
                    try store.setCharacteristic(value, in: db)
                    try append(entry(.owner, .characteristicSet, types: types, count: 1, requestID: requestID), in: db)
                }
            }
        }
    }

    /// Clears one of the owner's characteristics.
    public func removeCharacteristic(_ type: CharacteristicTypeIdentifier, requestID: String = "") async throws {
        let types = [type.rawValue]
        try await perform { [self] in
            try audited(.owner, .characteristicSet, types: types, requestID: requestID) {
                try database.write { db in
                    try store.removeCharacteristic(type, in: db)
                    try append(entry(.owner, .characteristicSet, types: types, requestID: requestID), in: db)
                }
            }
        }
    }

    /// A characteristic, for the owner or an app with a read grant for it; for any other app it
    /// reads as not set, exactly as if the owner had never set it.
    public func characteristic(
        _ type: CharacteristicTypeIdentifier,
        as caller: Caller,
        requestID: String = ""
    )
        async throws -> CharacteristicValue?
    {
        let types = [type.rawValue]
        return try await perform { [self] in
            try audited(caller, .queryCharacteristic, types: types, requestID: requestID) {
                try readRecorded { db -> (CharacteristicValue?, AuditEntry) in
                    var readable = true
                    if case .app(let appID) = caller {
                        _ = try requireApp(appID, db)
                        readable = try GrantStore.determination(appID, .read, .characteristic(type), at: now(), db)
                            .isGranted
                    }
                    // The same lookup either way, so a refused read costs what a granted read of
                    // a characteristic never set does; a value the app may not read is not
                    // decoded, so the refusal costs the same whether the owner set it or not.
                    var value: CharacteristicValue?
                    if readable {
                        value = try store.characteristic(type, in: db)
                    } else {
                        _ = try store.isCharacteristicSet(type, in: db)
                    }
                    let recorded = entry(
                        caller,
                        .queryCharacteristic,
                        types: types,
                        count: value == nil ? 0 : 1,
                        outcome: readable ? .ok : .deniedServedEmpty,
                        requestID: requestID
                    )
                    return (value, recorded)
                }
            }
        }
    }

    /// Every characteristic that is set, read at once: one `query.characteristic` audit entry
    /// naming the six types, its count the characteristics returned (the owner's `profile.show`).
    /// An app reads only those it holds a read grant for; the entry is `denied-served-empty` when
    /// it holds back any, and the refusals cost what ``characteristic(_:as:requestID:)``'s do.
    public func characteristics(as caller: Caller, requestID: String = "") async throws -> [CharacteristicValue] {
        let all = CharacteristicTypeIdentifier.allCases
        let types = all.map(\.rawValue)
        return try await perform { [self] in
            try audited(caller, .queryCharacteristic, types: types, requestID: requestID) {
                try readRecorded { db -> ([CharacteristicValue], AuditEntry) in
                    var values: [CharacteristicValue] = []
                    var heldBack = false
                    if case .app(let appID) = caller { _ = try requireApp(appID, db) }
                    for type in all {
                        var readable = true
                        if case .app(let appID) = caller {
                            readable = try GrantStore.determination(appID, .read, .characteristic(type), at: now(), db)
                                .isGranted
                        }
                        if readable {
                            if let value = try store.characteristic(type, in: db) { values.append(value) }
                        } else {
                            heldBack = true
                            _ = try store.isCharacteristicSet(type, in: db)
                        }
                    }
                    let recorded = entry(
                        caller,
                        .queryCharacteristic,
                        types: types,
                        count: values.count,
                        outcome: heldBack ? .deniedServedEmpty : .ok,
                        requestID: requestID
                    )
                    return (values, recorded)
                }
            }
        }
    }
}
