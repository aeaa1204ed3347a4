"""Credentials stay with their origin (security finding 3, the redirect part), end to end:
`explorer send` against a server on 127.0.0.1 that redirects to a recording server on a second
port, and an https server that redirects to plain http."""
from __future__ import annotations

import json
import ssl
from pathlib import Path

import pytest
from conftest import LocalServer
from test_send import run


def recording_server() -> LocalServer:
    """A server on 127.0.0.1 that records the headers of every request and answers 200."""
    return LocalServer(lambda method, path: (200, {"Content-Type": "application/json"}, b'{"reached": true}'))


def redirecting_server(target: str, context: ssl.SSLContext | None = None) -> LocalServer:
    """A server on 127.0.0.1 that answers every request 302 to `target`, recording the headers."""
    return LocalServer(lambda method, path: (302, {"Location": target}, b""), context)


CREDENTIALS = {
    "X-Api-Key": "k3y-value", "X-Auth-Token": "t0ken-value", "api-key": "k4y-value",
    "Cookie": "session=c00kie-value",
}


def collection(tmp_path: Path, base_url: str, extra: str = "") -> Path:
    headers = "\n".join(f"      {name}: {value}" for name, value in CREDENTIALS.items())
    path = tmp_path / "redirects.yaml"
    path.write_text(f"""
name: redirects
{extra}
environments:
  - name: local
    base_url: {base_url}
    auth: {{ type: bearer, token: b3arer-value }}
    headers:
{headers}
endpoints:
  - name: Start
    path: /start
    headers:
      X-Trace: kept
""")
    return path


def test_a_redirect_to_another_port_forwards_no_credential_header_and_no_auth(explorer_bin, tmp_path):
    recorder = recording_server()
    server = redirecting_server(f"http://127.0.0.1:{recorder.port}/landing")
    seen = server.requests
    try:
        path = collection(tmp_path, server.url)
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", "Start", "--no-history")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == {"reached": True}

        # The first origin got everything; the second, nothing that is a credential.
        assert seen[0]["authorization"] == "Bearer b3arer-value" and seen[0]["x-api-key"] == "k3y-value"
        assert len(recorder.requests) == 1
        landed = recorder.requests[0]
        assert landed.get("x-trace") == "kept"  # the endpoint's own header, holding no secret
        for name in ["authorization", "x-api-key", "x-auth-token", "api-key", "cookie"]:
            assert name not in landed, f"{name} reached the other origin"
        assert not any("value" in value for value in landed.values()), landed
    finally:
        server.close()
        recorder.close()


def test_a_header_holding_a_secret_and_the_environments_headers_stay_with_their_origin(explorer_bin, tmp_path):
    """A 307 to another origin: `X-Custom: {{pw}}` with `pw` under `secrets:`, and every header
    of the environment (meant for its own server), are left behind like credentials; the
    endpoint's other headers follow, and a redirect on the same origin keeps everything."""
    recorder = recording_server()
    away = LocalServer(lambda method, path: (307, {"Location": f"http://127.0.0.1:{recorder.port}/landing"}, b""))
    home = LocalServer(lambda method, path: (307, {"Location": "/landing"}, b"") if path == "/start" else
                       (200, {"Content-Type": "application/json"}, b'{"home": true}'))
    try:
        for server in (away, home):
            path = tmp_path / "secret-headers.yaml"
            path.write_text(f"""
name: secret headers
environments:
  - name: local
    base_url: {server.url}
    variables:
      pw: hunter2-pa55
      tenant: acme-tenant
    secrets: [pw]
    headers:
      X-Tenant: "{{{{tenant}}}}"
endpoints:
  - name: Start
    method: POST
    path: /start
    headers:
      X-Custom: "{{{{pw}}}}"
      X-Signed: "sig {{{{pw}}}}"
      X-Trace: kept
    body: hello
""")
            result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", "Start", "--no-history")
            assert result.returncode == 0, result.stderr
        first, landing = away.requests[0], recorder.requests[0]
        assert first["x-custom"] == "hunter2-pa55" and first["x-tenant"] == "acme-tenant"
        assert landing.get("x-trace") == "kept"
        for name in ["x-custom", "x-signed", "x-tenant"]:
            assert name not in landing, f"{name} followed the 307 to another origin"
        assert not any("hunter2" in value or "acme" in value for value in landing.values()), landing

        # The same origin keeps them: the redirect went nowhere else.
        assert [request.get("x-custom") for request in home.requests] == ["hunter2-pa55", "hunter2-pa55"]
        assert [request.get("x-tenant") for request in home.requests] == ["acme-tenant", "acme-tenant"]
    finally:
        for server in (away, home, recorder):
            server.close()


