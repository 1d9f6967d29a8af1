public import Foundation

/// Vault-wide settings kept in the encrypted store's `settings` table.
public enum VaultSettings {
    /// The owner's time zone: statistics collections count days, weeks, months and years in it
    /// when a query names no zone. Until the owner sets one, the zone of the machine the daemon
    /// runs on (`TZ`, else /etc/localtime), else UTC.
    public static func timeZone(_ db: Connection) throws -> TimeZone {
        if let name = try db.scalarText("SELECT value FROM settings WHERE name = 'timeZone'"),
            let zone = TimeZone(identifier: name)
        {
            return zone
        }
        return TimeZone.current
    }

    public static func setTimeZone(_ zone: TimeZone, _ db: Connection) throws {
        try db.execute(
            "INSERT INTO settings (name, value) VALUES ('timeZone', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [zone.identifier]
        )
    }
}
