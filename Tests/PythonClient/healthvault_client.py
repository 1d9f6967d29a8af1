"""A small HealthVault client written from docs/PROTOCOL.md alone, with Python's standard library.

Ed25519 signing, and the owner key's derivation, go through the system's libsodium via ctypes.
It exists to show that the document is enough to speak the protocol from another language, and to
drive test_protocol.py; it is not a product.

    conn = Connection.open("/path/to/vault/healthvaultd.sock")
    conn.hello                                   # the hello notification's params
    conn.authenticate_app("org.example.stepcounter", read_private_key("app.key"))
    raw, answer = conn.call("authorization.status", {"type": "HKQuantityTypeIdentifierStepCount"})
"""

import base64
import ctypes
import ctypes.util
import json
import os
import select
import socket
import struct
import time
import uuid

PROTOCOL_NAME = "healthvault"
PROTOCOL_VERSION = 1
SOCKET_FILE_NAME = "healthvaultd.sock"
DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024
NONCE_BYTES = 32

# JSON-RPC's codes, then HealthVault's.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
HEALTH_ERROR = -32000
AUTHENTICATION_FAILED = -32001
NOT_AUTHENTICATED = -32002
FRAME_TOO_LARGE = -32003
TOO_MANY_CONNECTIONS = -32004
RATE_LIMITED = -32005
TIMED_OUT = -32006
VAULT_LOCKED = -32007
SHUTTING_DOWN = -32008


class ProtocolError(Exception):
    """The daemon did something the protocol does not allow (or closed when it should not)."""


class RPCError(Exception):
    """An error answer: JSON-RPC's code and message, and HealthVault's HealthError in data."""

    def __init__(self, error, raw):
        self.code = error.get("code")
        self.message = error.get("message")
        self.data = error.get("data")
        self.raw = raw
        super().__init__(f"{self.message} ({self.code})" + (f": {self.data}" if self.data else ""))


# MARK: libsodium


class Sodium:
    """The few libsodium functions a client needs."""

    def __init__(self):
        name = ctypes.util.find_library("sodium") or "libsodium.so.23"
        self.lib = ctypes.CDLL(name)
        if self.lib.sodium_init() < 0:
            raise OSError("sodium_init failed")
        u8p = ctypes.c_char_p
        self.lib.crypto_sign_seed_keypair.argtypes = [u8p, u8p, u8p]
        self.lib.crypto_sign_detached.argtypes = [
            u8p, ctypes.POINTER(ctypes.c_ulonglong), u8p, ctypes.c_ulonglong, u8p
        ]
        self.lib.crypto_sign_verify_detached.argtypes = [u8p, u8p, ctypes.c_ulonglong, u8p]
        self.lib.crypto_pwhash.argtypes = [
            u8p, ctypes.c_ulonglong, u8p, ctypes.c_ulonglong, u8p,
            ctypes.c_ulonglong, ctypes.c_size_t, ctypes.c_int,
        ]
        self.lib.crypto_aead_xchacha20poly1305_ietf_decrypt.argtypes = [
            u8p, ctypes.POINTER(ctypes.c_ulonglong), u8p, u8p, ctypes.c_ulonglong,
            u8p, ctypes.c_ulonglong, u8p, u8p,
        ]
        self.lib.crypto_core_ed25519_is_valid_point.argtypes = [u8p]
        self.lib.crypto_kdf_derive_from_key.argtypes = [
            u8p, ctypes.c_size_t, ctypes.c_uint64, u8p, u8p
        ]

    def is_valid_point(self, key):
        """Whether 32 bytes are a point of Ed25519's prime-order subgroup (every public key is)."""
        return self.lib.crypto_core_ed25519_is_valid_point(key) == 1

    def keypair(self, seed):
        """The Ed25519 key pair of a 32-byte seed: (public key, 64-byte secret key)."""
        if len(seed) != 32:
            raise ValueError("an Ed25519 seed is 32 bytes")
        public = ctypes.create_string_buffer(32)
        secret = ctypes.create_string_buffer(64)
        if self.lib.crypto_sign_seed_keypair(public, secret, seed) != 0:
            raise OSError("crypto_sign_seed_keypair failed")
        return public.raw, secret.raw

    def sign(self, message, seed):
        """The 64-byte Ed25519 signature of message with the key of seed."""
        _, secret = self.keypair(seed)
        signature = ctypes.create_string_buffer(64)
        length = ctypes.c_ulonglong(0)
        if self.lib.crypto_sign_detached(signature, ctypes.byref(length), message, len(message), secret) != 0:
            raise OSError("crypto_sign_detached failed")
        return signature.raw

    def verify(self, signature, message, public_key):
        return self.lib.crypto_sign_verify_detached(signature, message, len(message), public_key) == 0

    def argon2id(self, passphrase, salt, ops_limit, mem_limit):
        out = ctypes.create_string_buffer(32)
        alg_argon2id13 = 2
        if self.lib.crypto_pwhash(out, 32, passphrase, len(passphrase), salt, ops_limit, mem_limit, alg_argon2id13) != 0:
            raise OSError("crypto_pwhash failed (out of memory?)")
        return out.raw

    def xchacha_open(self, ciphertext, associated_data, nonce, key):
        """The plaintext, or None when the ciphertext does not authenticate."""
        out = ctypes.create_string_buffer(max(len(ciphertext) - 16, 1))
        length = ctypes.c_ulonglong(0)
        result = self.lib.crypto_aead_xchacha20poly1305_ietf_decrypt(
            out, ctypes.byref(length), None, ciphertext, len(ciphertext),
            associated_data, len(associated_data), nonce, key,
        )
        return out.raw[: length.value] if result == 0 else None

    def kdf(self, master_key, context, subkey_id=1, length=32):
        if len(master_key) != 32 or len(context) != 8:
            raise ValueError("crypto_kdf needs a 32-byte key and an 8-byte context")
        out = ctypes.create_string_buffer(length)
        if self.lib.crypto_kdf_derive_from_key(out, length, subkey_id, context, master_key) != 0:
            raise OSError("crypto_kdf_derive_from_key failed")
        return out.raw


