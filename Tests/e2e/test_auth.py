"""`auth:` end to end: the real binary sends basic, API-key and HTTP Digest credentials to the
demo API (whose /digest route checks the response hash) and keeps them out of what it shows,
records and exports."""
from __future__ import annotations

import json
from pathlib import Path

from test_send import run


def collection(tmp_path: Path, demo, password: str = "demo-digest-pass") -> Path:
    path = tmp_path / "auth.yaml"
    path.write_text(f"""
name: auth
environments:
  - name: local
    base_url: {demo.url("local", "")}
    variables: {{ pw: "{password}", key: "key-0123456789" }}
    secrets: [pw, key]
auth: {{ type: digest, username: ada, password: "{{{{pw}}}}" }}
endpoints:
  - name: Digest SHA-256
    path: /digest/SHA-256
  - name: Digest MD5
    path: /digest/MD5
  - folder: Open
    auth: none
    endpoints:
      - name: Challenge
        path: /digest/MD5
      - name: Keyed echo
        path: /echo
        auth: {{ type: api_key, name: api_key, value: "{{{{key}}}}", in: query }}
""")
    return path


def send(explorer_bin, tmp_path, path, *args):
    return run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", *args)


def test_digest_answers_the_challenge_and_the_server_accepts_the_hash(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    for endpoint, algorithm in (("Digest SHA-256", "SHA-256"), ("Digest MD5", "MD5")):
        # --json reads the whole body; a plain piped send streams it: both answer the challenge.
        result = send(explorer_bin, tmp_path, path, endpoint, "--json", "--check-status")
        assert result.returncode == 0, result.stderr
        exchange = json.loads(result.stdout)
        assert exchange["status"] == 200
        streamed = send(explorer_bin, tmp_path, path, endpoint, "--check-status")
        assert streamed.returncode == 0, streamed.stderr
        body = json.loads(streamed.stdout)
        assert body["authenticated"] is True and body["algorithm"] == algorithm and body["nc"] == "00000001"


def test_a_wrong_digest_password_shows_the_servers_401(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo, password="not-the-password")
    result = send(explorer_bin, tmp_path, path, "Digest SHA-256", "--check-status")
    assert result.returncode == 4
    assert "response hash is wrong" in result.stdout.decode()


def test_auth_none_sends_no_credentials(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, collection(tmp_path, demo), "Open/Challenge", "--check-status")
    assert result.returncode == 4
    assert "needs HTTP Digest credentials" in result.stdout.decode()


def test_credentials_stay_out_of_history_and_exports(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    keyed = send(explorer_bin, tmp_path, path, "Open/Keyed echo", "--json", "--check-status")
    assert keyed.returncode == 0, keyed.stderr
    exchange = json.loads(keyed.stdout)
    assert "api_key=••••••" in exchange["url"]
    assert send(explorer_bin, tmp_path, path, "Digest MD5", "--check-status").returncode == 0

    exported = run(explorer_bin, tmp_path, "export", "curl", "Digest MD5", "--collection", str(path), "--env", "local")
    assert exported.returncode == 0, exported.stderr
    assert "--digest -u 'ada:••••••'" in exported.stdout.decode()
    keyed_curl = run(explorer_bin, tmp_path, "export", "curl", "Open/Keyed echo", "--collection", str(path), "--env", "local")
    assert "key-0123456789" not in keyed_curl.stdout.decode()

    folder = tmp_path / "state" / "explorer"
    raw = b"".join(p.read_bytes() for p in folder.iterdir() if p.name.startswith("history.sqlite"))
    assert raw, "the history was not written"
    assert b"demo-digest-pass" not in raw and b"key-0123456789" not in raw
