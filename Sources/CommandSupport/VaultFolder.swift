public import Foundation
public import VaultStore

/// What the tools say about a vault folder they cannot use, in their one style (`<what
/// happened>; <what to do>`): a permission problem as a permission problem naming the path, a
/// folder that holds no vault as that, damage only when it is damage.
public enum VaultFolder {
    /// Checks, before a passphrase is asked or a file written, that `directory` holds a vault
    /// this user can open (``Vault/checkAccessible(_:)``).
    public static func require(_ directory: URL) throws(ToolError) {
        do {
            try Vault.checkAccessible(directory)
        } catch {
            throw ToolError(message(for: error, directory: directory))
        }
    }

    /// A store error as the owner reads it, with what to do where the store's message does not
    /// say.
    public static func message(for error: StoreError, directory: URL) -> String {
        switch error {
        case .notAVault(let message):
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return entries.isEmpty
                ? "\(message); create one with `healthvault init --vault \(directory.path)`, or name your vault with --vault or $HEALTHVAULT_DIR"
                : "\(message); name your vault's folder with --vault or $HEALTHVAULT_DIR"
        case .wrongPassphrase:
            return "wrong passphrase for \(directory.path); give \(PassphraseSource.whichPassphrase)"
        default:
            return error.description
        }
    }
}
