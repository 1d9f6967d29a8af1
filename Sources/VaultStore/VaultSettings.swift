public import Foundation

/// Vault-wide settings kept in the encrypted store's `settings` table: one text value per name
/// (the access policy, the owner's time zone, each type's source priority).
public enum VaultSettings {
    /// The value stored under `name`, or nil.
    public static func value(_ name: String, _ db: Connection) throws -> String? {
        try db.scalarText("SELECT value FROM settings WHERE name = ?", [name])
    }

    /// Stores `value` under `name`, replacing what was there; nil removes it.
    public static func setValue(_ value: String?, for name: String, _ db: Connection) throws {
        guard let value else {
            try db.execute("DELETE FROM settings WHERE name = ?", [name])
            return
        }
        try db.execute(
            "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [name, value]
        )
    }

    /// Every setting whose name starts with `prefix`, by name, the prefix removed.
    public static func values(prefixed prefix: String, _ db: Connection) throws -> [String: String] {
        var values: [String: String] = [:]
        for row in try db.rows("SELECT name, value FROM settings WHERE substr(name, 1, ?) = ?", [prefix.count, prefix])
        {
            guard let name = row[0].string, let value = row[1].string else { continue }
            values[String(name.dropFirst(prefix.count))] = value
        }
        return values
    }

    /// The owner's time zone: statistics collections count days, weeks, months and years in it
    /// when a query names no zone. Until the owner sets one, the zone of the machine the daemon
    /// runs on (`TZ`, else /etc/localtime), else UTC.
    public static func timeZone(_ db: Connection) throws -> TimeZone {
        try TimeZone(identifier: timeZoneName(db)) ?? TimeZone.current
    }

    /// The owner's time zone as the owner named it (`UTC` stays `UTC`, where Foundation would
    /// call the zone `GMT`), or the machine's zone's name until the owner sets one.
    public static func timeZoneName(_ db: Connection) throws -> String {
        if let name = try value("timeZone", db), TimeZone(identifier: name) != nil { return name }
        return TimeZone.current.identifier
    }

    /// Sets the owner's time zone; `name` must name a zone (the caller checks) and is kept as given.
    public static func setTimeZone(named name: String, _ db: Connection) throws {
        try setValue(name, for: "timeZone", db)
    }
}
