#!/usr/bin/env python3
"""Offline verifier for HealthVault audit-log exports, written from docs/AUDIT_LOG.md alone (no
look at the Swift sources): the proof that the document is enough to implement a verifier.
It checks Ed25519 as RFC 8032 with canonical S and points, but (unlike libsodium) does not refuse
small-order points: a difference that matters only for keys an attacker chose, not for a vault key.

Usage: scripts/audit-verify.py EXPORT_DIR [--key KEYFILE] [--previous CHECKPOINT_NOTE_FILE] [--json]
Exit 0 verified, 1 tampered (fault kind + first bad entry when known), 2 could not read.
With --json, one JSON object as docs/AUDIT_LOG.md ("The verdict as JSON") specifies.
With --grants-at INSTANT [--app APP], once verified: what each app could read and share at that
instant, replayed from the log's entries as docs/AUDIT_LOG.md ("Grants and their history") says,
one JSON object per permission, as `healthvault grants history --at INSTANT --json` prints them.
Standard library only; Ed25519 verification follows RFC 8032 section 6.
"""
import argparse
import base64
import binascii
import datetime
import hashlib
import json
import os
import re
import sys

# ---------------------------------------------------------------- Ed25519 (RFC 8032, 6)
_p = 2 ** 255 - 19
_q = 2 ** 252 + 27742317777372353535851937790883648493


def _inv(x):
    return pow(x, _p - 2, _p)


_d = -121665 * _inv(121666) % _p
_sqrt_m1 = pow(2, (_p - 1) // 4, _p)


def _add(P, Q):
    A, B = (P[1] - P[0]) * (Q[1] - Q[0]) % _p, (P[1] + P[0]) * (Q[1] + Q[0]) % _p
    C, D = 2 * P[3] * Q[3] * _d % _p, 2 * P[2] * Q[2] % _p
    E, F, G, H = B - A, D - C, D + C, B + A
    return (E * F, G * H, F * G, E * H)


def _mul(s, P):
    Q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            Q = _add(Q, P)
        P = _add(P, P)
        s >>= 1
    return Q


def _equal(P, Q):
    return (P[0] * Q[2] - Q[0] * P[2]) % _p == 0 and (P[1] * Q[2] - Q[1] * P[2]) % _p == 0


def _recover_x(y, sign):
    if y >= _p:
        return None
    x2 = (y * y - 1) * _inv(_d * y * y + 1)
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_p + 3) // 8, _p)
    if (x * x - x2) % _p != 0:
        x = x * _sqrt_m1 % _p
    if (x * x - x2) % _p != 0:
        return None
    if (x & 1) != sign:
        x = _p - x
    return x


_gy = 4 * _inv(5) % _p
_gx = _recover_x(_gy, 0)
_G = (_gx, _gy, 1, _gx * _gy % _p)


