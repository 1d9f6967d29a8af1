import ArgumentParser
import CommandSupport
import Foundation
import Glibc

/// `--yes` and `--dry-run`, which every command that deletes or replaces what the owner cannot get
/// back takes (README, "Commands that delete"). The command first works out what it would do and
/// says so; then `--dry-run` stops there (exit 0), `--yes` goes on, a terminal is asked, and
/// anything else (a script, a pipe) is refused with one line, nothing changed.
struct ConfirmationOptions: ParsableArguments {
    @Flag(help: "Do it without asking (for scripts; without a terminal it is refused otherwise).")
    var yes = false

    @Flag(help: "Say what would be done, and change nothing.")
    var dryRun = false

    func validate() throws {
        if yes, dryRun { throw ValidationError("--yes and --dry-run exclude each other") }
    }

    /// Whether to go on with what `plan` says. `summary` is the plan in one line (for the refusal
    /// without a terminal), `question` what a terminal is asked, `nothingDone` what is said when
    /// it is not done ("nothing was deleted"). With `--json` (`json` given), `--dry-run` prints
    /// that one object (with `"dryRun": true`) instead of the plan's lines; a terminal is still
    /// asked on standard error.
    func confirm(
        plan: [String],
        summary: String,
        question: String,
        nothingDone: String,
        json: (any Encodable)? = nil
    ) throws -> Bool {
        if dryRun {
            if let json {
                try printJSON(json)
                return false
            }
            for line in plan { print(line) }
            print("Dry run: \(nothingDone).")
            return false
        }
        if yes { return true }
        guard isatty(0) == 1 else {
            throw ToolError("\(summary); \(nothingDone): confirm with --yes, or see what would go with --dry-run")
        }
        FileHandle.standardError.write(Data((plan + ["\(question) [y/N] "]).joined(separator: "\n").utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw ToolError(nothingDone) }
        return true
    }
}