def test_graphql_introspection_leaves_the_same_headers_behind_on_a_redirect_to_another_origin(explorer_bin, tmp_path):
    """`explorer graphql schema` sends the endpoint's headers to ask for its schema: a 307 to
    another origin gets neither the header holding a secret nor the environment's."""
    recorder = recording_server()
    server = LocalServer(lambda method, path: (307, {"Location": f"http://127.0.0.1:{recorder.port}/graphql"}, b""))
    try:
        path = tmp_path / "graphql.yaml"
        path.write_text(f"""
name: graphql headers
environments:
  - name: local
    base_url: {server.url}
    variables:
      pw: hunter2-pa55
    secrets: [pw]
    headers:
      X-Tenant: acme-tenant
endpoints:
  - name: Posts
    method: POST
    path: /graphql
    headers:
      X-Custom: "{{{{pw}}}}"
    graphql:
      query: "{{ posts {{ title }} }}"
""")
        run(explorer_bin, tmp_path, "graphql", "schema", "Posts", "--collection", str(path), "--env", "local")
        assert server.requests[0]["x-custom"] == "hunter2-pa55" and server.requests[0]["x-tenant"] == "acme-tenant"
        assert len(recorder.requests) == 1
        landing = recorder.requests[0]
        assert "x-custom" not in landing and "x-tenant" not in landing, landing
    finally:
        server.close()
        recorder.close()


@pytest.fixture
def tls_context(tmp_path: Path) -> ssl.SSLContext:
    from test_tls import certificate, require_cryptography
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
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "leaf.key")
    return context


def test_an_https_to_http_redirect_is_refused_naming_both_urls_unless_allowed(explorer_bin, tmp_path, tls_context):
    recorder = recording_server()
    target = f"http://127.0.0.1:{recorder.port}/landing"
    server = redirecting_server(target, tls_context)
    start = f"https://localhost:{server.port}"
    try:
        path = collection(tmp_path, start)
        text = path.read_text().replace("    auth:", "    tls: { ca_cert: certs/ca.pem }\n    auth:")
        path.write_text(text)
        refused = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", "Start", "--no-history")
        assert refused.returncode == 1, refused.stderr
        assert f"{start}/start redirected to {target}, from https to plain http: not followed" in refused.stderr
        assert "allow_insecure_redirects: true" in refused.stderr
        assert recorder.requests == []

        path.write_text(text.replace("name: redirects", "name: redirects\nallow_insecure_redirects: true"))
        allowed = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", "Start", "--no-history")
        assert allowed.returncode == 0, allowed.stderr
        assert len(recorder.requests) == 1
        assert "authorization" not in recorder.requests[0] and "x-api-key" not in recorder.requests[0]
    finally:
        server.close()
        recorder.close()


def test_allow_insecure_redirects_must_be_true_or_false(explorer_bin, tmp_path):
    path = collection(tmp_path, "http://127.0.0.1:9", extra="allow_insecure_redirects: sometimes")
    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", "Start", "--no-history")
    assert result.returncode == 2
    assert "allow_insecure_redirects" in result.stderr and "true or false" in result.stderr
