/// HealthVault's version, the one `healthvault --version` and `healthvaultd --version` print and
/// the man pages carry: defined here only.
public enum HealthVaultVersion {
    public static let current = "0.22.0"
}
