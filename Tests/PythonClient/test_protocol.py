#!/usr/bin/env python3
"""End-to-end test of healthvaultd's socket protocol from a client written from docs/PROTOCOL.md.

    python3 Tests/PythonClient/test_protocol.py BIN_DIR [--trace FILE]

BIN_DIR holds the built `healthvault` and `healthvaultd`. The test creates a throwaway vault in
/tmp, serves it, enrols the two example apps of policies/apps/, and then speaks the protocol
directly: the handshake and its refusals, authorization, saving, reading, the privacy guarantees
(byte for byte), observers, errors, limits, the owner's channel, and a clean shutdown. The owner's
grants go through the `healthvault` CLI. It prints one line per check and exits 0 only if every
check passed. --trace FILE writes every frame sent and received (length prefix in hex, then the
JSON text), which is where the worked example in docs/PROTOCOL.md comes from.
"""

import argparse
import base64
import json
import os
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import healthvault_client as hv  # noqa: E402

STEPS_APP = "org.example.stepcounter"
SLEEP_APP = "org.example.sleeptracker"
STEPS = "HKQuantityTypeIdentifierStepCount"
HEART = "HKQuantityTypeIdentifierHeartRate"

MAX_FRAME = 65536
AUTH_TIMEOUT = 3
FRAME_TIMEOUT = 1
RATE = 40

AUTH_FAILED = {
    "code": -32001,
    "data": {"code": "authorizationDenied", "message": "authentication failed"},
    "message": "authentication failed",
}


class CheckFailed(Exception):
    pass


