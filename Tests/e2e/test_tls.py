"""TLS end to end: `explorer send` against a real TLS server on 127.0.0.1 (Python's ssl) whose
CA and certificate are made by the test (cryptography): refused with a sentence naming the
host and the setting without `tls.ca_cert`, answered with it, and a missing file named."""
from __future__ import annotations

import datetime
import http.server
import ssl
import threading
from pathlib import Path

import pytest
from conftest import require_tool
from test_send import run


def require_cryptography() -> None:
    """The certificates are made with cryptography, a test tool (see `conftest.require_tool`)."""
    require_tool("cryptography", module="cryptography.x509")


def certificate(subject: str, issuer_name, issuer_key, key, ca: bool, dns: str | None = None):
    require_cryptography()
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder()
               .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
               .issuer_name(issuer_name or x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(hours=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if dns:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(dns)]), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


@pytest.fixture
def tls_server(tmp_path: Path):
    require_cryptography()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = certificate("e2e CA", None, ca_key, ca_key, ca=True)
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf = certificate("localhost", ca.subject, ca_key, leaf_key, ca=False, dns="localhost")
    (tmp_path / "certs").mkdir()
    (tmp_path / "certs" / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "leaf.pem").write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "leaf.key").write_bytes(leaf_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"secure": true}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "leaf.key")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()


def collection(tmp_path: Path, port: int) -> Path:
    path = tmp_path / "tls.yaml"
    path.write_text(f"""
name: tls
environments:
  - name: trusted
    base_url: https://localhost:{port}
    tls: {{ ca_cert: certs/ca.pem, min_version: "1.2" }}
  - name: plain
    base_url: https://localhost:{port}
  - name: missing
    base_url: https://localhost:{port}
    tls: {{ ca_cert: certs/nope.pem }}
endpoints:
  - name: Root
    path: /
""")
    return path


def test_tls_ca_cert_trusts_the_server_and_without_it_the_sentence_names_host_and_setting(explorer_bin, tmp_path, tls_server):
    path = collection(tmp_path, tls_server)
    trusted = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "trusted", "Root", "--no-history")
    assert trusted.returncode == 0, trusted.stderr
    assert trusted.stdout == b'{"secure": true}'

    plain = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "plain", "Root", "--no-history")
    assert plain.returncode == 1
    assert "The secure connection to localhost failed" in plain.stderr
    assert "tls.ca_cert" in plain.stderr

    missing = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "missing", "Root", "--no-history")
    assert missing.returncode == 2
    assert f"tls.ca_cert {tmp_path / 'certs' / 'nope.pem'} cannot be used: there is no such file." in missing.stderr