_sodium = None


def sodium():
    global _sodium
    if _sodium is None:
        _sodium = Sodium()
    return _sodium


# MARK: Keys


PUBLIC_KEY_TYPE = "healthvault-ed25519-public"
PRIVATE_KEY_BEGIN = "-----BEGIN HEALTHVAULT ED25519 PRIVATE KEY-----"
PRIVATE_KEY_END = "-----END HEALTHVAULT ED25519 PRIVATE KEY-----"


def _key_file_content(path):
    """A key file's form (docs/PROTOCOL.md, "Key files"): ("public" | "private" | "untyped" |
    None, decoded bytes or None)."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None, None

    def decode(b64):
        try:
            return base64.b64decode(b64, validate=True)
        except ValueError:
            return None

    if lines[0] == PRIVATE_KEY_BEGIN:
        if len(lines) < 3 or lines[-1] != PRIVATE_KEY_END:
            return "private", None
        return "private", decode("".join(lines[1:-1]))
    fields = lines[0].split()
    if fields[0] == PUBLIC_KEY_TYPE:
        return "public", decode(fields[1]) if len(lines) == 1 and len(fields) >= 2 else None
    if len(lines) == 1 and len(fields) == 1:
        return "untyped", decode(fields[0])
    return None, None


def read_private_key(path):
    """An app's private key file: the armoured block (its seed's base64 between the BEGIN and END
    lines), or the older form, the seed's base64 alone on one line. A public key is refused."""
    kind, seed = _key_file_content(path)
    if kind == "public":
        raise ValueError(f"{path} is an app's public key, not its private key")
    if kind not in ("private", "untyped") or seed is None or len(seed) != 32:
        raise ValueError(f"{path} is not a HealthVault private key file")
    return seed


def read_public_key(path):
    """An app's public key file: `healthvault-ed25519-public <base64>`, or the older untyped form
    where it is safely a public key: 32 bytes that are a point of the curve, in a file others may
    read (older tools wrote private keys 0600). A private key is refused."""
    kind, key = _key_file_content(path)
    if kind == "private":
        raise ValueError(f"{path} is an app's PRIVATE key, not a public one")
    if kind == "untyped" and key is not None:
        if len(key) == 64:
            raise ValueError(f"{path} holds a 64-byte Ed25519 secret key, not a public key")
        if len(key) == 32 and not sodium().is_valid_point(key):
            raise ValueError(f"{path} is not an Ed25519 public key (an app's private key in the older form?)")
        if len(key) == 32 and os.stat(path).st_mode & 0o077 == 0:
            raise ValueError(f"{path} is an untyped key file only its owner may read: it may be a private key")
    elif kind == "public" and key is not None and not sodium().is_valid_point(key):
        key = None
    if kind not in ("public", "untyped") or key is None or len(key) != 32:
        raise ValueError(f"{path} is not a HealthVault public key file")
    return key


