#!/usr/bin/env bash
# make demo: HealthVault's main job, end to end, on a throwaway vault.
#
# Creates a vault in a temporary directory, starts healthvaultd, enrols the example apps (their
# key pairs generated inside the throwaway vault), and walks through authorization, saving,
# reading, a denied read, a refused delete, a revocation under a live observer, a run with live
# statistics and the owner's view of it, an Apple Health export.zip brought in (and again, adding
# nothing) with an entry of the owner's own, and the audit log: export, verify, tamper, verify again.
# Each step says what it shows and checks it; the script exits 0 only if every step behaved as
# promised, and removes everything it made.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-$(swift build --show-bin-path)}
HV="$BIN/healthvault"
HVD="$BIN/healthvaultd"
STEPS="$BIN/example-stepcounter"
SLEEP="$BIN/example-sleeptracker"
RUN="$BIN/example-runtracker"

WORK=$(mktemp -d /tmp/healthvault-demo.XXXXXX)
VAULT="$WORK/vault"
PASS="$WORK/passphrase"
DAEMON_PID=""
step=0

cleanup() {
  if [ -n "$DAEMON_PID" ] && kill -0 "$DAEMON_PID" 2>/dev/null; then
    kill -TERM "$DAEMON_PID" 2>/dev/null || true
    wait "$DAEMON_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

say() { step=$((step + 1)); printf '\n%d. %s\n' "$step" "$*"; }
note() { printf '   %s\n' "$*"; }
fail() { printf '\nDEMO FAILED: %s\n' "$*" >&2; [ -f "$WORK/daemon.log" ] && tail -n 20 "$WORK/daemon.log" >&2; exit 1; }
owner() { "$HV" "$@" --vault "$VAULT" --passphrase-file "$PASS"; }

export HEALTHVAULT_DIR="$VAULT"
umask 077
printf 'correct horse battery staple (demo only)\n' > "$PASS"

say "The owner creates a vault in $VAULT (the passphrase is stretched with Argon2id)."
"$HV" init --vault "$VAULT" --passphrase-file "$PASS" | sed 's/^/   /'

say "The owner starts healthvaultd; it listens on a socket only the owner's user can open."
"$HVD" --vault "$VAULT" --passphrase-file "$PASS" 2> "$WORK/daemon.log" &
DAEMON_PID=$!
for _ in $(seq 1 100); do [ -S "$VAULT/healthvaultd.sock" ] && break; sleep 0.1; done
[ -S "$VAULT/healthvaultd.sock" ] || fail "the daemon did not start"
note "$(stat -c '%A %n' "$VAULT/healthvaultd.sock")"
"$HV" status --vault "$VAULT" | sed 's/^/   /'

say "Each app gets a key pair (kept inside the throwaway vault); the owner enrols both from their manifests."
"$HV" apps keygen --private-key "$VAULT/stepcounter.key" --public-key "$VAULT/stepcounter.pub" > /dev/null
"$HV" apps keygen --private-key "$VAULT/sleeptracker.key" --public-key "$VAULT/sleeptracker.pub" > /dev/null
owner apps enroll policies/apps/org.example.stepcounter.json --key "$VAULT/stepcounter.pub" | sed 's/^/   /'
owner apps enroll policies/apps/org.example.sleeptracker.json --key "$VAULT/sleeptracker.pub" | sed 's/^/   /'

say "The step counter asks to read and share steps and heart rate; the sleep tracker asks for sleep and steps."
"$STEPS" request --key "$VAULT/stepcounter.key" || fail "the step counter's request"
"$SLEEP" request --key "$VAULT/sleeptracker.key" || fail "the sleep tracker's request"
owner requests | sed 's/^/   /'

say "The owner grants the step counter steps only, and refuses the sleep tracker's read of steps."
owner grant org.example.stepcounter stepCount --read --share | sed 's/^/   /'
owner deny org.example.sleeptracker stepCount --read | sed 's/^/   /'
owner grant org.example.sleeptracker sleepAnalysis --read --share | sed 's/^/   /'

say "The step counter saves a day of steps and reads it back; heart rate, not granted, is refused."
"$STEPS" save-day --key "$VAULT/stepcounter.key" --uuid-file "$WORK/sample-uuid" > "$WORK/save-day.txt" || { cat "$WORK/save-day.txt"; fail "saving and reading steps"; }
cat "$WORK/save-day.txt"
grep -q 'saving heart rate was refused' "$WORK/save-day.txt" || fail "heart rate, not granted, was not refused"

say "The owner looks at the steps per hour (in their time zone, set to UTC) and the week's activity."
owner timezone UTC | sed 's/^/   /'
owner stats stepCount --interval hour > "$WORK/stats.txt" || fail "the hourly statistics"
sed 's/^/   /' "$WORK/stats.txt"
grep -q ' sum ' "$WORK/stats.txt" || fail "the hourly statistics show no sums"
owner activity --to "$(date -u +%F)" > "$WORK/activity.txt" || fail "the activity summary"
sed 's/^/   /' "$WORK/activity.txt"
grep -q "  move .* stand [1-9]" "$WORK/activity.txt" || fail "the week's activity shows no stand hours"

say "The sleep tracker, denied, reads steps: it gets an empty result, as from a vault with no steps."
"$SLEEP" read-steps --key "$VAULT/sleeptracker.key" || fail "the denied read was not empty"

say "The sleep tracker tries to delete one of the step counter's samples."
"$SLEEP" delete --key "$VAULT/sleeptracker.key" --uuid "$(cat "$WORK/sample-uuid")" || fail "the refused delete"
owner apps show org.example.stepcounter > /dev/null
[ "$(owner audit show --app org.example.stepcounter --operation save --json | grep -c '"outcome":"ok"')" -ge 1 ] ||
  fail "the step counter's save is not in the audit log"

say "The owner changes their mind: the sleep tracker may read steps. It starts an observer on steps."
owner grant org.example.sleeptracker stepCount --read | sed 's/^/   /'
"$SLEEP" watch --key "$VAULT/sleeptracker.key" --seconds 6 > "$WORK/watch.log" &
WATCH_PID=$!
for _ in $(seq 1 100); do grep -q 'watching' "$WORK/watch.log" && break; sleep 0.1; done
cat "$WORK/watch.log"
"$STEPS" save-one --key "$VAULT/stepcounter.key" || fail "the step counter's save"
for _ in $(seq 1 50); do grep -q 'update 1' "$WORK/watch.log" && break; sleep 0.1; done
grep -q 'update 1' "$WORK/watch.log" || fail "the observer was not told of the new steps"
grep 'update 1' "$WORK/watch.log"

say "The owner revokes the sleep tracker's read of steps; its observer stops hearing of them at once."
owner revoke org.example.sleeptracker stepCount --read | sed 's/^/   /'
"$STEPS" save-one --key "$VAULT/stepcounter.key" || fail "the step counter's save"
wait "$WATCH_PID" || fail "the observer failed"
tail -n +3 "$WORK/watch.log"
grep -q 'update 2' "$WORK/watch.log" && fail "the observer heard of steps after the revocation"
grep -q 'observer stopped after 1 update' "$WORK/watch.log" || fail "the observer did not stop cleanly"
"$SLEEP" read-steps --key "$VAULT/sleeptracker.key" || fail "the read after revocation was not empty"

say "A run tracker and a heart-rate strap are enrolled. The tracker asks to share workouts, energy and distance, and to read heart rate; the strap asks to share heart rate."
"$HV" apps keygen --private-key "$VAULT/runtracker.key" --public-key "$VAULT/runtracker.pub" > /dev/null
"$HV" apps keygen --private-key "$VAULT/heartstrap.key" --public-key "$VAULT/heartstrap.pub" > /dev/null
owner apps enroll policies/apps/org.example.runtracker.json --key "$VAULT/runtracker.pub" | sed 's/^/   /'
owner apps enroll policies/apps/org.example.heartstrap.json --key "$VAULT/heartstrap.pub" | sed 's/^/   /'
"$RUN" request --key "$VAULT/runtracker.key" || fail "the run tracker's request"
"$RUN" strap-request --key "$VAULT/heartstrap.key" || fail "the strap's request"

say "The owner grants both what they asked for, and wants distances in kilometres and heart rate per minute."
owner grant org.example.runtracker workout activeEnergyBurned distanceWalkingRunning --share | sed 's/^/   /'
owner grant org.example.runtracker heartRate --read | sed 's/^/   /'
owner grant org.example.heartstrap heartRate --share | sed 's/^/   /'
owner units distanceWalkingRunning km | sed 's/^/   /'
owner units heartRate count/min | sed 's/^/   /'

say "A two-minute run with a pause and a lap, replayed in six seconds (the samples keep the run's dates): the strap saves heart rate; the tracker shows the live totals the vault pushes and saves one workout."
"$RUN" strap --key "$VAULT/heartstrap.key" --clock "$WORK/run.clock" > "$WORK/strap.log" &
STRAP_PID=$!
"$RUN" run --key "$VAULT/runtracker.key" --clock "$WORK/run.clock" --speed 20 --uuid-file "$WORK/workout-uuid" \
  > "$WORK/run.log" || { cat "$WORK/run.log"; kill "$STRAP_PID" 2>/dev/null || true; fail "the run"; }
wait "$STRAP_PID" || { cat "$WORK/strap.log"; fail "the strap"; }
cat "$WORK/run.log" "$WORK/strap.log"
grep -q '\] live  elapsed .* heart rate .* distance .* km' "$WORK/run.log" || fail "no live totals with heart rate and distance"
grep -q '\] session paused at 0:40' "$WORK/run.log" || fail "the tracker did not hear the pause"
grep -q '1:40 of running in 2:00 (paused 0:20)' "$WORK/run.log" || fail "the workout's duration leaves out the pause"
grep -q 'distance 0.35 km, energy 21 kcal, .* max 168 bpm' "$WORK/run.log" || fail "the workout's totals"
grep -q 'events: lap 0:00-1:20, pause at 0:40, resume at 1:00; 1 lap' "$WORK/run.log" || fail "the workout's events"
grep -q 'heart rate (Heart Strap)' "$WORK/run.log" || fail "the strap's heart rate is not the workout's"

say "The owner looks at workouts: one line each, newest first, then everything about the run."
owner workouts list > "$WORK/workouts.txt" || fail "the list of workouts"
sed 's/^/   /' "$WORK/workouts.txt"
echo
grep -Eq ' running +0:01:40 +0.35 km +21 kcal +[0-9]+(\.[0-9])? count/min +1$' "$WORK/workouts.txt" || fail "the list does not show the run"
owner workouts show "$(cat "$WORK/workout-uuid")" > "$WORK/workout.txt" || fail "the workout"
sed 's/^/   /' "$WORK/workout.txt"
grep -q '^Duration  *0:01:40 of 0:02:00' "$WORK/workout.txt" || fail "the workout's duration"
grep -q '^  0:00:40  *pause' "$WORK/workout.txt" || fail "the workout's pause"
grep -Eq '^  HKQuantityTypeIdentifierHeartRate  +[1-9][0-9]*$' "$WORK/workout.txt" || fail "the workout's heart rate samples"
if owner workouts show "$(cat "$WORK/sample-uuid")" 2> "$WORK/not-a-workout.txt"; then fail "a step sample was shown as a workout"; fi
note "$(cat "$WORK/not-a-workout.txt")"
owner audit show --app org.example.runtracker --json > "$WORK/run-audit.jsonl"
for operation in workout.session workout.collect workout.finish; do
  grep -q "\"operation\":\"$operation\",\"outcome\":\"ok\"" "$WORK/run-audit.jsonl" || fail "no $operation entry in the audit log"
done
note "audit log, the run tracker's entries: $(grep -o '"operation":"[a-z.]*"' "$WORK/run-audit.jsonl" | cut -d'"' -f4 | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}')"

