#!/usr/bin/env python3
"""Runs the README's newcomer tour ("Your first vault") as a newcomer would: in a fresh $HOME, at
terminals (pseudo-terminals, so every prompt is the real one), command by command, and compares
each output line the README shows with what the command printed.

    .venv/bin/python scripts/readme-tour.py [--show] [README.md]     (--show: print what each showed)

The tour is the part of the README between `<!-- tour begins -->` and `<!-- tour ends -->`. Each
```console block in it runs at a terminal: the first one, or the second where the block follows
`<!-- tour: second terminal -->`. In a block, a line `$ COMMAND` is typed at the terminal's shell,
a line `^C` types Ctrl-C, and the lines after either, up to the next, are the output the README
promises: each must match one line the terminal shows, in order, where `…` within a line stands for
any text and a line that is only `…` for any number of lines (none included). Runs of spaces count
as one (column widths follow your time zone's name). `/home/you` is the fresh home.

A command must exit 0, except the one a second terminal leaves running (the daemon): once the
output shown for it has appeared, the tour goes on. At each passphrase prompt the runner types the
tour's passphrase. The environment is a new account's: HOME, a runtime folder of its own
(XDG_RUNTIME_DIR, as systemd gives a logged-in user), PATH without ~/.local/bin, LANG, TERM, and
nothing else of the caller's, except CONFIGURATION (make install's build, `debug` here so the test
installs the build `make test` made instead of building a release).

Exits 0 when every command behaved as the README says; otherwise prints the command, the lines
expected and the lines seen, and exits 1. Everything it made is removed.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import pexpect

PASSPHRASE = "tidy lantern orbit velvet harbor"
PROMPT = "@@tour-exit-"
PROMPT_PATTERN = re.escape(PROMPT) + r"(\d+)@@"
PASSPHRASE_PROMPT = r"[Pp]assphrase[^\r\n]*: $"
ELLIPSIS = "…"
TIMEOUT = 300


class TourFailure(Exception):
    pass


def parse(readme):
    """The tour's blocks: (terminal, [(action, expected lines)]), action `$ COMMAND` or `^C`."""
    text = open(readme, encoding="utf-8").read()
    begin, end = text.find("<!-- tour begins -->"), text.find("<!-- tour ends -->")
    if begin < 0 or end < begin:
        raise TourFailure(f"{readme} has no tour (<!-- tour begins --> ... <!-- tour ends -->)")
    blocks, terminal, inside = [], "first", None
    for line in text[begin:end].splitlines():
        if line.strip() == "<!-- tour: second terminal -->":
            terminal = "second"
        elif inside is None and line.strip() == "```console":
            inside = []
        elif inside is not None and line.strip() == "```":
            blocks.append((terminal, inside))
            terminal, inside = "first", None
        elif inside is not None:
            if line.startswith("$ ") or line == "^C":
                inside.append((line, []))
            elif not inside:
                raise TourFailure(f"output before any command in a tour block: {line!r}")
            else:
                inside[-1][1].append(line)
    if not blocks:
        raise TourFailure("the tour has no ```console blocks")
    return blocks


def normal(line):
    return " ".join(line.split())


def line_pattern(expected, home):
    expected = normal(expected.replace("/home/you", home))
    return re.compile("".join(".*?" if part == ELLIPSIS else re.escape(part)
                              for part in re.split("(" + ELLIPSIS + ")", expected)) + r"\Z")


def matches(expected, seen, home):
    """Whether the lines seen are the lines expected (`…` lines: any number of lines)."""
    patterns = [None if line.strip() == ELLIPSIS else line_pattern(line, home) for line in expected]
    seen = [normal(line) for line in seen]
    memo = {}

    def match(i, j):
        if (i, j) not in memo:
            if i == len(patterns):
                result = j == len(seen)
            elif patterns[i] is None:
                result = any(match(i + 1, k) for k in range(j, len(seen) + 1))
            else:
                result = j < len(seen) and bool(patterns[i].match(seen[j])) and match(i + 1, j + 1)
            memo[(i, j)] = result
        return memo[(i, j)]

    return match(0, 0)


