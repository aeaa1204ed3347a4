"""What `explorer send` stores in the history: readable by the user alone, secrets masked
wherever the exchange carries them (request, response headers and body, the search index)."""
from __future__ import annotations

import json
import stat

from test_history import history, listed
from test_send import run

SECRET = "e2e-s3cret-7c1d"


def echo_collection(tmp_path, demo):
    """A collection whose endpoint sends its secret token to /echo, which sends it back."""
    collection = tmp_path / "echo.yaml"
    collection.write_text(
        "name: echo\n"
        "environments:\n"
        "  - name: local\n"
        f"    base_url: {demo.urls['local']}\n"
        f"    variables: {{ token: {SECRET} }}\n"
        "    secrets: [token]\n"
        "endpoints:\n"
        "  - name: Echo token\n"
        "    path: /echo\n"
        "    query: { token: \"{{token}}\" }\n"
        "    headers: { X-Token: \"{{token}}\" }\n"
    )
    return collection


def history_files(tmp_path):
    folder = tmp_path / "state" / "explorer"
    return folder, [folder / name for name in ("history.sqlite", "history.sqlite-wal") if (folder / name).exists()]


def test_send_stores_no_secret_the_response_echoes(explorer_bin, tmp_path, demo):
    collection = echo_collection(tmp_path, demo)
    sent = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Echo token", "--json")
    assert sent.returncode == 0, sent.stderr
    record = json.loads(sent.stdout)
    # The echo did carry the token back: this is what must not reach the disk.
    assert SECRET in record["body"]

    shown = history(explorer_bin, tmp_path, "show", str(record["historyId"]), "--json")
    assert shown.returncode == 0, shown.stderr
    assert SECRET not in shown.stdout.decode()
    assert "••••••" in json.loads(shown.stdout)["body"]
    assert listed(explorer_bin, tmp_path, "--search", SECRET) == []
    assert listed(explorer_bin, tmp_path, "--search", "s3cret") == []

    _, files = history_files(tmp_path)
    assert files
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), path


def test_a_secret_in_an_error_body_is_masked_too(explorer_bin, tmp_path, demo):
    # In production the demo's token is a secret; the 401 body spells it out.
    sent = run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection),
               "Auth/Me without token (401)", "--env", "production", "--json")
    assert sent.returncode == 0, sent.stderr
    record = json.loads(sent.stdout)
    assert "demo-token" in record["body"]
    shown = history(explorer_bin, tmp_path, "show", str(record["historyId"]), "--json")
    assert "demo-token" not in shown.stdout.decode()


def test_the_history_is_readable_by_its_owner_alone(explorer_bin, tmp_path, demo):
    folder = tmp_path / "state" / "explorer"
    folder.mkdir(parents=True)
    folder.chmod(0o755)  # as an older version left it
    sent = run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection), "Users/List users", "--env", "local")
    assert sent.returncode == 0, sent.stderr
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