class Run:
    def __init__(self, bin_dir, trace_path):
        self.bin_dir = os.path.abspath(bin_dir)
        self.hv = os.path.join(self.bin_dir, "healthvault")
        self.hvd = os.path.join(self.bin_dir, "healthvaultd")
        self.tracer = hv.Tracer(trace_path) if trace_path else None
        self.work = tempfile.mkdtemp(prefix="hvpy", dir="/tmp")
        self.vault = os.path.join(self.work, "v")
        self.passfile = os.path.join(self.work, "pass")
        self.socket_path = os.path.join(self.vault, hv.SOCKET_FILE_NAME)
        self.daemon = None
        self.daemon_log = os.path.join(self.work, "daemon.log")
        self.passed = 0
        self.failed = 0
        self.connections = []

    # MARK: Helpers

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""))
        sys.stdout.flush()
        return condition

    def require(self, name, condition, detail=""):
        if not self.check(name, condition, detail):
            raise CheckFailed(name)

    def section(self, text):
        if self.tracer:
            self.tracer.comment(text)

    def cli(self, *arguments, owner=True):
        command = [self.hv, *arguments]
        if owner:
            command += ["--vault", self.vault, "--passphrase-file", self.passfile]
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise CheckFailed(f"`healthvault {' '.join(arguments)}` failed: {result.stderr.strip()}")
        return result.stdout

    def connect(self, read_hello=True):
        conn = hv.Connection.open(self.socket_path, self.tracer, timeout=10.0, read_hello=read_hello)
        self.connections.append(conn)
        return conn

    def app(self, app_id, seed):
        conn = self.connect()
        conn.authenticate_app(app_id, seed)
        return conn

    def sample(self, value, start, end, sample_uuid=None):
        return {
            "type": STEPS,
            "uuid": sample_uuid or str(uuid.uuid4()).upper(),
            "startDate": start,
            "endDate": end,
            "quantity": {"value": value, "unit": "count"},
            "sourceRevision": {"source": {"bundleIdentifier": "com.example.claimed", "name": "Claimed"}, "version": "2.1"},
        }

    @staticmethod
    def steps_query():
        return {
            "query": {
                "predicates": [{"sampleType": STEPS}],
                "sortDescriptors": [{"key": "startDate", "order": "ascending"}],
                "limit": 0,
            }
        }

    # MARK: Setup

    def setup(self):
        with open(os.open(self.passfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write("python client test passphrase\n")
        self.cli("init", "--vault", self.vault, "--passphrase-file", self.passfile, "--json", owner=False)
        self.daemon = subprocess.Popen(
            [
                self.hvd, "--vault", self.vault, "--passphrase-file", self.passfile,
                "--max-frame-bytes", str(MAX_FRAME),
                "--authentication-timeout", str(AUTH_TIMEOUT),
                "--frame-timeout", str(FRAME_TIMEOUT),
                "--max-requests-per-second", str(RATE),
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(self.daemon_log, "w"),
        )
        deadline = time.monotonic() + 20
        while not os.path.exists(self.socket_path):
            if self.daemon.poll() is not None:
                raise CheckFailed(f"healthvaultd exited with {self.daemon.returncode}: {self.log_tail()}")
            if time.monotonic() > deadline:
                raise CheckFailed("healthvaultd did not create its socket within 20 s")
            time.sleep(0.05)
        mode = os.stat(self.socket_path).st_mode
        self.check("the socket is <vault>/healthvaultd.sock, mode 0600",
                   stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600, oct(stat.S_IMODE(mode)))
        self.keys = {}
        for app, name in [(STEPS_APP, "steps"), (SLEEP_APP, "sleep")]:
            private = os.path.join(self.work, f"{name}.key")
            public = os.path.join(self.work, f"{name}.pub")
            self.cli("apps", "keygen", "--private-key", private, "--public-key", public, owner=False)
            seed = hv.read_private_key(private)
            derived, _ = hv.sodium().keypair(seed)
            self.require(f"{name}: the key files hold the 32-byte seed and its public key",
                         derived == hv.read_public_key(public))
            with open(private) as f:
                private_text = f.read()
            with open(public) as f:
                public_text = f.read()
            self.check(f"{name}: the private key file says what it is (docs/PROTOCOL.md, Key files)",
                       private_text.startswith(hv.PRIVATE_KEY_BEGIN + "\n")
                       and private_text.endswith(hv.PRIVATE_KEY_END + "\n"), private_text.splitlines()[0])
            self.check(f"{name}: the public key file is one typed line",
                       public_text == f"{hv.PUBLIC_KEY_TYPE} {base64.b64encode(derived).decode()}\n", public_text)
            try:
                hv.read_public_key(private)
                refused = False
            except ValueError:
                refused = True
            self.check(f"{name}: a private key file is refused where a public key is expected", refused)
            self.cli("apps", "enroll", os.path.join(REPO, "policies", "apps", f"{app}.json"), "--key", public)
            self.keys[app] = seed
            self.section(f"{app}: throwaway key of this run: seed {base64.b64encode(seed).decode()} "
                         f"public {base64.b64encode(derived).decode()}")

    def log_tail(self):
        try:
            with open(self.daemon_log) as f:
                return "".join(f.readlines()[-10:])
        except OSError:
            return ""

    # MARK: The checks

    def run_checks(self):
        steps_seed = self.keys[STEPS_APP]
        sleep_seed = self.keys[SLEEP_APP]

        # An idle connection, checked near the end: refused when the authentication timeout passes.
        idle = self.connect()
        idle_opened = time.monotonic()
        self.check("a connection that has not authenticated stays open meanwhile", not idle.closed_by_peer(0.2))

        self.section("hello and authenticate (the step counter's main connection)")
        main = self.connect()
        hello = main.hello
        self.section("the signed message (hex): " + hv.signed_message(
            main.nonce(), STEPS_APP, hello["connection"]).hex())
        with open(os.path.join(self.vault, "keyring.json")) as f:
            vault_id = json.load(f)["vaultID"]
        self.check("hello: protocol healthvault, version 1",
                   hello.get("protocol") == "healthvault" and hello.get("version") == 1, str(hello))
        self.check("hello: connection is a UUID, nonce is base64 of 32 bytes",
                   str(uuid.UUID(hello["connection"])).upper() == hello["connection"]
                   and len(base64.b64decode(hello["nonce"])) == 32)
        self.check("hello: vault is the keyring's vault id, unlocked",
                   hello.get("vault", "").lower() == vault_id.lower() and hello.get("locked") is False)
        self.check("hello: maxFrameBytes and authenticationTimeout are the daemon's settings",
                   hello.get("maxFrameBytes") == MAX_FRAME and hello.get("authenticationTimeout") == AUTH_TIMEOUT,
                   str(hello))
        self.check("hello: exactly the documented members",
                   sorted(hello) == ["authenticationTimeout", "connection", "locked", "maxFrameBytes", "nonce",
                                     "protocol", "vault", "version"], str(sorted(hello)))
        replayable = {"version": 1, "app": STEPS_APP, "signature": main.app_signature(STEPS_APP, steps_seed)}
        raw, answer = main.call_raw("authenticate", replayable)
        self.require("authenticate: an enrolled app with its key gets role app",
                     answer == {"id": 1, "jsonrpc": "2.0", "result": {"app": STEPS_APP, "role": "app"}}, raw)

        self.section("authentication refusals")
        refusals = {}

        def refuse(name, make_params):
            conn = self.connect()
            conn.send_frame(conn.request_bytes("authenticate", make_params(conn), 1))
            answer_raw = conn.read_answer()
            refusals[name] = (answer_raw, conn.closed_by_peer(3))

        refuse("a wrong signature", lambda c: {"version": 1, "app": STEPS_APP,
                                                "signature": c.app_signature(STEPS_APP, sleep_seed)})
        refuse("an unknown app id", lambda c: {"version": 1, "app": "org.example.unknown",
                                                "signature": c.app_signature("org.example.unknown", steps_seed)})
        refuse("a replayed signature", lambda c: replayable)
        refuse("another protocol version", lambda c: {"version": 2, "app": STEPS_APP,
                                                       "signature": c.app_signature(STEPS_APP, steps_seed, 2)})
        refuse("an app key claiming the owner", lambda c: {"version": 1, "owner": True,
                                                            "signature": c.owner_signature(steps_seed)})
        first = refusals["a wrong signature"][0]
        for name, (answer_raw, closed) in refusals.items():
            parsed = json.loads(answer_raw) if answer_raw else None
            self.check(f"authenticate with {name}: -32001 'authentication failed', then the connection closes",
                       parsed == {"error": AUTH_FAILED, "id": 1, "jsonrpc": "2.0"} and closed, repr(answer_raw))
        self.check("every authentication refusal is the same bytes",
                   all(answer_raw == first for answer_raw, _ in refusals.values()))

        conn = self.connect()
        raw, answer = conn.call_raw("authorization.status", {"type": STEPS}, rpc_id=7)
        self.check("a request before authenticate: -32002, then the connection closes",
                   answer.get("error", {}).get("code") == -32002 and answer.get("id") == 7 and conn.closed_by_peer(3),
                   raw)

        self.section("authorization")
        raw, answer = main.call_raw("authorization.requestStatus",
                                    {"toShare": [STEPS, HEART], "read": [STEPS, HEART]})
        self.check("authorization.requestStatus before asking: shouldRequest",
                   answer.get("result") == {"status": "shouldRequest"}, raw)
        raw, answer = main.call_raw("authorization.request", {"toShare": [STEPS, HEART], "read": [STEPS, HEART]})
        self.check("authorization.request: {}", answer.get("result") == {}, raw)
        raw, answer = main.call_raw("authorization.status", {"type": STEPS})
        self.check("authorization.status before the owner decides: notDetermined",
                   answer.get("result") == {"status": "notDetermined"}, raw)

        self.cli("grant", STEPS_APP, "stepCount", "--read", "--share")
        self.check("the owner grants the step counter steps (read, share) with the CLI", True)
        raw, answer = main.call_raw("authorization.status", {"type": STEPS})
        self.check("authorization.status after the grant: sharingAuthorized",
                   answer.get("result") == {"status": "sharingAuthorized"}, raw)
        raw, answer = main.call_raw("authorization.status", {"type": HEART})
        self.check("authorization.status of a type still pending: notDetermined",
                   answer.get("result") == {"status": "notDetermined"}, raw)
        raw, answer = main.call_raw("authorization.requestStatus", {"toShare": [STEPS], "read": [STEPS]})
        self.check("authorization.requestStatus of decided types: unnecessary",
                   answer.get("result") == {"status": "unnecessary"}, raw)

        self.section("a granted read of steps while the vault has none (the baseline)")
        empty_answer, _ = main.call_raw("query.samples", self.steps_query(), rpc_id=500)
        self.check("query.samples with nothing stored: an empty list",
                   empty_answer == b'{"id":500,"jsonrpc":"2.0","result":{"samples":[]}}', empty_answer)

        self.section("observer.start, samples.save, observer.update")
        raw, answer = main.call_raw("observer.start", {"types": [STEPS]})
        subscription = answer.get("result", {}).get("subscription", "")
        self.check("observer.start: a subscription id", bool(subscription) and uuid.UUID(subscription) is not None, raw)
        samples = [
            self.sample(1200, "2026-03-03T08:00:00.000Z", "2026-03-03T09:00:00.000Z"),
            self.sample(840.5, "2026-03-03T09:00:00.000Z", "2026-03-03T10:00:00.250Z"),
            self.sample(15, "2026-03-03T10:00:00.000Z", "2026-03-03T10:05:00.000Z"),
        ]
        raw, answer = main.call_raw("samples.save", {"objects": samples[:1]})
        self.check("samples.save of a quantity sample: saved 1", answer.get("result") == {"saved": 1}, raw)
        try:
            update_raw, update = main.wait_notification(
                "observer.update", timeout=5, predicate=lambda p: p.get("subscription") == subscription)
            self.check("observer.update arrives for the subscription, naming the type",
                       update == {"jsonrpc": "2.0", "method": "observer.update",
                                  "params": {"subscription": subscription, "types": [STEPS]}}, update_raw)
        except TimeoutError:
            self.check("observer.update arrives for the subscription, naming the type", False, "none in 5 s")
        raw, answer = main.call_raw("query.samples", self.steps_query())
        got = answer.get("result", {}).get("samples", [])
        self.check("query.samples returns the sample",
                   [s["uuid"] for s in got] == [samples[0]["uuid"]], raw[:200])
        self.check("the vault replaced the claimed source with the app's identity, kept the version",
                   all(s["sourceRevision"] == {"source": {"bundleIdentifier": STEPS_APP, "name": "Step Counter"},
                                               "version": "2.1"} for s in got))

        raw, answer = main.call_raw("samples.save", {"objects": samples[1:]})
        self.check("samples.save of two more: saved 2", answer.get("result") == {"saved": 2}, raw)
        raw, answer = main.call_raw("query.samples", self.steps_query(), rpc_id=501)
        got = answer.get("result", {}).get("samples", [])
        self.check("query.samples returns the three samples, in start-date order",
                   [s["uuid"] for s in got] == [s["uuid"] for s in samples], raw[:200])
        self.check("quantities and dates read back as written",
                   len(got) == 3 and [s["quantity"] for s in got] == [{"unit": "count", "value": v} for v in (1200, 840.5, 15)]
                   and got[1]["endDate"] == "2026-03-03T10:00:00.250Z", raw[:300])

        self.section("privacy: a denied read, a delete of another app's sample")
        sleep = self.app(SLEEP_APP, sleep_seed)
        denied_answer, _ = sleep.call_raw("query.samples", self.steps_query(), rpc_id=500)
        self.check("a read never decided is byte-identical to a granted read of an empty vault",
                   denied_answer == empty_answer, f"{denied_answer!r} vs {empty_answer!r}")
        self.cli("deny", SLEEP_APP, "stepCount", "--read")
        denied_answer, _ = sleep.call_raw("query.samples", self.steps_query(), rpc_id=500)
        self.check("a read the owner denied is byte-identical to a granted read of an empty vault",
                   denied_answer == empty_answer, f"{denied_answer!r} vs {empty_answer!r}")
        raw, _ = sleep.call_raw("query.object", {"uuid": samples[0]["uuid"]}, rpc_id=502)
        unknown_raw, _ = sleep.call_raw("query.object", {"uuid": str(uuid.uuid4()).upper()}, rpc_id=502)
        self.check("query.object of another app's sample answers like an unknown UUID",
                   raw == unknown_raw == b'{"id":502,"jsonrpc":"2.0","result":{}}', f"{raw!r} vs {unknown_raw!r}")

        other_raw, _ = sleep.call_raw("samples.delete", {"uuids": [samples[0]["uuid"]]}, rpc_id=600)
        unknown_raw, _ = sleep.call_raw("samples.delete", {"uuids": [str(uuid.uuid4()).upper()]}, rpc_id=600)
        self.check("samples.delete of another app's UUID is byte-identical to an unknown UUID (deleted 0)",
                   other_raw == unknown_raw == b'{"id":600,"jsonrpc":"2.0","result":{"deleted":0}}',
                   f"{other_raw!r} vs {unknown_raw!r}")
        raw, answer = main.call_raw("query.object", {"uuid": samples[0]["uuid"]})
        self.check("the other app's sample is still there",
                   answer.get("result", {}).get("sample", {}).get("uuid") == samples[0]["uuid"], raw[:120])
        raw, answer = main.call_raw("samples.delete", {"uuids": [samples[2]["uuid"]]})
        self.check("an app deletes its own sample: deleted 1", answer.get("result") == {"deleted": 1}, raw)

        self.section("errors")
        raw, answer = main.call_raw("no.such.method", {}, rpc_id=700)
        self.check("an unknown method: -32601",
                   answer == {"error": {"code": -32601, "message": 'no method "no.such.method"'}, "id": 700,
                              "jsonrpc": "2.0"}, raw)
        raw, answer = main.call_raw("apps.list", {}, rpc_id=701)
        self.check("an owner method called by an app: -32601, as an unknown method",
                   answer.get("error", {}).get("code") == -32601, raw)
        main.send_frame(b'{"jsonrpc":"2.0","id":702,"method":', note="invalid JSON")
        raw = main.read_answer()
        self.check("invalid JSON in a valid frame: -32700 with id null",
                   json.loads(raw) == {"error": {"code": -32700,
                                                 "message": "the frame is not a JSON object (UTF-8 JSON-RPC 2.0 message)"},
                                       "id": None, "jsonrpc": "2.0"}, raw)
        raw, answer = main.call_raw("authorization.status", {"type": STEPS}, rpc_id=703)
        self.check("the connection is still usable after -32700",
                   answer.get("result") == {"status": "sharingAuthorized"}, raw)
        main.send_frame(b'{"id":704,"method":"authorization.status"}', note="no jsonrpc member")
        raw = main.read_answer()
        self.check("a request without \"jsonrpc\": \"2.0\": -32600 with its id",
                   json.loads(raw).get("error", {}).get("code") == -32600 and json.loads(raw).get("id") == 704, raw)
        raw, answer = main.call_raw("authorization.status", {"type": 5}, rpc_id=705)
        error = answer.get("error", {})
        self.check("invalid params: -32602, the HealthError names the field",
                   error.get("code") == -32602 and error.get("data", {}).get("code") == "invalidArgument"
                   and error.get("data", {}).get("field") == "params.type", raw)
        raw, answer = main.call_raw("samples.save", {"objects": [
            {**self.sample(1, "2026-03-04T08:00:00.000Z", "2026-03-04T09:00:00.000Z"), "type": HEART,
             "quantity": {"value": 60, "unit": "count/min"}}]}, rpc_id=706)
        error = answer.get("error", {})
        self.check("saving a type not granted: -32000 with HealthError authorizationDenied",
                   error.get("code") == -32000 and error.get("data", {}).get("code") == "authorizationDenied", raw)

        self.section("ordering: five requests in one write")
        batch = b"".join(struct.pack(">I", len(p)) + p for p in
                         (main.request_bytes("authorization.status", {"type": STEPS}, f"p{i}") for i in range(5)))
        main.send_bytes(batch, note="five frames in one write")
        ids = [json.loads(main.read_answer()).get("id") for _ in range(5)]
        self.check("pipelined requests are answered one by one, in order", ids == [f"p{i}" for i in range(5)], str(ids))

        self.section("the largest frame, and one byte more")
        conn = self.app(STEPS_APP, steps_seed)
        skeleton = b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":""}}'
        exact = skeleton[:-3] + b"a" * (MAX_FRAME - len(skeleton)) + b'"}}'
        conn.send_frame(exact, note=f"{MAX_FRAME} bytes")
        raw = conn.read_answer()
        self.check(f"a frame of exactly maxFrameBytes ({MAX_FRAME}) is read",
                   raw is not None and json.loads(raw).get("error", {}).get("code") == -32601, repr(raw)[:100])
        conn.send_bytes(struct.pack(">I", MAX_FRAME + 1), note="the length prefix of a frame one byte too large")
        raw = conn.read_answer()
        self.check("a frame longer than maxFrameBytes: -32003 with id null (before its payload is sent)",
                   raw is not None and json.loads(raw) == {
                       "error": {"code": -32003,
                                 "message": f"a frame of {MAX_FRAME + 1} bytes exceeds the maximum of {MAX_FRAME} bytes"},
                       "id": None, "jsonrpc": "2.0"}, repr(raw))
        self.check("... and the connection closes", conn.closed_by_peer(3))

        conn = self.app(STEPS_APP, steps_seed)
        conn.send_bytes(struct.pack(">I", 100) + b'{"jsonrpc":', note="a frame that stalls")
        started = time.monotonic()
        closed = conn.closed_by_peer(FRAME_TIMEOUT + 3)
        waited = time.monotonic() - started
        self.check(f"a frame that stalls is dropped after the frame timeout ({FRAME_TIMEOUT} s), without an answer",
                   closed and FRAME_TIMEOUT - 0.3 <= waited <= FRAME_TIMEOUT + 2, f"closed={closed} after {waited:.2f} s")

        self.section("the rate limit")
        conn = self.app(STEPS_APP, steps_seed)
        count = RATE + 20
        batch = b"".join(struct.pack(">I", len(p)) + p for p in
                         (conn.request_bytes("no.such.method", None, i) for i in range(count)))
        conn.send_bytes(batch, note=f"{count} requests in one write")
        answers = [json.loads(conn.read_answer()) for _ in range(count)]
        limited = [a for a in answers if a.get("error", {}).get("code") == -32005]
        self.check(f"more than {RATE} requests at once: the excess is answered -32005, each with its id, in order",
                   limited and [a["id"] for a in answers] == list(range(count))
                   and limited[0]["error"]["data"] == {"code": "dataSizeExceeded", "message": "rate limit exceeded"},
                   f"{len(limited)} limited")

        self.section("an hourly observer")
        hourly = self.app(STEPS_APP, steps_seed)
        raw, answer = hourly.call_raw("observer.start", {"types": [STEPS], "frequency": "hourly"})
        hourly_id = answer.get("result", {}).get("subscription")
        writer = self.app(STEPS_APP, steps_seed)
        writer.call("samples.save", {"objects": [self.sample(5, "2026-03-05T08:00:00.000Z", "2026-03-05T08:10:00.000Z")]})
        try:
            hourly.wait_notification("observer.update", 5, lambda p: p.get("subscription") == hourly_id)
            first_ok = True
        except TimeoutError:
            first_ok = False
        writer.call("samples.save", {"objects": [self.sample(6, "2026-03-05T09:00:00.000Z", "2026-03-05T09:10:00.000Z")]})
        try:
            hourly.wait_notification("observer.update", 1.5, lambda p: p.get("subscription") == hourly_id)
            held = False
        except TimeoutError:
            held = True
        self.check("hourly: the first change is notified at once, the next within the hour is held back",
                   first_ok and held, f"first={first_ok} held={held}")
        raw, answer = hourly.call_raw("observer.stop", {"subscription": hourly_id})
        self.check("observer.stop: {}", answer.get("result") == {}, raw)
        raw, answer = hourly.call_raw("observer.stop", {"subscription": hourly_id})
        self.check("observer.stop of a subscription no longer running: -32000 invalidArgument",
                   answer.get("error", {}).get("data", {}).get("code") == "invalidArgument", raw)

        self.section("the owner, from Python (the owner key derived from keyring.json)")
        seed = hv.owner_seed(self.vault, hv.read_passphrase_file(self.passfile))
        owner = self.connect()
        raw, answer = owner.call_raw("authenticate", {"version": 1, "owner": True,
                                                      "signature": owner.owner_signature(seed)})
        self.require("authenticate as the owner: role owner", answer.get("result") == {"role": "owner"}, raw)
        raw, answer = owner.call_raw("vault.status")
        status = answer.get("result", {})
        self.check("vault.status: unlocked, two apps", status.get("locked") is False and status.get("apps") == 2, raw)
        raw, answer = owner.call_raw("samples.save", {"objects": []})
        self.check("an app method called by the owner: -32601", answer.get("error", {}).get("code") == -32601, raw)
        raw, answer = owner.call_raw("query.samples", self.steps_query())
        self.check("the owner reads every app's samples",
                   len(answer.get("result", {}).get("samples", [])) == 4, raw[:120])
        weight = {
            "type": "HKQuantityTypeIdentifierBodyMass",
            "uuid": str(uuid.uuid4()).upper(),
            "startDate": "2026-11-23T08:00:00.000Z",
            "endDate": "2026-11-23T08:00:00.000Z",
            "quantity": {"value": 72.5, "unit": "kg"},
            "sourceRevision": {"source": {"bundleIdentifier": "com.example.claimed", "name": "Claimed"}},
        }
        raw, answer = owner.call_raw("samples.add", {"objects": [weight]})
        self.check("samples.add without HKWasUserEntered: -32000 invalidArgument, field objects[0].metadata",
                   answer.get("error", {}).get("data", {}).get("field") == "objects[0].metadata", raw)
        weight["metadata"] = {"HKWasUserEntered": 1}
        raw, answer = owner.call_raw("samples.add", {"objects": [weight]})
        self.check("samples.add: the owner's entry saved", answer.get("result") == {"saved": 1}, raw)
        raw, answer = owner.call_raw("samples.deletePreview", {"type": "HKQuantityTypeIdentifierBodyMass"})
        preview = answer.get("result", {})
        parts = preview.get("types", [])
        self.check("samples.deletePreview: what deleteObjects would take, by type and source, deleting nothing",
                   preview.get("count") == 1 and len(parts) == 1
                   and parts[0].get("type") == "HKQuantityTypeIdentifierBodyMass"
                   and parts[0].get("firstStart") == "2026-11-23T08:00:00.000Z"
                   and parts[0].get("lastEnd") == "2026-11-23T08:00:00.000Z"
                   and parts[0].get("sources") == [{"bundleIdentifier": "owner:healthvault", "name": "HealthVault",
                                                    "count": 1}], raw)
        raw, answer = owner.call_raw("samples.deletePreview", {"uuids": [str(uuid.uuid4()).upper()]})
        self.check("samples.deletePreview of an unknown UUID: nothing", answer.get("result") == {"count": 0, "types": []},
                   raw)
        raw, answer = owner.call_raw("query.object", {"uuid": weight["uuid"]})
        source = answer.get("result", {}).get("sample", {}).get("sourceRevision", {}).get("source")
        self.check("an owner's entry is under owner:healthvault, named HealthVault",
                   source == {"bundleIdentifier": "owner:healthvault", "name": "HealthVault"}, raw)
        csv_path = os.path.join(os.path.dirname(os.path.abspath(self.passfile)), "weights.csv")
        with open(csv_path, "w", encoding="utf-8") as csv_file:
            csv_file.write('type,start,value,unit,source\r\nbodyMass,2026-11-22T08:00:00Z,72.1,kg,"Scale, bathroom"\r\n')
        raw, answer = owner.call_raw("import.csv", {"path": csv_path})
        result = answer.get("result", {})
        self.check("import.csv: one row imported under its source, in one batch",
                   result.get("rows") == 1 and result.get("batches") == 1
                   and result.get("bySource", {}).get("Scale, bathroom", {}).get("imported") == 1, raw)
        with open(csv_path, "w", encoding="utf-8") as csv_file:
            csv_file.write("type,start,value,unit\nbodyMass,2026-11-22T09:00:00Z,72.1,kg\nbodyMass,noon,72,kg\n")
        raw, answer = owner.call_raw("import.csv", {"path": csv_path})
        message = answer.get("error", {}).get("data", {}).get("message", "")
        self.check("import.csv of a file with a bad row: refused, the row named by line and column",
                   message.startswith("weights.csv: 1 bad row; nothing was imported\nline 3, column 2 (start): "), raw)
        backup_dir = os.path.join(os.path.dirname(os.path.abspath(self.passfile)), "py-backup")
        raw, answer = owner.call_raw("vault.backup", {"directory": backup_dir})
        result = answer.get("result", {})
        self.check("vault.backup: the vault's four files in a new directory, with backup.json",
                   sorted(result.get("files", {})) == ["audit-checkpoint.note", "audit-key.pub", "keyring.json", "vault.db"]
                   and os.path.isfile(os.path.join(backup_dir, "backup.json"))
                   and result.get("method") == "online-backup" and result.get("checkpointSize", 0) > 0, raw)
        raw, progress = owner.wait_notification(
            "backup.progress", predicate=lambda p: p["bytesCopied"] == p["totalBytes"])
        self.check("backup.progress: the last one says the whole database was copied",
                   progress["params"]["totalBytes"] > 0, raw)
        raw, answer = owner.call_raw("vault.backup", {"directory": backup_dir})
        self.check("vault.backup into a directory that is not empty: -32000 invalidArgument, field directory",
                   answer.get("error", {}).get("data", {}).get("field") == "directory", raw)
        app_conn = self.app(STEPS_APP, steps_seed)
        raw, answer = owner.call_raw("vault.lock")
        self.check("vault.lock: {}", answer.get("result") == {}, raw)
        self.check("locking closes the app connections", app_conn.closed_by_peer(3))
        locked = self.connect()
        self.check("hello says locked", locked.hello.get("locked") is True, str(locked.hello))
        raw, answer = locked.call_raw("authenticate", {"version": 1, "app": STEPS_APP,
                                                       "signature": locked.app_signature(STEPS_APP, steps_seed)})
        self.check("an app authenticating while locked: -32007, then the connection closes",
                   answer.get("error", {}).get("code") == -32007 and locked.closed_by_peer(3), raw)
        passphrase = base64.b64encode(hv.read_passphrase_file(self.passfile)).decode("ascii")
        raw, answer = owner.call_raw("vault.unlock", {"passphrase": passphrase})
        self.check("vault.unlock: {}", answer.get("result") == {}, raw)
        again = self.app(STEPS_APP, steps_seed)
        self.check("after unlocking, apps authenticate again", again.hello.get("locked") is False)

        self.section("the authentication timeout")
        try:
            raw = idle.read_frame(max(0.1, AUTH_TIMEOUT + 3 - (time.monotonic() - idle_opened)))
        except TimeoutError:
            raw = None
        self.check("no authenticate within authenticationTimeout: -32001 with id null, then the connection closes",
                   raw is not None and json.loads(raw) == {"error": AUTH_FAILED, "id": None, "jsonrpc": "2.0"}
                   and idle.closed_by_peer(3), repr(raw))

        self.section("every frame's form")
        frames = [frame for c in self.connections for frame in c.received]
        bad = [f for f in frames if hv.encode_json(json.loads(f)) != f
               or json.dumps(json.loads(f), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() != f]
        self.check(f"every frame received is compact JSON with its keys sorted ({len(frames)} frames)", not bad,
                   repr(bad[:1]))

        for conn in self.connections:
            conn.close()

    def shutdown(self):
        started = time.monotonic()
        self.daemon.send_signal(signal.SIGTERM)
        try:
            code = self.daemon.wait(20)
        except subprocess.TimeoutExpired:
            code = None
        self.check("SIGTERM: healthvaultd exits 0", code == 0, f"exit {code} after {time.monotonic() - started:.1f} s")
        self.check("... and removes its socket", not os.path.exists(self.socket_path))

    def cleanup(self):
        for conn in self.connections:
            conn.close()
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            try:
                self.daemon.wait(10)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
        if self.tracer:
            self.tracer.close()
        shutil.rmtree(self.work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir", help="the directory holding healthvault and healthvaultd")
    parser.add_argument("--trace", metavar="FILE", help="write every frame sent and received to FILE")
    arguments = parser.parse_args()
    for tool in ("healthvault", "healthvaultd"):
        if not os.access(os.path.join(arguments.bin_dir, tool), os.X_OK):
            print(f"error: no {tool} in {arguments.bin_dir}", file=sys.stderr)
            return 2
    started = time.monotonic()
    run = Run(arguments.bin_dir, arguments.trace)
    error = None
    try:
        run.setup()
        run.run_checks()
        run.shutdown()
    except CheckFailed as failure:
        error = str(failure)
    except Exception:  # a crash of the test itself, or the daemon misbehaving badly
        error = traceback.format_exc()
    finally:
        if error is not None:
            tail = run.log_tail()
            run.cleanup()
            print(f"FAIL aborted: {error}")
            if tail:
                print("healthvaultd's last log lines:\n" + tail)
        else:
            run.cleanup()
    elapsed = time.monotonic() - started
    if error is None and run.failed == 0:
        print(f"PASS: {run.passed} checks passed in {elapsed:.1f} s")
        return 0
    print(f"FAILED: {run.failed} of {run.passed + run.failed} checks failed"
          + (" (and the run was aborted)" if error else "") + f", in {elapsed:.1f} s")
    return 1


if __name__ == "__main__":
    sys.exit(main())
