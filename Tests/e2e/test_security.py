"""What a file someone else wrote can make explorer do: each test shows the harm on 127.0.0.1
with the real binary, and that it no longer happens."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import LocalServer
from test_history import listed
from test_send import run


def trusted_collection(explorer_bin, tmp_path, demo) -> Path:
    """A collection of the user's own, trusted (named on the command line once)."""
    collection = tmp_path / "mine" / "explorer.yaml"
    collection.parent.mkdir()
    collection.write_text(
        "name: Mine\n"
        f"environments:\n  - name: local\n    base_url: {demo.urls['local']}\n"
        "endpoints:\n  - name: Health\n    method: GET\n    path: /health\n"
    )
    assert run(explorer_bin, tmp_path, "trust", str(collection)).returncode == 0
    return collection


def test_an_imported_command_never_runs_whatever_the_space_after_its_name(explorer_bin, tmp_path, demo):
    # A tab, a carriage return and a line break after `command` are written `\t`, `\r`, `\n`
    # in the YAML the import produces, yet the template parser reads each as a command.
    marker = tmp_path / "pwned"
    spaces = {"Tab": "\t", "Return": "\r", "Newline": "\n", "Space": " "}
    postman = {
        "info": {"name": "Shared", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
        "item": [
            {
                "name": f"Echo {name}",
                "request": {
                    "method": "POST",
                    "url": demo.urls["local"] + "/echo",
                    "header": [{"key": "X-Thing", "value": f'{{{{command{space}"echo {name} >> {marker}"}}}}'}],
                    "body": {"mode": "raw", "raw": f'{{"note": "{{{{ command{space}\\"echo body{name} >> {marker}\\"}}}}"}}'},
                },
            }
            for name, space in spaces.items()
        ],
    }
    source = tmp_path / "shared.postman_collection.json"
    source.write_text(json.dumps(postman))
    collection = trusted_collection(explorer_bin, tmp_path, demo)

    imported = run(explorer_bin, tmp_path, "import", "postman", str(source), "--into", str(collection), "--force")
    assert imported.returncode == 0, imported.stderr
    assert "8 {{command" in imported.stderr and "command_from_import" in imported.stderr, imported.stderr
    assert "\r" not in imported.stderr, "what the file holds is escaped on the terminal"

    for name in spaces:
        sent = run(explorer_bin, tmp_path, "send", f"Echo {name}", "--collection", str(collection), "--env", "local")
        assert not marker.exists(), f"Echo {name} ran {marker.read_text()!r}"
        assert sent.returncode != 0, sent.stderr


def test_a_credential_the_server_echoes_is_masked_however_it_was_written(explorer_bin, tmp_path, demo):
    # No `secrets:` at all: a literal X-Api-Key, a credential-named header, a bearer token
    # written in the header and an access_token in the query, all echoed back by /echo.
    values = {"key": "lit3ral-k3y-9a1", "auth": "x-auth-t0ken-44", "bearer": "b3arer-t0k-71", "query": "qu3ry-t0k-58"}
    collection = tmp_path / "plain.yaml"
    collection.write_text(
        "name: plain\n"
        f"environments:\n  - name: local\n    base_url: {demo.urls['local']}\n"
        "endpoints:\n"
        "  - name: Echo\n"
        "    path: /echo\n"
        f"    query: {{ access_token: {values['query']}, page: '2' }}\n"
        f"    headers: {{ X-Api-Key: {values['key']}, X-Auth-Token: {values['auth']}, Authorization: 'Bearer {values['bearer']}' }}\n"
    )
    sent = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Echo", "--json")
    assert sent.returncode == 0, sent.stderr
    record = json.loads(sent.stdout)
    assert all(value in record["body"] for value in values.values()), "the echo carried them back"

    shown = run(explorer_bin, tmp_path, "history", "show", str(record["historyId"]), "--json")
    assert shown.returncode == 0, shown.stderr
    for value in values.values():
        assert value not in shown.stdout.decode(), value
        assert listed(explorer_bin, tmp_path, "--search", value) == [], value
    shown_list = run(explorer_bin, tmp_path, "history")
    assert values["query"] not in shown_list.stdout.decode(), "the URL in the list masks the access_token"
    for path in (tmp_path / "state" / "explorer").glob("history.sqlite*"):
        for value in values.values():
            assert value.encode() not in path.read_bytes(), (path, value)


def hostile_token_server() -> LocalServer:
    """An OAuth2 token endpoint on 127.0.0.1 whose error retitles and clears the terminal, and
    a device endpoint whose verification URL has a scheme no browser should be handed."""
    def answer(method, path):
        if path == "/device":
            body = {"device_code": "dc", "user_code": "AB\u001b[2JCD", "verification_uri": "x-evil-scheme://open",
                    "verification_uri_complete": "x-evil-scheme://open?code=1", "expires_in": 2, "interval": 1}
            return 200, {"Content-Type": "application/json"}, json.dumps(body).encode()
        body = {"error": "invalid_client", "error_description": "bad \u001b]0;pwned\u0007 client\u001b[2J"}
        return 400, {"Content-Type": "application/json"}, json.dumps(body).encode()
    return LocalServer(answer)


def test_what_a_server_says_reaches_the_terminal_escaped(explorer_bin, tmp_path, demo):
    hostile = hostile_token_server()
    try:
        collection = tmp_path / "oauth.yaml"
        collection.write_text(
            "name: oauth\n"
            f"environments:\n  - name: local\n    base_url: {demo.urls['local']}\n"
            "endpoints:\n"
            "  - name: Client\n    path: /health\n"
            f"    auth: {{ type: oauth2, grant: client_credentials, token_url: '{hostile.url}/token', client_id: c, client_secret: s }}\n"
            "  - name: \"Users\\e[2J\"\n    path: /health\n"
        )
        failed = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Client")
        assert failed.returncode != 0
        assert "invalid_client" in failed.stderr, failed.stderr
        assert "\x1b" not in failed.stderr and "\x07" not in failed.stderr, repr(failed.stderr)
        assert "\\e]0;pwned" in failed.stderr, "the text is shown, escaped"

        typo = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Usres")
        assert typo.returncode != 0
        assert "\x1b" not in typo.stderr, repr(typo.stderr)
    finally:
        hostile.close()


def test_only_an_http_url_goes_to_the_browser(explorer_bin, tmp_path, demo):
    hostile = hostile_token_server()
    opened = tmp_path / "opened"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" >> {opened}\n')
    browser.chmod(0o755)
    try:
        collection = tmp_path / "device.yaml"
        collection.write_text(
            "name: device\n"
            f"environments:\n  - name: local\n    base_url: {demo.urls['local']}\n"
            "endpoints:\n"
            "  - name: Device\n    path: /health\n"
            f"    auth: {{ type: oauth2, grant: device_code, device_authorization_url: '{hostile.url}/device', token_url: '{hostile.url}/token', client_id: c }}\n"
        )
        result = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "Device", env={"BROWSER": str(browser)})
        assert result.returncode != 0
        assert not opened.exists(), f"the browser was handed {opened.read_text()!r}"
        assert "\x1b" not in result.stderr, repr(result.stderr)
    finally:
        hostile.close()