say "The owner brings in history: the export.zip an iPhone's \"Export All Health Data\" gives (a small one made here: a watch's and a phone's steps, a blood pressure, a run with its GPX route)."
python3 - "$WORK/export.zip" <<'PY'
import sys, zipfile
steps = "".join(
    f'<Record type="HKQuantityTypeIdentifierStepCount" sourceName="{src}" unit="count" '
    f'startDate="2026-03-02 {h:02d}:00:00 +0100" endDate="2026-03-02 {h:02d}:30:00 +0100" value="{n}"/>\n'
    for h in range(8, 20) for src, n in (("Ana\u2019s Apple Watch", 900 + h), ("Ana\u2019s iPhone", 700 + h)))
pressure = ('<Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" unit="mmHg" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100" value="121"/>\n'
            '<Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Omron" unit="mmHg" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100" value="79"/>\n')
xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n<ExportDate value="2026-03-05 10:00:00 +0100"/>\n'
       + steps + pressure + '<Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100">\n'
       + pressure + '</Correlation>\n'
       '<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="10" durationUnit="min" sourceName="Ana\u2019s Apple Watch" startDate="2026-03-04 18:00:00 +0100" endDate="2026-03-04 18:10:00 +0100">\n'
       '<WorkoutRoute sourceName="Ana\u2019s Apple Watch"><FileReference path="/workout-routes/route_2026-03-04_6.00pm.gpx"/></WorkoutRoute>\n</Workout>\n</HealthData>\n')
