import Glibc

// What the signal handler restores: set while a prompt has echo off, read by the handler
// (async-signal-safe: tcsetattr, write, signal, raise and kill only).
nonisolated(unsafe) private var guardedDescriptor: Int32 = -1
nonisolated(unsafe) private var guardedOriginal = termios()
nonisolated(unsafe) private var guardedSilent = termios()

/// Puts the terminal back as it was when a signal ends or stops the process at a prompt with
/// echo off (a passphrase prompt): Ctrl-C, Ctrl-\, a hang-up or a kill restore the settings and
/// then take their usual course (the process ends by that signal, as the shell expects); Ctrl-Z
/// restores them while stopped and turns echo off again on `fg`. Signals the process ignores
/// stay ignored. One guardian at a time; ``restore()`` ends it.
final class TerminalGuardian {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]
    private var previous: [(Int32, sigaction)] = []
    private var ended = false

    init(fd: Int32, original: termios, silent: termios) {
        guardedOriginal = original
        guardedSilent = silent
        guardedDescriptor = fd
        for number in Self.signals {
            var old = sigaction()
            sigaction(number, nil, &old)
            // Ignored signals stay ignored (nohup's SIGHUP); handled ones keep their handler.
            guard old.__sigaction_handler.sa_handler == nil else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in terminalGuardianHandle(number) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(number, &action, nil)
            previous.append((number, old))
        }
    }

    /// Restores the terminal and the signals' previous dispositions.
    func restore() {
        guard !ended else { return }
        ended = true
        if guardedDescriptor >= 0 { tcsetattr(guardedDescriptor, TCSAFLUSH, &guardedOriginal) }
        guardedDescriptor = -1
        for (number, old) in previous {
            var old = old
            sigaction(number, &old, nil)
        }
    }

    deinit { restore() }
}

private func terminalGuardianHandle(_ number: Int32) {
    let fd = guardedDescriptor
    if fd >= 0 {
        tcsetattr(fd, TCSANOW, &guardedOriginal)
        var newline: UInt8 = 0x0A
        _ = write(fd, &newline, 1)
    }
    if number == SIGTSTP {
        // Stopped with echo on; on `fg` the prompt goes on, silent again.
        kill(getpid(), SIGSTOP)
        if fd >= 0 { tcsetattr(fd, TCSANOW, &guardedSilent) }
        return
    }
    signal(number, SIG_DFL)
    raise(number)
}
