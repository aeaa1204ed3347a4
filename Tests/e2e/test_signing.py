"""`auth: aws_sigv4` and `auth: oauth1` end to end: `explorer send` to a recording server on
127.0.0.1 carries the AWS signing test suite's Authorization header (Tests/Fixtures/aws-sigv4,
the time fixed by the request's own X-Amz-Date), `--presign` prints the suite's query signature,
a redirect to another origin carries no signature, and an OAuth 1.0a signature is checked by an
independent implementation of RFC 5849 here."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import urllib.parse
from pathlib import Path

from conftest import LocalServer
from test_send import run

SUITE = Path(__file__).resolve().parent.parent / "Fixtures" / "aws-sigv4"


def suite_authorization(case: str) -> str:
    """The Authorization header of a suite case's header-signed request."""
    for line in (SUITE / case / "header-signed-request.txt").read_text().splitlines():
        if line.startswith("Authorization:"):
            return line[len("Authorization:"):]
    raise AssertionError(f"{case} has no Authorization line")


def suite_context(case: str) -> dict:
    return json.loads((SUITE / case / "context.json").read_text())


def recording_server() -> LocalServer:
    return LocalServer(lambda method, path: (200, {"Content-Type": "application/json"}, b'{"reached": true}'))


def aws_collection(tmp_path: Path, base_url: str, case: str, endpoint_path: str = "/") -> Path:
    """A collection whose endpoint is the suite case's request (Host and X-Amz-Date as headers)."""
    context = suite_context(case)
    credentials = context["credentials"]
    token = f'\n      session_token: "{credentials["token"]}"' if "token" in credentials else ""
    path = tmp_path / "signing.yaml"
    path.write_text(f"""
name: signing
environments:
  - name: local
    base_url: {base_url}
endpoints:
  - name: Vanilla
    path: {endpoint_path}
    headers:
      Host: example.amazonaws.com
      X-Amz-Date: "20150830T123600Z"
    auth:
      type: aws_sigv4
      access_key_id: {credentials["access_key_id"]}
      secret_access_key: "{credentials["secret_access_key"]}"{token}
      region: {context["region"]}
      service: {context["service"]}
""")
    return path


def test_send_carries_the_suites_authorization_header(explorer_bin, tmp_path):
    server = recording_server()
    try:
        for case in ["get-vanilla", "get-vanilla-with-session-token"]:
            path = aws_collection(tmp_path, server.url, case)
            result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Vanilla", "--no-history")
            assert result.returncode == 0, result.stderr
            seen = server.requests[-1]
            assert seen["authorization"] == suite_authorization(case), case
            assert seen["x-amz-date"] == "20150830T123600Z"
            if "token" in suite_context(case)["credentials"]:
                assert seen["x-amz-security-token"] == suite_context(case)["credentials"]["token"]
    finally:
        server.close()


def test_presign_prints_the_suites_query_signature(explorer_bin, tmp_path):
    path = aws_collection(tmp_path, "http://127.0.0.1:9", "get-vanilla")
    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Vanilla", "--presign", "3600")
    assert result.returncode == 0, result.stderr
    url = urllib.parse.urlsplit(result.stdout.decode().strip())
    query = dict(urllib.parse.parse_qsl(url.query))
    assert query["X-Amz-Expires"] == "3600"
    assert query["X-Amz-Date"] == "20150830T123600Z"
    assert query["X-Amz-Signature"] == (SUITE / "get-vanilla" / "query-signature.txt").read_text().strip()


def test_presign_of_an_endpoint_without_signing_auth_says_so(explorer_bin, tmp_path):
    path = tmp_path / "plain.yaml"
    path.write_text("""
name: plain
environments: [{ name: local, base_url: "http://127.0.0.1:9" }]
endpoints: [{ name: Plain, path: / }]
""")
    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Plain", "--presign", "60")
    assert result.returncode == 2
    assert "only a signed request can be presigned" in result.stderr
    too_long = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Plain", "--presign", "700000")
    assert too_long.returncode != 0 and "604800" in too_long.stderr