def read_passphrase_file(path):
    """A passphrase file as the tools read it: the first line, without its line end."""
    with open(path, "rb") as f:
        data = f.read()
    for end in (b"\n", b"\r"):
        data = data.split(end, 1)[0]
    return data


def owner_seed(vault_directory, passphrase):
    """The owner key's seed: crypto_kdf_derive_from_key(32, 1, "hvowner1", database key), the
    database key unwrapped from keyring.json with the passphrase (docs/VAULT_FORMAT.md)."""
    with open(os.path.join(vault_directory, "keyring.json"), "rb") as f:
        keyring = json.load(f)
    if keyring["format"] != 1 or keyring["kdf"]["algorithm"] != "argon2id13":
        raise ValueError("unknown keyring format")
    s = sodium()
    kek = s.argon2id(
        passphrase,
        base64.b64decode(keyring["kdf"]["salt"]),
        keyring["kdf"]["opsLimit"],
        keyring["kdf"]["memLimit"],
    )
    associated = (
        b"HealthVault keyring" + b"\x00" + bytes([keyring["format"]])
        + uuid.UUID(keyring["vaultID"]).bytes + b"database-key"
    )
    database_key = s.xchacha_open(
        base64.b64decode(keyring["databaseKey"]["ciphertext"]),
        associated,
        base64.b64decode(keyring["databaseKey"]["nonce"]),
        kek,
    )
    if database_key is None:
        raise ValueError("wrong passphrase")
    return s.kdf(database_key, b"hvowner1", 1, 32)


def signed_message(nonce, identity, connection_id, version=PROTOCOL_VERSION):
    """The bytes signed to authenticate: "healthvault" || u32be version || 32-byte nonce ||
    u16be length || identity UTF-8 || the connection id's 16 bytes."""
    identity_bytes = identity.encode("utf-8")
    return (
        PROTOCOL_NAME.encode("ascii")
        + struct.pack(">I", version)
        + nonce
        + struct.pack(">H", len(identity_bytes))
        + identity_bytes
        + uuid.UUID(connection_id).bytes
    )


