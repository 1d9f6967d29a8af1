import Foundation
import Glibc
import Testing
import VaultCrypto
import VaultStore

extension DaemonEndToEnd {
    /// Issue 22: the passphrase prompts at a real terminal (a pseudo-terminal the commands run
    /// on): a weak passphrase is said to be weak and asked again unless taken on purpose, Ctrl-C
    /// leaves echo on, and `init` and `passwd` check what can be checked before asking.
    @Suite struct PassphrasePromptTests {
        static func scratch() throws -> String {
            try #require(mkdtemp(strdup("/tmp/hvp.XXXXXX")).map { String(cString: $0) })
        }

        @Test func ctrlCAtAPassphrasePromptLeavesTheTerminalEchoing() throws {
            let root = try Self.scratch()
            defer { try? FileManager.default.removeItem(atPath: root) }
            let daemon = try TestDaemon(start: false)
            let prompts: [(String, [String], String)] = [
                (TestDaemon.binary("healthvault"), ["init", "--vault", root + "/new"], "New passphrase for"),
                (TestDaemon.binary("healthvault"), ["passwd", "--vault", daemon.directory.path], "Current passphrase"),
                (TestDaemon.binary("healthvaultd"), ["--vault", daemon.directory.path], "Passphrase for"),
            ]
            for (program, arguments, prompt) in prompts {
                let terminal = try TerminalProcess(program, arguments)
                #expect(terminal.echoes, "a fresh terminal echoes")
                #expect(terminal.waitFor(prompt), "\(arguments): \(terminal.output)")
                #expect(!terminal.echoes, "\(arguments): the passphrase is not echoed")
                terminal.type("half a pass")
                terminal.type("\u{03}")
                let status = try #require(terminal.wait(), "\(arguments) did not end on Ctrl-C")
                #expect(TerminalProcess.signal(status) == SIGINT, "\(arguments): ended by \(status)")
                #expect(terminal.echoes, "\(arguments): echo is back on after Ctrl-C")
            }
            #expect(!FileManager.default.fileExists(atPath: root + "/new"))
        }

        @Test func aWeakPassphraseIsSaidToBeWeakAndAskedAgain() throws {
            let root = try Self.scratch()
            defer { try? FileManager.default.removeItem(atPath: root) }
            // At a terminal: "x" is weak; refusing it asks again; a strong one is then taken.
            let terminal = try TerminalProcess(TestDaemon.binary("healthvault"), ["init", "--vault", root + "/v"])
            #expect(terminal.waitFor("New passphrase for"))
            terminal.type("x\n")
            #expect(terminal.waitFor("Use it anyway? [y/N]"), "\(terminal.output)")
            #expect(
                terminal.output.contains("This passphrase is weak: about 5 bits (1 character"),
                "\(terminal.output)"
            )
            #expect(terminal.output.contains("found in under a second"), "\(terminal.output)")
            terminal.type("n\n")
            #expect(terminal.waitFor("Choose a longer one"))
            // Asked a second time (counted from the start: the new prompt may come in the same read
            // as the refusal).
            #expect(terminal.waitFor("New passphrase for", after: 1), "\(terminal.output)")
            terminal.type("seven lanterns drift over quiet gravel\n")
            #expect(terminal.waitFor("Repeat the passphrase"))
            terminal.type("seven lanterns drift over quiet gravel\n")
            let status = try #require(terminal.wait())
            #expect(TerminalProcess.exitCode(status) == 0, "\(terminal.output)")
            #expect(terminal.output.contains("Created vault"))

            // At a terminal, answering yes takes it.
            let accepting = try TerminalProcess(TestDaemon.binary("healthvault"), ["init", "--vault", root + "/w"])
            #expect(accepting.waitFor("New passphrase for"))
            accepting.type("1234\n")
            #expect(accepting.waitFor("Use it anyway? [y/N]"))
            #expect(accepting.output.contains("a sequence like abcd or 1234"), "\(accepting.output)")
            accepting.type("y\n")
            #expect(accepting.waitFor("Repeat the passphrase"))
            accepting.type("1234\n")
            #expect(TerminalProcess.exitCode(try #require(accepting.wait())) == 0, "\(accepting.output)")
            let vault = try Vault.open(at: URL(fileURLWithPath: root + "/w"), passphrase: SecureBytes(utf8: "1234"))
            vault.lock()

            // From a file: refused, nothing made; --allow-weak-passphrase takes it with a warning.
            let file = root + "/weak"
            try TestDaemon.writePassphraseFile("x", to: file)
            let refused = try CLITests.healthvault(["init", "--vault", root + "/f", "--passphrase-file", file])
            #expect(refused.status != 0)
            #expect(
                refused.err.hasPrefix("healthvault: the new passphrase is weak: about 5 bits (1 character")
                    && refused.err.contains("--allow-weak-passphrase") && refused.err.contains("nothing was created"),
                "\(refused.err)"
            )
            #expect(!FileManager.default.fileExists(atPath: root + "/f"))
            let allowed = try CLITests.healthvault([
                "init", "--vault", root + "/f", "--passphrase-file", file, "--allow-weak-passphrase",
            ])
            #expect(allowed.status == 0 && allowed.err.contains("warning: the new passphrase is weak"), "\(allowed)")

            // passwd judges the new passphrase the same way, and changes nothing for a weak one.
            let strong = root + "/strong"
            try TestDaemon.writePassphraseFile("seven lanterns drift over quiet gravel", to: strong)
            let weakChange = try CLITests.healthvault([
                "passwd", "--vault", root + "/v", "--passphrase-file", strong, "--new-passphrase-file", file,
            ])
            #expect(weakChange.status != 0 && weakChange.err.contains("nothing was changed"), "\(weakChange.err)")
            let unchanged = try Vault.open(
                at: URL(fileURLWithPath: root + "/v"),
                passphrase: SecureBytes(utf8: "seven lanterns drift over quiet gravel")
            )
            unchanged.lock()
        }

        @Test func initAndPasswdCheckFirstThenAsk() throws {
            let daemon = try TestDaemon(start: false)
            // init over a vault: refused before any passphrase is asked or any key derived.
            let again = try TerminalProcess(
                TestDaemon.binary("healthvault"),
                ["init", "--vault", daemon.directory.path]
            )
            let status = try #require(again.wait())
            #expect(TerminalProcess.exitCode(status) == 1, "\(again.output)")
            #expect(again.output.contains("holds a vault already; nothing was created"), "\(again.output)")
            #expect(!again.output.contains("assphrase"), "asked for a passphrase: \(again.output)")

            // passwd: a wrong current passphrase is refused before the new one is asked.
            let passwd = try TerminalProcess(
                TestDaemon.binary("healthvault"),
                ["passwd", "--vault", daemon.directory.path]
            )
            #expect(passwd.waitFor("Current passphrase"))
            passwd.type("not the passphrase\n")
            let passwdStatus = try #require(passwd.wait())
            #expect(TerminalProcess.exitCode(passwdStatus) == 1, "\(passwd.output)")
            #expect(passwd.output.contains("the current passphrase is wrong; nothing was changed"), "\(passwd.output)")
            #expect(!passwd.output.contains("New passphrase"), "asked for the new one first: \(passwd.output)")
        }
    }
}