def test_a_redirect_to_another_origin_carries_no_signature(explorer_bin, tmp_path):
    recorder = recording_server()
    server = LocalServer(lambda method, path: (302, {"Location": f"{recorder.url}/landing"}, b""))
    try:
        path = aws_collection(tmp_path, server.url, "get-vanilla-with-session-token")
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Vanilla", "--no-history")
        assert result.returncode == 0, result.stderr
        assert server.requests[0]["authorization"].startswith("AWS4-HMAC-SHA256 ")
        landed = recorder.requests[0]
        for name in ["authorization", "x-amz-security-token", "x-amz-date"]:
            assert name not in landed, f"{name} reached the other origin"
    finally:
        server.close()
        recorder.close()


def test_a_profile_is_read_from_the_files_the_environment_names(explorer_bin, tmp_path):
    server = recording_server()
    credentials = tmp_path / "aws-credentials"
    credentials.write_text("[suite]\naws_access_key_id = AKIDEXAMPLE\n"
                           "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY\n")
    try:
        path = tmp_path / "profile.yaml"
        path.write_text(f"""
name: profile
environments: [{{ name: local, base_url: "{server.url}" }}]
endpoints:
  - name: Vanilla
    path: /
    headers: {{ Host: example.amazonaws.com, X-Amz-Date: "20150830T123600Z" }}
    auth: {{ type: aws_sigv4, profile: suite, region: us-east-1, service: service }}
""")
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Vanilla", "--no-history",
                     env={"AWS_SHARED_CREDENTIALS_FILE": str(credentials)})
        assert result.returncode == 0, result.stderr
        assert server.requests[-1]["authorization"] == suite_authorization("get-vanilla")
    finally:
        server.close()


def rfc5849_signature(method: str, url: str, params: list[tuple[str, str]], key: bytes) -> str:
    """HMAC-SHA1 over RFC 5849's signature base string, written here from the RFC."""
    def enc(text: str) -> str:
        return urllib.parse.quote(text, safe="-._~")
    normalized = "&".join(f"{n}={v}" for n, v in sorted((enc(n), enc(v)) for n, v in params))
    base = "&".join([method, enc(url), enc(normalized)])
    return base64.b64encode(hmac.new(key, base.encode(), hashlib.sha1).digest()).decode()


def test_oauth1_signature_checks_out_with_an_independent_implementation(explorer_bin, tmp_path):
    server = recording_server()
    try:
        path = tmp_path / "oauth1.yaml"
        path.write_text(f"""
name: oauth1
environments: [{{ name: local, base_url: "{server.url}" }}]
endpoints:
  - name: Photos
    path: /photos?file=vacation.jpg&size=original
    auth:
      type: oauth1
      consumer_key: dpf43f3p2l4k3l03
      consumer_secret: kd94hf93k423kf44
      token: nnch734d00sl2jdk
      token_secret: pfkkdhi9sl3r4s00
      realm: Photos
""")
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Photos", "--no-history")
        assert result.returncode == 0, result.stderr
        header = server.requests[-1]["authorization"]
        assert header.startswith('OAuth realm="Photos", ')
        params = {
            name: urllib.parse.unquote(value.strip('"'))
            for name, value in (item.split("=", 1) for item in header[len("OAuth "):].split(", "))
        }
        signature = params.pop("oauth_signature")
        params.pop("realm")
        assert params["oauth_nonce"] and params["oauth_timestamp"].isdigit()
        expected = rfc5849_signature(
            "GET", f"{server.url}/photos",
            [("file", "vacation.jpg"), ("size", "original"), *params.items()],
            b"kd94hf93k423kf44&pfkkdhi9sl3r4s00")
        assert signature == expected
    finally:
        server.close()
