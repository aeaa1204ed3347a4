"""Starting the gRPC interop server (server.py) for a test, and the certificates of its TLS.

    from grpc_interop.harness import interop_server, tls_certificates

    with interop_server(tmp_path, reflection="v1") as server:
        channel = grpc.insecure_channel(server.target)

The server runs in its own process on a free port of 127.0.0.1; `interop_server` returns once
the server has printed the port it listens on, and stops it when the block ends.
"""
from __future__ import annotations

import contextlib
import datetime
import ipaddress
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from conftest import DEFAULT_TIMEOUT, require_tool

SERVER = Path(__file__).resolve().parent / "server.py"


@dataclass
class InteropServer:
    port: int
    process: subprocess.Popen
    # The descriptor set the server wrote (with protoset=True), else None.
    protoset: Path | None
    # With tls: the CA that signed the server's certificate (for 127.0.0.1 and localhost).
    ca_cert: Path | None

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"


@dataclass
class TLSFiles:
    ca_cert: Path
    chain: Path
    key: Path


def require_grpc() -> None:
    """grpcio, grpcio-tools and grpcio-reflection: test tools (Tests/e2e/requirements.txt)."""
    require_tool("grpcio", module="grpc")
    require_tool("grpcio-tools", module="grpc_tools.protoc")
    require_tool("grpcio-reflection", module="grpc_reflection.v1alpha.reflection")


def tls_certificates(folder: Path) -> TLSFiles:
    """A CA and a server certificate it signed, for 127.0.0.1 and localhost, as PEM files."""
    require_tool("cryptography", module="cryptography.x509")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def build(subject: str, issuer: x509.Name | None, issuer_key, key, ca: bool) -> x509.Certificate:
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
        builder = (x509.CertificateBuilder().subject_name(name).issuer_name(issuer or name)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(hours=1))
                   .not_valid_after(now + datetime.timedelta(hours=2))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if not ca:
            names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
        return builder.sign(issuer_key, hashes.SHA256())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = build("grpc interop e2e CA", None, ca_key, ca_key, ca=True)
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = build("localhost", ca.subject, ca_key, key, ca=False)
    folder.mkdir(parents=True, exist_ok=True)
    files = TLSFiles(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    files.ca_cert.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    files.chain.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    files.key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    return files


def _read_lines(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


@contextlib.contextmanager
def interop_server(folder: Path, reflection: str = "both", tls: bool = False, protoset: bool = False):
    """Runs server.py on a free port for the block; yields an `InteropServer`."""
    require_grpc()
    folder.mkdir(parents=True, exist_ok=True)
    arguments = [sys.executable, str(SERVER), "--port", "0", "--reflection", reflection]
    ca_cert = None
    if tls:
        files = tls_certificates(folder / "certs")
        arguments += ["--tls", str(files.chain), str(files.key)]
        ca_cert = files.ca_cert
    protoset_path = folder / "interop.protoset" if protoset else None
    if protoset_path:
        arguments += ["--protoset-out", str(protoset_path)]
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
        port = None
        while port is None:
            try:
                line = lines.get(timeout=DEFAULT_TIMEOUT * 2)
            except queue.Empty:
                raise AssertionError(f"the interop server printed no PORT line in {DEFAULT_TIMEOUT * 2}s")
            if line is None:
                process.wait(timeout=DEFAULT_TIMEOUT)
                raise AssertionError(f"the interop server stopped ({process.returncode}): {process.stderr.read()}")
            if line.startswith("PORT "):
                port = int(line.split()[1])
        yield InteropServer(port=port, process=process, protoset=protoset_path, ca_cert=ca_cert)
    finally:
        process.terminate()
        try:
            process.wait(timeout=DEFAULT_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()
        process.stdout.close()