def screen_lines(raw):
    """What a terminal shows of `raw`: escape sequences out, each line as its last `\\r` left it."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw).replace("\r\n", "\n")
    lines = [line.split("\r")[-1] for line in text.split("\n")]
    while lines and lines[-1].strip() == "":
        lines.pop()
    while lines and lines[0].strip() == "":
        lines.pop(0)
    return lines


class Terminal:
    def __init__(self, name, env, cwd):
        self.name = name
        self.shell = pexpect.spawn("bash", ["--noprofile", "--norc"], env=env, cwd=cwd,
                                   encoding="utf-8", dimensions=(50, 200), timeout=TIMEOUT)
        # The shell's own echo off (the commands are shown from the README), a prompt that says
        # how the last command exited.
        self.shell.sendline(f"stty -echo; PS1='{PROMPT}$?@@\\n'; PS2=''")
        self.shell.expect(PROMPT_PATTERN)
        self.running = None

    def may_keep_running(self, action):
        """A command in the second terminal may go on running (the daemon); Ctrl-C must end it."""
        return self.name == "second" and action != "^C"

    def run(self, action, expected, home):
        """Types the action; returns the lines seen, the exit status (None: still running)."""
        if action == "^C":
            self.shell.sendcontrol("c")
        else:
            if self.running:
                raise TourFailure(f"{self.name} terminal: `{self.running}` still runs")
            self.shell.sendline(action[2:])
        raw = ""
        while True:
            index = self.shell.expect([PROMPT_PATTERN, PASSPHRASE_PROMPT, pexpect.TIMEOUT, pexpect.EOF],
                                      timeout=2 if self.may_keep_running(action) else TIMEOUT)
            raw += self.shell.before
            if index == 0:
                self.running = None
                return screen_lines(raw), int(self.shell.match.group(1))
            if index == 1:
                raw += self.shell.after
                self.shell.sendline(PASSPHRASE)
            elif index == 3:
                raise TourFailure(f"{self.name} terminal: the shell ended")
            elif self.may_keep_running(action) and matches(expected, screen_lines(raw), home):
                self.running = action[2:]
                return screen_lines(raw), None
            elif not self.may_keep_running(action) or len(raw) > 1_000_000:
                raise TourFailure(f"{self.name} terminal: `{action}` did not finish; it showed:\n{raw}")


def checkout_state(checkout):
    """`git status` of the checkout: the tour must leave it as it found it (builds aside)."""
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=checkout,
                          capture_output=True, text=True, check=True).stdout


def main():
    arguments = [a for a in sys.argv[1:] if a != "--show"]
    show = "--show" in sys.argv[1:]
    readme = arguments[0] if arguments else "README.md"
    checkout = os.path.dirname(os.path.abspath(readme))
    blocks = parse(readme)
    home = tempfile.mkdtemp(prefix="healthvault-tour-home-")
    runtime = tempfile.mkdtemp(prefix="healthvault-tour-run-")
    os.chmod(runtime, 0o700)
    path = ":".join(p for p in os.environ.get("PATH", "/usr/bin:/bin").split(":")
                    if p and ".local/bin" not in p)
    env = {"HOME": home, "XDG_RUNTIME_DIR": runtime, "PATH": path, "LANG": "C.UTF-8",
           "TERM": "xterm", "USER": os.environ.get("USER", "you"),
           "CONFIGURATION": os.environ.get("CONFIGURATION", "debug")}
    terminals = {}
    commands = 0
    before = checkout_state(checkout)
    try:
        for terminal, actions in blocks:
            if terminal not in terminals:
                terminals[terminal] = Terminal(terminal, env, checkout)
            for action, expected in actions:
                seen, status = terminals[terminal].run(action, expected, home)
                commands += 1
                if status not in (0, None) and not (action == "^C" and status in (0, 130)):
                    raise TourFailure(f"`{action}` exited {status}; it showed:\n" + "\n".join(seen))
                if not matches(expected, seen, home):
                    raise TourFailure(f"`{action}` did not show what the README says.\nREADME:\n"
                                      + "\n".join(expected) + "\nseen:\n" + "\n".join(seen))
                print(f"  ok  {action}", flush=True)
                if show:
                    print("\n".join("      " + line for line in seen), flush=True)
        left = [t.running for t in terminals.values() if t.running]
        if left:
            raise TourFailure(f"the tour ends with `{left[0]}` still running")
        if checkout_state(checkout) != before:
            raise TourFailure("the tour wrote into the checkout (git status changed): a newcomer's "
                              "files belong in their home")
        print(f"The README's tour: {commands} steps, each as the README says.")
        return 0
    except TourFailure as failure:
        print(f"README TOUR FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        for t in terminals.values():
            if t.running:
                t.shell.sendcontrol("c")
            t.shell.close(force=True)
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
