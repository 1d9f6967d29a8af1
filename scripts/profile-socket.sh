#!/usr/bin/env bash
# Profiles one socket benchmark (Benchmarks/StoreBenchmarks/SocketBenchmarks.swift) with perf:
# the daemon it starts and the benchmark's own process (the app's side: HealthVaultKit), sampled
# together for SECONDS once the daemon has served for a few seconds. Writes to OUTDIR the flat
# profiles by library and by function (demangled), and the daemon's system calls (strace -c) in a
# second pass. docs/PERFORMANCE.md says what they showed.
#
#   scripts/profile-socket.sh 'Socket saves: daemon, batches of 100' 10 /tmp/profile-saves
#
# perf is Debian's linux-perf (`apt-get install linux-perf`; not installed by make). Environment
# as for the benchmark: HEALTHVAULT_BENCH_SAVES, HEALTHVAULT_BENCH_ANCHORED (a smaller vault starts
# sooner), HEALTHVAULTD (default: this checkout's release build).
set -euo pipefail
filter=${1:?usage: profile-socket.sh BENCHMARK-REGEX SECONDS OUTDIR}
seconds=${2:?usage: profile-socket.sh BENCHMARK-REGEX SECONDS OUTDIR}
out=${3:?usage: profile-socket.sh BENCHMARK-REGEX SECONDS OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
export HEALTHVAULTD=${HEALTHVAULTD:-$root/.build/release/healthvaultd}
export HEALTHVAULT=${HEALTHVAULT:-$root/.build/release/healthvault}

run() {
    (cd "$root/Benchmarks" && swift package --allow-writing-to-package-directory benchmark --filter "$filter" \
        --no-progress >"$out/benchmark-$1.txt" 2>&1) &
    bench=$!
    daemon=
    for _ in $(seq 1 600); do
        daemon=$(pgrep -n -f "healthvaultd --vault .*hv-bench-socket" || true)
        [ -n "$daemon" ] && break
        sleep 0.5
    done
    [ -n "$daemon" ] || { echo "profile-socket: no daemon started for '$filter'; see $out/benchmark-$1.txt" >&2; exit 1; }
    client=$(ps -o ppid= -p "$daemon" | tr -d ' ')  # the benchmark process spawned it
    sleep 3
}

summarize() {  # perf.data, name: flat by library, by function, and inclusive (callers' share)
    perf report -i "$1" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^$' >"$out/$2-by-library.txt" || true
    perf report -i "$1" --no-children --sort sym --stdio -g none 2>/dev/null | grep -v '^$' \
        | swift demangle --simplified >"$out/$2-by-function.txt" || true
    perf report -i "$1" --children --sort sym --stdio -g none 2>/dev/null | grep -v '^$' \
        | swift demangle --simplified >"$out/$2-inclusive.txt" || true
}

run perf
perf record -F 499 -g -o "$out/daemon.data" -p "$daemon" -- sleep "$seconds" >/dev/null 2>&1 &
daemon_perf=$!
if [ -n "$client" ]; then
    perf record -F 499 -g -o "$out/client.data" -p "$client" -- sleep "$seconds" >/dev/null 2>&1 || true
fi
wait "$daemon_perf" || true
wait "$bench" || true
summarize "$out/daemon.data" daemon
[ -n "$client" ] && summarize "$out/client.data" client

run strace
timeout "$seconds" strace -c -f -p "$daemon" -o "$out/daemon-syscalls.txt" >/dev/null 2>&1 || true
wait "$bench" || true
echo "profile-socket: in $out: daemon-{by-library,by-function,inclusive}.txt, the same for client, daemon-syscalls.txt"