gpx = "<gpx><trk><trkseg>\n" + "".join(
    f'<trkpt lat="48.85{i:02d}" lon="2.35{i:02d}"><ele>35</ele><time>2026-03-04T17:{i // 6:02d}:{i % 6 * 10:02d}Z</time>'
    f'<extensions><speed>2.9</speed><hAcc>4</hAcc></extensions></trkpt>\n' for i in range(60)) + "</trkseg></trk></gpx>\n"
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("apple_health_export/export.xml", xml)
    archive.writestr("apple_health_export/workout-routes/route_2026-03-04_6.00pm.gpx", gpx)
    archive.writestr("apple_health_export/electrocardiograms/ecg_2026-03-01.csv", "Name,Ana\n")
PY
owner import apple-health "$WORK/export.zip" > "$WORK/import.txt" || { cat "$WORK/import.txt"; fail "the import"; }
sed 's/^/   /' "$WORK/import.txt"
grep -q '^Imported 29 of apple_health_export/export.xml' "$WORK/import.txt" || fail "the import did not bring in its 29 records"
grep -q '1  electrocardiograms (CSV)' "$WORK/import.txt" || fail "the ECG file the vault cannot hold yet is not named"
owner import apple-health "$WORK/export.zip" --json > "$WORK/again.json"
python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["byType"].values(); sys.exit(not (sum(x["imported"] for x in c) == 0 and sum(x["alreadyPresent"] for x in c) == 29))' \
  "$WORK/again.json" || fail "a second import added something"
