import ArgumentParser
import CommandSupport
import Foundation
import HealthModel
import Synchronization
import VaultClient
import VaultProtocol

/// healthvault: the owner's and the auditor's command.
struct HealthVaultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthvault",
        abstract: "Own a HealthVault vault: create it, enrol apps, grant and revoke, read the audit log, back it up.",
        discussion: """
            Commands other than init, types, apps keygen, audit verify, audit \
            accept-missing-checkpoint, restore and check talk to the vault's daemon \
            (healthvaultd), authenticating as the owner with the passphrase. Errors are one line, \
            with a non-zero exit code.

            Types go by short name in any case (stepCount, heartrate, sleep_analysis), by alias \
            (steps, weight, sleep) or by HealthKit identifier; `healthvault types` lists them. \
            Dates: 2026-11-23, 2026-11-23T08:00 (in your time zone), 2026-11-23T08:00:00Z, now, \
            today, yesterday, -7d (midnight seven days ago), -12h. Units: HealthKit's (kg, \
            count/min, degF) and bpm, °F, lbs. --json prints one JSON object, or one per line for \
            a list (docs/COMMAND_LINE.md).

            Examples:
              healthvault init
              healthvault types heart
              healthvault samples add weight 72.5 kg
              healthvault stats steps --from -7d
              healthvault stats sleep --from -7d
              healthvault profile set bloodType A+
            """,
        version: HealthVaultVersion.current,
        subcommands: [
            Init.self, Status.self, Login.self, Logout.self, Lock.self, Unlock.self, Passwd.self, Types.self, Apps.self,
            Requests.self,
            Grant.self, Deny.self, Revoke.self, Grants.self, Objects.self, Profile.self, DataSummary.self, Samples.self,
            Import.self,
            Export.self,
            Stats.self,
            Activity.self,
            Goals.self,
            Report.self,
            Workouts.self,
            Units.self,
            Priority.self, Timezone.self,
            Audit.self,
            Backup.self, Restore.self, Check.self,
        ]
    )
}

func runAsync<Command: AsyncParsableCommand>(_ command: inout Command) async throws {
    try await command.run()
}

// One line per error, whatever went wrong; help and version as ArgumentParser prints them.
do {
    var command = try HealthVaultCommand.parseAsRoot()
    LocalDaemon.permitted.store(command is any ServedWithoutDaemon, ordering: .relaxed)
    if var asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(&asyncCommand)
    } else {
        try command.run()
    }
    // A vault this command served to itself (no healthvaultd) is locked before it exits.
    await LocalDaemon.stop()
} catch {
    await LocalDaemon.stop()
    var code = HealthVaultCommand.exitCode(for: error)
    // `audit verify --help` promises 0, 1 or 2: a command line it cannot use is "could not verify".
    if code == .validationFailure, Array(CommandLine.arguments.dropFirst().prefix(2)) == ["audit", "verify"] {
        code = ExitCode(2)
    }
    if code == .success || error is CleanExit {
        HealthVaultCommand.exit(withError: error)
    }
    let message: String
    switch error {
    case let error as ToolError: message = error.description
    case let error as RPCError: message = daemonMessage(error)
    case let error as ConnectionError: message = error.description
    case let error as ExitCode: exit(error.rawValue)
    default:
        message = HealthVaultCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
    }
    FileHandle.standardError.write(Data("healthvault: \(message)\n".utf8))
    exit(code == .success ? 1 : code.rawValue)
}