def test_a_found_collection_reaching_beyond_its_folder_sends_nothing_until_trusted(explorer_bin, tmp_path, demo):
    cloned = tmp_path / "cloned"
    cloned.mkdir()
    collection = cloned / "explorer.yaml"
    reaching = (
        "name: cloned\n"
        f"environments:\n  - name: local\n    base_url: {demo.urls['local']}\n"
        "endpoints:\n"
        "  - name: Leak\n    method: POST\n    path: /echo/leak\n"
        "    headers: { X-Host: '{{file /etc/hostname}}', X-Key: '{{env.AWS_SECRET_ACCESS_KEY}}' }\n"
        "  - name: Health\n    path: /health\n"
    )
    collection.write_text(reaching)
    secret_env = {"AWS_SECRET_ACCESS_KEY": "aws-s3cret-e2e"}
    served_before = len(demo.lines)

    found = run(explorer_bin, tmp_path, "send", "Health", cwd=cloned, env=secret_env)
    assert found.returncode == 2, found.stderr
    for said in ("was found, not named", "reads the file /etc/hostname", "reads the environment variable AWS_SECRET_ACCESS_KEY",
                 f"It sends to local {demo.urls['local']}", f"explorer trust {collection}"):
        assert said in found.stderr, found.stderr
    assert not any("/echo/leak" in line or "/health" in line for line in demo.lines[served_before:]), "nothing was sent"

    trusted = run(explorer_bin, tmp_path, "trust", cwd=cloned)
    assert trusted.returncode == 0, trusted.stderr
    assert "reads the file /etc/hostname" in trusted.stdout.decode()
    sent = run(explorer_bin, tmp_path, "send", "Leak", cwd=cloned, env=secret_env)
    assert sent.returncode == 0, sent.stderr

    # A pull adds a command: the trust given before does not cover it.
    collection.write_text(reaching + "  - name: Pulled\n    path: \"/x/{{command \\\"id\\\"}}\"\n")
    again = run(explorer_bin, tmp_path, "send", "Health", cwd=cloned, env=secret_env)
    assert again.returncode == 2 and "runs the command id" in again.stderr, again.stderr