note "imported again: nothing new (29 already there)"
owner samples add bodyMass 72.5 kg --at 2026-03-05T08:00:00+01:00 | sed 's/^/   /'
owner data > "$WORK/data.txt"
sed 's/^/   /' "$WORK/data.txt"
grep -q 'Ana’s Apple Watch (12)' "$WORK/data.txt" || fail "the watch's steps are not a source of their own"
grep -q '^workoutRoute ' "$WORK/data.txt" || fail "the run's route was not imported"
grep -q 'HealthVault (1)' "$WORK/data.txt" || fail "the owner's own entry"

say "The owner exports the audit log; an auditor verifies it offline with the vault's public key."
owner audit export "$WORK/export" | sed 's/^/   /'
"$HV" audit verify "$WORK/export" --key "$VAULT/audit-key.pub" | sed 's/^/   /' || fail "the export did not verify"
owner audit show --app org.example.sleeptracker --type stepCount | tail -n 6 | sed 's/^/   /'

say "Someone edits one entry of a copy of the export; the verifier names the entry."
cp -r "$WORK/export" "$WORK/tampered"
# entries.bin is a sequence of (4-byte big-endian length, entry). Change the last byte of entry 7.
offset=0
for _ in 1 2 3 4 5 6 7; do
  length=$(od -An -tu4 --endian=big -j "$offset" -N4 "$WORK/tampered/entries.bin" | tr -d ' ')
  offset=$((offset + 4 + length))
done
length=$(od -An -tu4 --endian=big -j "$offset" -N4 "$WORK/tampered/entries.bin" | tr -d ' ')
target=$((offset + 4 + length - 1))
byte=$(od -An -tu1 -j "$target" -N1 "$WORK/tampered/entries.bin" | tr -d ' ')
printf "$(printf '\\%03o' $(((byte + 1) % 256)))" |
  dd of="$WORK/tampered/entries.bin" bs=1 seek="$target" conv=notrunc status=none
set +e
verdict=$("$HV" audit verify "$WORK/tampered" --key "$VAULT/audit-key.pub")
status=$?
set -e
note "$verdict"
[ "$status" -eq 1 ] || fail "the tampered export was not reported as tampered (exit $status)"
echo "$verdict" | grep -q 'entry 7' || fail "the verifier did not name entry 7"

say "The owner stops the daemon: it finishes what is under way, locks the vault and removes its socket."
kill -TERM "$DAEMON_PID"
wait "$DAEMON_PID" || fail "the daemon did not stop cleanly"
DAEMON_PID=""
[ ! -e "$VAULT/healthvaultd.sock" ] || fail "the socket was left behind"
note "stopped; socket removed"

# `make report-example`: the owner's report of the demo's vault, written with the daemon stopped
# (the command serves the vault to itself) before the vault is removed. Not a step of the demo.
if [ -n "${DEMO_REPORT:-}" ]; then
  owner report --from -6d --overwrite "$DEMO_REPORT" > /dev/null 2>&1 || fail "the report of the demo's vault"
fi

printf '\nEvery step behaved as promised. The throwaway vault is removed.\n'