def encode_json(value):
    """Compact UTF-8 JSON (the daemon accepts any key order and spacing)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# MARK: Tracing


class Tracer:
    """Writes each frame as: direction, the length prefix in hex, the JSON text."""

    def __init__(self, path):
        self.file = open(path, "w", encoding="utf-8")
        self.connection_names = {}

    def frame(self, conn, direction, payload, note=None):
        name = self.connection_names.setdefault(id(conn), f"c{len(self.connection_names) + 1}")
        prefix = struct.pack(">I", len(payload)).hex(" ")
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            text = "<not UTF-8> " + payload.hex()
        label = f" [{note}]" if note else ""
        self.file.write(f"{name} {direction} {prefix} | {text}{label}\n")
        self.file.flush()

    def comment(self, text):
        self.file.write(f"# {text}\n")
        self.file.flush()

    def close(self):
        self.file.close()


# MARK: Connections


class Connection:
    """One connection to healthvaultd: frames in and out, answers in order, notifications queued."""

    def __init__(self, sock, tracer=None, timeout=10.0):
        self.sock = sock
        self.tracer = tracer
        self.timeout = timeout
        self.buffer = b""
        self.eof = False
        self.notifications = []
        self.received = []
        self.next_id = 1
        self.hello = None
        self.hello_raw = None

    @classmethod
    def open(cls, socket_path, tracer=None, timeout=10.0, read_hello=True):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(socket_path)
        conn = cls(sock, tracer, timeout)
        if read_hello:
            raw = conn.read_frame()
            if raw is None:
                raise ProtocolError("the daemon closed the connection before its hello")
            message = json.loads(raw)
            if message.get("method") != "hello":
                raise RPCError(message.get("error", {}), raw) if "error" in message else ProtocolError(
                    f"the first message is not a hello: {raw!r}"
                )
            conn.hello_raw = raw
            conn.hello = message["params"]
        return conn

    # Bytes

    def send_bytes(self, data, note=None):
        """Writes bytes as they are (no length prefix added)."""
        if self.tracer:
            self.tracer.comment(f"raw bytes sent: {data[:64].hex(' ')}{' ...' if len(data) > 64 else ''}"
                                + (f" [{note}]" if note else ""))
        self.sock.sendall(data)

    def send_frame(self, payload, note=None):
        if self.tracer:
            self.tracer.frame(self, "->", payload, note)
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)

    def _fill(self, deadline):
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            ready, _, _ = select.select([self.sock], [], [], remaining)
            if not ready:
                return False
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self.eof = True
                return True
            self.buffer += chunk
            return True

    def read_frame(self, timeout=None):
        """The next frame's payload; None at the end of the stream. Raises TimeoutError."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack(">I", self.buffer[:4])
                if len(self.buffer) >= 4 + length:
                    payload = self.buffer[4 : 4 + length]
                    self.buffer = self.buffer[4 + length :]
                    self.received.append(payload)
                    if self.tracer:
                        self.tracer.frame(self, "<-", payload)
                    return payload
            if self.eof:
                if self.buffer:
                    raise ProtocolError("the daemon closed the connection in the middle of a frame")
                return None
            if not self._fill(deadline):
                raise TimeoutError("no frame from the daemon in time")

    def read_answer(self, timeout=None):
        """The next frame that is not a notification (answers come in request order)."""
        while True:
            raw = self.read_frame(timeout)
            if raw is None:
                return None
            message = json.loads(raw)
            if "id" not in message and "method" in message:
                self.notifications.append((raw, message))
                continue
            return raw

    def closed_by_peer(self, timeout=3.0):
        """True when the daemon closes the connection (within timeout) without another frame."""
        try:
            frame = self.read_frame(timeout)
        except TimeoutError:
            return False
        except (ConnectionResetError, BrokenPipeError):
            return True
        return frame is None

    # Requests

    def request_bytes(self, method, params, rpc_id):
        message = {"jsonrpc": "2.0", "id": rpc_id, "method": method}
        if params is not None:
            message["params"] = params
        return encode_json(message)

    def call_raw(self, method, params=None, rpc_id=None, note=None):
        """Sends a request; returns the answer frame's bytes (result or error) and its JSON."""
        if rpc_id is None:
            rpc_id = self.next_id
            self.next_id += 1
        self.send_frame(self.request_bytes(method, params, rpc_id), note)
        raw = self.read_answer()
        if raw is None:
            raise ProtocolError(f"the daemon closed the connection instead of answering {method}")
        return raw, json.loads(raw)

    def call(self, method, params=None, rpc_id=None, note=None):
        """Calls method and returns its result; an error answer raises RPCError."""
        raw, message = self.call_raw(method, params, rpc_id, note)
        if "error" in message:
            raise RPCError(message["error"], raw)
        return message["result"]

    def wait_notification(self, method, timeout=5.0, predicate=None):
        """The first queued or arriving notification of method (that predicate accepts)."""
        deadline = time.monotonic() + timeout
        while True:
            for index, (raw, message) in enumerate(self.notifications):
                if message.get("method") == method and (predicate is None or predicate(message["params"])):
                    del self.notifications[index]
                    return raw, message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {method} notification in time")
            raw = self.read_frame(remaining)
            if raw is None:
                raise ProtocolError(f"the connection closed while waiting for {method}")
            self.notifications.append((raw, json.loads(raw)))

    # Authentication

    def nonce(self):
        return base64.b64decode(self.hello["nonce"])

    def app_signature(self, app_id, seed, version=PROTOCOL_VERSION):
        message = signed_message(self.nonce(), app_id, self.hello["connection"], version)
        return base64.b64encode(sodium().sign(message, seed)).decode("ascii")

    def owner_signature(self, seed):
        message = signed_message(self.nonce(), "", self.hello["connection"])
        return base64.b64encode(sodium().sign(message, seed)).decode("ascii")

    def authenticate_app(self, app_id, seed, rpc_id=None):
        return self.call(
            "authenticate",
            {"version": PROTOCOL_VERSION, "app": app_id, "signature": self.app_signature(app_id, seed)},
            rpc_id,
        )

    def authenticate_owner(self, seed, rpc_id=None):
        return self.call(
            "authenticate",
            {"version": PROTOCOL_VERSION, "owner": True, "signature": self.owner_signature(seed)},
            rpc_id,
        )

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