def _decompress(s):
    if len(s) != 32:
        return None
    y = int.from_bytes(s, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    if x is None:
        return None
    return (x, y, 1, x * y % _p)


def ed25519_verify(public, msg, sig):
    if len(public) != 32 or len(sig) != 64:
        return False
    A = _decompress(public)
    if A is None:
        return False
    R = _decompress(sig[:32])
    if R is None:
        return False
    s = int.from_bytes(sig[32:], "little")
    if s >= _q:
        return False
    h = int.from_bytes(hashlib.sha512(sig[:32] + public + msg).digest(), "little") % _q
    return _equal(_mul(s, _G), _add(R, _mul(h, A)))


# ---------------------------------------------------------------- results
class Fault(Exception):
    """Verdict 1: tampered."""

    def __init__(self, kind, seq=None, detail=""):
        super().__init__(kind)
        self.kind, self.seq, self.detail = kind, seq, detail
        self.entries = 0  # whole entries in entries.bin (main sets it)


class Unreadable(Exception):
    """Verdict 2: could not read."""


class OtherVault(Exception):
    """Verdict 2 too: the auditor's key is another vault's (its name is not the export's)."""


# ---------------------------------------------------------------- base64 / decimals
def b64_strict(text, nbytes=None):
    """Standard alphabet, padding required, canonical (re-encodes to the same text)."""
    if not re.fullmatch(r"[A-Za-z0-9+/]*={0,2}", text) or len(text) % 4:
        return None
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    if base64.b64encode(raw).decode("ascii") != text:
        return None
    if nbytes is not None and len(raw) != nbytes:
        return None
    return raw


def decimal_strict(text, limit=2 ** 64 - 1):
    if not re.fullmatch(r"0|[1-9][0-9]*", text):
        return None
    v = int(text)
    return v if v <= limit else None


# ---------------------------------------------------------------- verifier key
class VerifierKey:
    def __init__(self, name, keyhash, public):
        self.name, self.keyhash, self.public = name, keyhash, public

    def __eq__(self, other):
        return (self.name, self.keyhash, self.public) == (other.name, other.keyhash, other.public)


def key_hash(name, public):
    return hashlib.sha256(name.encode("utf-8") + b"\n\x01" + public).digest()[:4]


def parse_vkey(data, require_newline=True):
    """<name>+<8 lowercase hex>+<base64(0x01 || 32-byte key)>, one line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if text.endswith("\n"):
        text = text[:-1]
    elif require_newline:
        return None
    if "\n" in text or "\r" in text:
        return None
    # The base64 part may itself contain '+': split at the first two '+' (C2SP: a key
    # name never contains '+').
    parts = text.split("+", 2)
    if len(parts) != 3:
        return None
    name, hexhash, b64 = parts
    if not name or any(c.isspace() for c in name):
        return None
    if not re.fullmatch(r"[0-9a-f]{8}", hexhash):
        return None
    raw = b64_strict(b64, 33)
    if raw is None or raw[0] != 0x01:
        return None
    public = raw[1:]
    if key_hash(name, public) != bytes.fromhex(hexhash):
        return None
    return VerifierKey(name, bytes.fromhex(hexhash), public)


# ---------------------------------------------------------------- checkpoints
EM_DASH = "\u2014"
ORIGIN_RE = re.compile(r"healthvault/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class Checkpoint:
    def __init__(self, raw, body, origin, size, root, counter, digest, sigs):
        self.raw, self.body, self.origin = raw, body, origin
        self.size, self.root, self.counter, self.digest = size, root, counter, digest
        self.sigs = sigs  # list of (name, keyhash, sigbytes)


def parse_note(raw):
    """Return a Checkpoint or None if the note is not exactly in the documented form."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.endswith("\n") or "\r" in text:
        return None
    lines = text[:-1].split("\n")
    if len(lines) < 6 or lines[4] != "":
        return None
    origin, size_s, root_s, store_s = lines[0:4]
    if not ORIGIN_RE.fullmatch(origin):
        return None
    size = decimal_strict(size_s)
    if size is None:
        return None
    root = b64_strict(root_s, 32) if len(root_s) == 44 else None
    if root is None:
        return None
    sp = store_s.split(" ")
    if len(sp) != 3 or sp[0] != "store":
        return None
    counter = decimal_strict(sp[1])
    digest = b64_strict(sp[2], 32) if len(sp[2]) == 44 else None
    if counter is None or digest is None:
        return None
    sigs = []
    for line in lines[5:]:
        if not line.startswith(EM_DASH + " "):
            return None
        rest = line[2:].split(" ")
        # Any party's line: a key name (no space, no '+') and base64 of a 4-byte key hash and a
        # signature of any length (a C2SP cosignature/v1 line holds 76 bytes); only the vault
        # key's is checked, in verify_note.
        if len(rest) != 2 or not rest[0] or "+" in rest[0] or any(c.isspace() for c in rest[0]):
            return None
        blob = b64_strict(rest[1])
        if blob is None or len(blob) < 5:
            return None
        sigs.append((rest[0], blob[:4], blob[4:]))
    body = "\n".join(lines[0:4]).encode("utf-8") + b"\n"
    return Checkpoint(raw, body, origin, size, root, counter, digest, sigs)


def verify_note(cp, key, label):
    """Step 3 checks for one parsed note, in the document's order."""
    named = [s for s in cp.sigs if s[0] == key.name]
    if len(named) > 1:
        raise Fault("bad-signature", None, f"{label}: {len(named)} signature lines carry the key's name")
    if not named or named[0][1] != key.keyhash:
        raise Fault("wrong-key", None, f"{label}: no signature line by {key.name}+{key.keyhash.hex()}")
    if len(named[0][2]) != 64 or not ed25519_verify(key.public, cp.body, named[0][2]):
        raise Fault("bad-signature", None, f"{label}: signature does not verify")
    if cp.origin != key.name:
        raise Fault("wrong-key", None, f"{label}: origin {cp.origin} is not the key's name")


# ---------------------------------------------------------------- entries
OUTCOMES = {0: "ok", 1: "denied", 2: "denied-served-empty", 3: "error"}
OPERATION_RE = re.compile(rb"[a-z][a-z0-9.\-]{0,63}")


class DecodeError(Exception):
    pass


def decode_entry(b):
    """Strict decoding of an entry encoding (version 1, or 2: with attributes). Returns a dict or
    raises DecodeError."""
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(b):
            raise DecodeError("field cut short")
        out = b[pos:pos + n]
        pos += n
        return out

    def u(n):
        return int.from_bytes(take(n), "big")

    def s():
        n = u(2)
        if n > 1024:
            raise DecodeError("str longer than 1024 bytes")
        raw = take(n)
        try:
            raw.decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            raise DecodeError("str not valid UTF-8")
        return raw

    version = take(1)
    if version not in (b"\x01", b"\x02"):
        raise DecodeError("unknown encoding version")
    seq = u(8)
    time = int.from_bytes(take(8), "big", signed=True)
    kind = u(1)
    actor = s()
    if kind in (0, 1):
        if actor:
            raise DecodeError("actor id not empty for system/owner")
    elif kind == 2:
        if not actor:
            raise DecodeError("empty app id")
    else:
        raise DecodeError("unknown actor kind")
    op = s()
    if not OPERATION_RE.fullmatch(op):
        raise DecodeError("malformed operation")
    t = u(2)
    if t > 512:
        raise DecodeError("more than 512 types")
    types = []
    for _ in range(t):
        ty = s()
        if not ty:
            raise DecodeError("empty type")
        if types and not types[-1] < ty:  # bytes compare: byte by byte, shorter prefix first
            raise DecodeError("types repeated or out of order")
        types.append(ty)
    count = u(8)
    outcome = u(1)
    if outcome not in OUTCOMES:
        raise DecodeError("unknown outcome")
    request = s()
    attributes = {}
    if version == b"\x02":
        a = u(2)
        if not 1 <= a <= 64:
            raise DecodeError("a version 2 entry has 1 to 64 attributes")
        names = []
        for _ in range(a):
            name = s()
            if not OPERATION_RE.fullmatch(name):
                raise DecodeError("malformed attribute name")
            if names and not names[-1] < name:
                raise DecodeError("attributes repeated or out of order")
            names.append(name)
            attributes[name.decode()] = s().decode()
    if pos != len(b):
        raise DecodeError("bytes after the last field")
    entry = {
        "sequence": seq, "time": time,
        "actor": {0: "system", 1: "owner"}.get(kind) or actor.decode(),
        "operation": op.decode(), "types": [x.decode() for x in types],
        "objectCount": count, "outcome": OUTCOMES[outcome], "requestID": request.decode(),
    }
    if attributes:
        entry["attributes"] = attributes
    return entry


def split_entries(data):
    """Returns (entries, broken_at): broken_at is the index of a broken length prefix or None."""
    entries, pos = [], 0
    while pos < len(data):
        if pos + 4 > len(data):
            return entries, len(entries)
        n = int.from_bytes(data[pos:pos + 4], "big")
        if pos + 4 + n > len(data):
            return entries, len(entries)
        entries.append(data[pos + 4:pos + 4 + n])
        pos += 4 + n
    return entries, None


# ---------------------------------------------------------------- Merkle tree (RFC 6962 2.1)
def leaf_hash(entry):
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(l, r):
    return hashlib.sha256(b"\x01" + l + r).digest()


def mth(leaves):
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return leaves[0]
    k = 1
    while k * 2 < n:
        k *= 2
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


class RootsAt:
    """Incremental tree (compact range); root(size) for sizes reached so far."""

    def __init__(self, wanted):
        self.wanted, self.roots, self.stack, self.n = set(wanted), {}, [], 0
        if 0 in self.wanted:
            self.roots[0] = mth([])

    def push(self, leaf):
        self.n += 1
        h, size = leaf, 1
        while self.stack and self.stack[-1][1] == size:
            h = node_hash(self.stack.pop()[0], h)
            size *= 2
        self.stack.append((h, size))
        if self.n in self.wanted:
            r = self.stack[-1][0]
            for hh, _ in reversed(self.stack[:-1]):
                r = node_hash(hh, r)
            self.roots[self.n] = r


def roots_for(leaves, sizes):
    ra = RootsAt(sizes)
    for lf in leaves:
        ra.push(lf)
    return ra.roots


# ---------------------------------------------------------------- naming the first bad entry
def name_with_leaves(E, A, broken_at):
    """E: hashes of the framed entries (a broken frame counts as a foreign entry);
    A: authentic leaf hashes (length = last checkpoint size)."""
    N, m = len(A), len(E)
    i = 0
    while i < min(m, N) and E[i] == A[i]:
        i += 1
    if i == min(m, N):
        if broken_at is not None and i == broken_at:
            return ("modified", i, "broken length prefix")
        if m < N:
            return ("truncated", i, "entries end early")
        if m > N:
            return ("inserted", N, "entries after the last checkpoint")
        return None
    if broken_at is not None and i == broken_at:
        return ("modified", i, "broken length prefix")
    where_in_A = [j for j, a in enumerate(A) if a == E[i]]
    if not where_in_A:
        if i + 1 < m and E[i + 1] == A[i]:
            return ("inserted", i, "this entry is not in the log, the next one is")
        return ("modified", i, "the bytes differ")
    j = where_in_A[0] if where_in_A[0] != i else where_in_A[-1]
    if j < i:  # entries before i are authentic, so this is a second copy
        return ("inserted", i, f"a repeat of entry {j}")
    if A[i] in E[i + 1:]:
        return ("reordered", i, f"entry {i} found at position {E.index(A[i], i + 1)}")
    return ("missing", i, f"the authentic leaf {j} is here")


def name_with_sequences(entries, broken_at, decoded, errors, N, cps, roots):
    m = len(entries)
    seqs = [d["sequence"] if d is not None else None for d in decoded]
    first = None
    seen = set()
    for i in range(m + (1 if broken_at is not None else 0)):
        if broken_at is not None and i == broken_at:
            first = ("modified", i, "broken length prefix")
            break
        if decoded[i] is None:
            first = ("modified", i, f"does not decode: {errors[i]}")
            break
        sq = seqs[i]
        if i >= N:
            first = ("inserted", i, "entry after the last checkpoint")
            break
        if sq != i:
            if sq in seen or sq < i:
                first = ("inserted", i, f"repeats sequence {sq}") if sq in seen else \
                    ("reordered", i, f"carries sequence {sq}")
            elif i in seqs[i + 1:]:
                first = ("reordered", i, f"carries sequence {sq}; {i} appears later")
            else:
                first = ("missing", i, f"gap: sequence {sq} at position {i}")
            break
        seen.add(sq)
    if first is None and m < N:
        first = ("truncated", m, "entries end early")
    # first checkpoint span whose root fails
    prev = 0
    for cp in cps:
        if cp.size in roots and roots[cp.size] != cp.root:
            if first is None or first[1] >= cp.size:
                return ("modified", prev, f"root at size {cp.size} does not match (span {prev}..{cp.size - 1})")
            break
        prev = cp.size
    return first


# ---------------------------------------------------------------- the verification
def read_file(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise Unreadable(f"{path}: {e.strerror or e}")


def verify(export, key_path=None, previous_path=None):
    warnings = []
    # 1. Read
    if not os.path.isdir(export):
        raise Unreadable(f"{export}: not a directory")
    if read_file(os.path.join(export, "FORMAT")) != b"healthvault-audit-export 1\n":
        raise Unreadable("FORMAT is not exactly 'healthvault-audit-export 1\\n'")
    vkey_raw = read_file(os.path.join(export, "key.vkey"))
    entries_raw = read_file(os.path.join(export, "entries.bin"))
    leaves_raw = read_file(os.path.join(export, "leaves.bin"))
    cpdir = os.path.join(export, "checkpoints")
    try:
        names = sorted(os.listdir(cpdir))
    except OSError as e:
        raise Unreadable(f"{cpdir}: {e.strerror or e}")
    note_files = []
    for n in names:
        if not re.fullmatch(r"[0-9]{20}\.note", n):
            raise Unreadable(f"checkpoints/{n}: not a checkpoint file name")
        note_files.append((n, read_file(os.path.join(cpdir, n))))
    if not note_files:
        raise Unreadable("checkpoints/: no checkpoint (an export always holds the one signed for it)")
    trusted = None
    if key_path is not None:
        # The auditor's own file: surrounding whitespace and newlines are not part of the key.
        trusted = parse_vkey(read_file(key_path).strip(), require_newline=False)
        if trusted is None:
            raise Unreadable(f"{key_path}: not a verifier key")
    export_key = parse_vkey(vkey_raw)
    if trusted is None and export_key is None:
        raise Unreadable("key.vkey does not parse")
    prev_raw = read_file(previous_path) if previous_path is not None else None

    # 2. Key: another vault's key says nothing of this export (could not verify); a key of the
    # same name that differs is tampering.
    if trusted is not None and export_key is not None and export_key.name != trusted.name:
        raise OtherVault(f"the key given is for {trusted.name}, this export is the log of {export_key.name}")
    if trusted is not None and (export_key is None or export_key != trusted):
        raise Fault("wrong-key", None, "key.vkey is not the trusted key")
    key = trusted or export_key

    # 3. Checkpoints
    cps = []
    for n, raw in note_files:
        cp = parse_note(raw)
        if cp is None:
            raise Fault("bad-signature", None, f"checkpoints/{n}: not a well-formed signed checkpoint")
        verify_note(cp, key, f"checkpoints/{n}")
        if int(n[:20]) != cp.size:
            warnings.append(f"checkpoints/{n} holds the checkpoint of size {cp.size}")
        cps.append(cp)
    cps.sort(key=lambda c: c.size)
    uniq = []
    for cp in cps:
        if uniq and uniq[-1].size == cp.size:
            if uniq[-1].body != cp.body:
                raise Fault("forked", None, f"two different checkpoints of size {cp.size}")
            continue
        if uniq and cp.counter < uniq[-1].counter:
            raise Fault("forked", None,
                        f"store counter goes down: {uniq[-1].counter} at size {uniq[-1].size}, "
                        f"{cp.counter} at size {cp.size}")
        uniq.append(cp)
    cps = uniq
    last = cps[-1]

    # 4. The earlier checkpoint
    prev = None
    if prev_raw is not None:
        prev = parse_note(prev_raw)
        if prev is None:
            raise Unreadable(f"{previous_path}: not a signed checkpoint")
        verify_note(prev, key, "earlier checkpoint")

    # 5. Entries
    entries, broken_at = split_entries(entries_raw)
    E = [leaf_hash(e) for e in entries]
    sizes = {c.size for c in cps} | ({prev.size} if prev else set())
    roots = roots_for(E, sizes)
    decoded, decoded_err = [], {}
    for i, e in enumerate(entries):
        try:
            decoded.append(decode_entry(e))
        except DecodeError as ex:
            decoded.append(None)
            decoded_err[i] = str(ex)
    N = last.size
    ok = (broken_at is None and len(entries) == N
          and all(roots.get(c.size) == c.root for c in cps)
          and all(d is not None and d["sequence"] == i for i, d in enumerate(decoded)))
    leaves_authentic = None
    if len(leaves_raw) % 32 == 0 and len(leaves_raw) // 32 >= N:
        L = [leaves_raw[i:i + 32] for i in range(0, len(leaves_raw), 32)][:N]
        lroots = roots_for(L, {c.size for c in cps})
        if all(lroots.get(c.size) == c.root for c in cps):
            leaves_authentic = L
    if not ok:
        named = None
        if leaves_authentic is not None:
            Eb = E + ([hashlib.sha256(b"broken" + entries_raw).digest()] if broken_at is not None else [])
            named = name_with_leaves(Eb, leaves_authentic, broken_at)
            if named is None:  # hashes all authentic, yet decoding/numbering fails
                for i, d in enumerate(decoded):
                    if d is None or d["sequence"] != i:
                        named = ("modified", i, "signed entry does not decode or is misnumbered")
                        break
        if named is None:
            named = name_with_sequences(entries, broken_at, decoded, decoded_err, N, cps, roots)
        if named is None:
            named = ("modified", None, "a root does not match")
        raise Fault(*named)

    # 6. Against the earlier checkpoint
    if prev is not None:
        if prev.size > N:
            raise Fault("truncated", N, f"the earlier checkpoint has size {prev.size}, this export {N}")
        if roots.get(prev.size) != prev.root:
            raise Fault("forked", None, f"the root at size {prev.size} is not the earlier checkpoint's")
        if last.counter < prev.counter:
            raise Fault("forked", None,
                        f"store counter {last.counter} is below the earlier checkpoint's {prev.counter}")

    # 7. leaves.bin
    if leaves_raw != b"".join(E):
        warnings.append("leaves.bin differs from the entries' hashes")
    return last, len(entries), key, warnings



# Grants replayed from the log alone (docs/AUDIT_LOG.md, "Grants and their history"), as
# `healthvault grants history --at` does: what each app could read and share at an instant.
DECISIONS = (("authorization.grant-", True), ("authorization.deny-", False),
             ("authorization.revoke-", False), ("authorization.expire-", False))


def rfc3339_ms(ms):
    """An instant in milliseconds since 1970 as `2026-12-30T23:00:00.000Z`."""
    seconds, millis = divmod(ms, 1000)
    t = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{millis:03d}Z"


def parse_rfc3339_ms(text):
    """`2026-12-30T23:00:00.000Z` (or with an offset, fewer or more digits) in milliseconds."""
    t = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if t.tzinfo is None:
        raise ValueError(f"{text}: give an offset or Z")
    delta = t - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    return (delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000


def grants_at(entries, at_ms):
    """Every permission decided at `at_ms`: a list of dicts, sorted by app, type and access."""
    changes, known, current = [], {}, {}
    object_changes = []  # (time, (app, type), set of UUIDs, granted, entry)

    def expires(state):
        if state and state["granted"] and "expires" in state["attributes"]:
            return parse_rfc3339_ms(state["attributes"]["expires"])
        return None

    for e in entries:
        if e["outcome"] != "ok":
            continue
        op = e["operation"]
        if op in ("app.enroll", "app.remove"):
            for key in sorted(known.pop(e["requestID"], set())):
                current.pop(key, None)
                changes.append((e["time"], key, None))
            object_changes.append((e["time"], (e["requestID"], None), None, False, e["sequence"]))
            continue
        if op in ("authorization.grant-objects", "authorization.revoke-objects") and e["types"]:
            named = set(filter(None, e.get("attributes", {}).get("objects", "").split(",")))
            object_changes.append((e["time"], (e["requestID"], e["types"][0]), named,
                                   op == "authorization.grant-objects", e["sequence"]))
            continue
        for prefix, granted in DECISIONS:
            if not op.startswith(prefix):
                continue
            access = op[len(prefix):]
            if access not in ("read", "share"):
                continue
            expiry = prefix == "authorization.expire-"
            since = e["time"]
            if expiry and "expired" in e.get("attributes", {}):
                since = parse_rfc3339_ms(e["attributes"]["expired"])
            for type_ in e["types"]:
                key = (e["requestID"], type_, access)
                if expiry and expires(current.get(key)) != since:
                    continue  # the grant it ended was replaced or ended already
                known.setdefault(e["requestID"], set()).add(key)
                state = {"granted": granted, "attributes": dict(e.get("attributes", {})) if granted else {},
                         "since": since, "entry": e["sequence"]}
                current[key] = state
                changes.append((since, key, state))
    states = {}
    for time, key, state in changes:
        if time <= at_ms:
            if state is None:
                states.pop(key, None)
            else:
                states[key] = state
    out = []
    for key in sorted(states):
        state = states[key]
        end = expires(state)
        if end is not None and end <= at_ms:
            state = {"granted": False, "attributes": {}, "since": end, "entry": state["entry"]}
        line = {"app": key[0], "type": key[1], "access": key[2],
                "state": "granted" if state["granted"] else "denied",
                "since": rfc3339_ms(state["since"]), "entry": state["entry"]}
        if state["attributes"]:
            line["attributes"] = state["attributes"]
        out.append(line)
    # The objects of per-object types each app could read ("Per-object choices").
    held = {}
    for time, (app, type_), named, granted, seq in object_changes:
        if time > at_ms:
            continue
        if type_ is None:  # enrolled or removed: it reads none
            for key in [k for k in held if k[0] == app]:
                del held[key]
            continue
        objects = held.get((app, type_), (set(), 0, 0))[0]
        objects = objects | named if granted else objects - named
        held[(app, type_)] = (objects, time, seq)
    for key in sorted(held):
        objects, time, seq = held[key]
        if objects:
            out.append({"app": key[0], "type": key[1], "access": "read-objects", "state": "granted",
                        "objects": sorted(objects), "since": rfc3339_ms(time), "entry": seq})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description="Verify a HealthVault audit-log export offline.")
    ap.add_argument("export_dir")
    ap.add_argument("--key", help="the auditor's own copy of the verifier key (trusted)")
    ap.add_argument("--previous", help="a signed checkpoint kept from an earlier verification")
    ap.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    ap.add_argument("--grants-at", metavar="INSTANT",
                    help="once verified, print what each app could read and share at this RFC 3339 instant, "
                         "replayed from the log (one JSON object per permission)")
    ap.add_argument("--app", help="with --grants-at: only this app's permissions")
    args = ap.parse_args(argv)
    if args.grants_at is not None:
        try:
            at_ms = parse_rfc3339_ms(args.grants_at)
        except ValueError as e:
            print(f"audit-verify.py: --grants-at {args.grants_at}: not an RFC 3339 instant ({e})", file=sys.stderr)
            return 2

    def report(verdict, summary, entries=0, fault=None, entry=None, size=None, warnings=()):
        if not args.json:
            # A verdict on the log is the output; what kept it from verifying is an error.
            if verdict == "unreadable":
                print(f"audit-verify.py: {summary}", file=sys.stderr)
            else:
                print(summary)
            return
        out = {"verdict": verdict, "entries": entries, "summary": summary}
        if warnings:
            out["warnings"] = list(warnings)
        if fault is not None:
            out["fault"] = fault
        if entry is not None:
            out["entry"] = entry
        if size is not None:
            out["checkpointSize"] = size
        print(json.dumps(out, sort_keys=True, separators=(",", ":")))

    try:
        last, n, key, warnings = verify(args.export_dir, args.key, args.previous)
    except Unreadable as e:
        report("unreadable", f"could not read: {e}")
        return 2
    except OtherVault as e:
        report("unreadable", f"not this vault's key: {e}")
        return 2
    except Fault as f:
        # A fault comes after the files were read: entries.bin splits (as far as its framing holds).
        f.entries = len(split_entries(read_file(os.path.join(args.export_dir, "entries.bin")))[0])
        where = f" at entry {f.seq}" if f.seq is not None else ""
        report("tampered", f"tampered: {f.kind}{where}" + (f" ({f.detail})" if f.detail else ""),
               entries=f.entries, fault=f.kind, entry=f.seq)
        return 1
    if args.grants_at is not None:
        for w in warnings:
            print(f"audit-verify.py: warning: {w}", file=sys.stderr)
        entries = [decode_entry(b) for b in split_entries(read_file(os.path.join(args.export_dir, "entries.bin")))[0]]
        for line in grants_at(entries, at_ms):
            if args.app is None or line["app"] == args.app:
                print(json.dumps(line, sort_keys=True, separators=(",", ":")))
        return 0
    if args.json:
        report("verified", f"verified: {n} entries, checkpoint size {last.size}", entries=n, size=last.size,
               warnings=warnings)
        return 0
    for w in warnings:
        print(f"audit-verify.py: warning: {w}", file=sys.stderr)
    print(f"verified: {n} entries, checkpoint size {last.size}, root {base64.b64encode(last.root).decode()}, "
          f"store {last.counter}, key {key.name}+{key.keyhash.hex()}; keep "
          f"checkpoints/{last.size:020d}.note")
    return 0


if __name__ == "__main__":
    sys.exit(main())