def test_an_import_says_which_files_and_variables_it_reaches(explorer_bin, tmp_path, demo):
    postman = {
        "info": {"name": "Shared", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
        "item": [{
            "name": "Upload",
            "request": {
                "method": "POST", "url": demo.urls["local"] + "/echo",
                "header": [{"key": "X-Key", "value": "{{env.AWS_SECRET_ACCESS_KEY}}"}],
                "body": {"mode": "formdata", "formdata": [{"key": "f", "type": "file", "src": "/etc/passwd"}]},
            },
        }],
    }
    source = tmp_path / "shared.json"
    source.write_text(json.dumps(postman))
    (tmp_path / "mine").mkdir()
    imported = run(explorer_bin, tmp_path, "import", "postman", str(source), "--into", str(tmp_path / "mine" / "explorer.yaml"))
    assert imported.returncode == 0, imported.stderr
    assert "reads the file /etc/passwd" in imported.stderr, imported.stderr
    assert "reads the environment variable AWS_SECRET_ACCESS_KEY" in imported.stderr, imported.stderr


def test_the_demo_makes_its_own_private_folder_and_removes_it(explorer_bin, tmp_path):
    import os
    import re
    import signal
    import subprocess
    import time
    # A folder someone else prepared under the old fixed name is not written into.
    process = subprocess.Popen([str(explorer_bin), "demo", "--serve-only", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        collection = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and collection is None:
            line = process.stdout.readline()
            match = re.match(r"collection: (.+)", line)
            if match:
                collection = Path(match.group(1).strip())
        assert collection is not None and collection.exists()
        assert collection.parent.parent == tmp_path and re.fullmatch(r"explorer-demo-\w{6}", collection.parent.name)
        assert oct(collection.parent.stat().st_mode & 0o777) == "0o700"
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
    assert not collection.parent.exists(), "--serve-only removes its folder on exit"


def test_an_invalid_header_value_read_from_a_file_is_not_printed(explorer_bin, tmp_path):
    (tmp_path / "key.pem").write_text("-----BEGIN KEY-----\nMIIsecretmaterial\n-----END KEY-----\n")
    collection = tmp_path / "explorer.yaml"
    collection.write_text(
        "name: h\nenvironments: [{ name: local, base_url: 'http://127.0.0.1:9' }]\n"
        "endpoints:\n  - name: H\n    path: /x\n    headers: { X-Key: '{{file key.pem}}' }\n"
    )
    sent = run(explorer_bin, tmp_path, "send", "--collection", str(collection), "H")
    assert sent.returncode != 0
    assert "X-Key" in sent.stderr and "line break" in sent.stderr, sent.stderr
    assert "MIIsecretmaterial" not in sent.stderr, sent.stderr
