"""What a collection found in a folder (a repository just cloned) may reach, checked where it
matters: every version the TUI reads while it runs, every file as a request is sent, every
argument of every template function, the `.env` and `tls:` files, an OpenAPI document's
`$ref`s. Each test shows the reach on 127.0.0.1 with the real binary, and that it is refused.
"""
from __future__ import annotations

import os

from conftest import LocalServer, poll
from test_send import run


def recording_server():
    return LocalServer(lambda method, path: (200, {"Content-Type": "text/plain"}, b"ok"))


def test_the_tui_asks_again_when_the_collection_changes_while_it_runs(explorer_bin, tmp_path, screen):
    server = recording_server()
    try:
        collection = tmp_path / "explorer.yaml"
        original = (
            "name: Cloned\n"
            f"environments:\n  - name: local\n    base_url: {server.url}\n"
            "endpoints:\n  - name: Upload\n    method: POST\n    path: /upload\n"
        )
        collection.write_text(original)
        s = screen([str(explorer_bin)], env={"SECRET_TOKEN": "tok-e2e-secret"})
        s.wait_for("Upload")

        # A pull adds an environment variable: the reload is refused and the last trusted
        # version is the one sent.
        collection.write_text(original + "    headers: { X-Key: '{{url_encode env.SECRET_TOKEN}}' }\n")
        s.wait_for("changed to reach beyond its folder")
        s.keys("Enter")
        poll(lambda: len(server.requests) == 1, message="the trusted version sent")
        assert "x-key" not in server.requests[0], server.requests[0]

        # Back to what was trusted: used again.
        collection.write_text(original + "    body: { file: data.txt }\n")
        (tmp_path / "data.txt").write_text("inside the folder\n")
        s.wait_for("Reloaded explorer.yaml")

        # The file the body names becomes a link out of the folder after the start.
        outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
        outside.write_text("outside-secret\n")
        try:
            (tmp_path / "data.txt").unlink()
            (tmp_path / "data.txt").symlink_to(outside)
            s.keys("Enter")
            s.wait_for("was not trusted to read it")
            assert len(server.requests) == 1, "nothing more was sent"
        finally:
            outside.unlink()
    finally:
        server.close()


def test_a_body_file_swapped_for_a_link_out_of_the_folder_is_not_sent(explorer_bin, tmp_path):
    server = recording_server()
    try:
        cloned = tmp_path / "cloned"
        cloned.mkdir()
        (cloned / "explorer.yaml").write_text(
            "name: Cloned\n"
            f"environments:\n  - name: local\n    base_url: {server.url}\n"
            "endpoints:\n"
            "  - name: Body\n    method: POST\n    path: /b\n    body: { file: data.txt }\n"
            "  - name: Header\n    path: /h\n    headers: { X-Data: '{{file data.txt}}' }\n"
        )
        (tmp_path / "secret.txt").write_text("outside-secret\n")
        (cloned / "data.txt").symlink_to(tmp_path / "secret.txt")
        for endpoint in ("Body", "Header"):
            sent = run(explorer_bin, tmp_path, "send", endpoint, cwd=cloned)
            assert sent.returncode != 0, sent.stdout
            assert "explorer trust" in sent.stderr, sent.stderr
        assert server.requests == []
    finally:
        server.close()


def test_function_arguments_dot_env_links_and_tls_files_count_as_reach(explorer_bin, tmp_path):
    server = recording_server()
    try:
        cloned = tmp_path / "cloned"
        cloned.mkdir()
        collection = cloned / "explorer.yaml"
        collection.write_text(
            "name: Cloned\n"
            f"environments:\n  - name: local\n    base_url: {server.url}\n"
            "endpoints:\n  - name: Leak\n    path: \"/l/{{url_encode env.SECRET_TOKEN}}\"\n"
            "    headers: { X-B: '{{base64 env.OTHER_SECRET}}' }\n"
        )
        secrets = {"SECRET_TOKEN": "tok-e2e", "OTHER_SECRET": "other-e2e"}
        sent = run(explorer_bin, tmp_path, "send", "Leak", cwd=cloned, env=secrets)
        assert sent.returncode == 2, sent.stderr
        assert "reads the environment variable SECRET_TOKEN" in sent.stderr, sent.stderr
        assert "reads the environment variable OTHER_SECRET" in sent.stderr, sent.stderr

        # A `.env` linked out of the folder, and a client key outside it.
        collection.write_text(
            "name: Cloned\n"
            f"environments:\n  - name: local\n    base_url: {server.url}\n"
            f"    tls: {{ client_cert: {tmp_path}/me.pem, client_key: {tmp_path}/me.key }}\n"
            "endpoints:\n  - name: Ping\n    path: /p\n"
        )
        (tmp_path / "home.env").write_text("A=1\n")
        (cloned / ".env").symlink_to(tmp_path / "home.env")
        sent = run(explorer_bin, tmp_path, "send", "Ping", cwd=cloned)
        assert sent.returncode == 2, sent.stderr
        for path in ("home.env", "me.pem", "me.key"):
            assert f"reads the file {tmp_path}/{path}" in sent.stderr, sent.stderr
        assert server.requests == []
    finally:
        server.close()


def test_an_openapi_ref_through_a_link_out_of_the_folder_is_refused(explorer_bin, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (tmp_path / "credentials.yaml").write_text("Token: {type: string, example: sk-live-outside}\n")
    (repo / "schemas.yaml").symlink_to(tmp_path / "credentials.yaml")
    (repo / "api.yaml").write_text(
        "openapi: 3.0.0\ninfo: {title: T, version: '1'}\nservers: [{url: 'http://127.0.0.1:1'}]\n"
        "paths:\n  /a:\n    post:\n      requestBody: {content: {application/json: {schema: {$ref: 'schemas.yaml#/Token'}}}}\n"
        "      responses: {'200': {description: ok}}\n")
    imported = run(explorer_bin, tmp_path, "import", "openapi", str(repo / "api.yaml"), "--into", str(tmp_path / "out.yaml"))
    assert imported.returncode != 0, imported.stderr
    assert "leads outside the document's folder" in imported.stderr, imported.stderr
    assert not (tmp_path / "out.yaml").exists() or "sk-live-outside" not in (tmp_path / "out.yaml").read_text()
    assert "sk-live-outside" not in imported.stdout.decode() + imported.stderr


def test_a_trusted_collection_pointed_at_another_server_asks_again(explorer_bin, tmp_path):
    trusted_server, other_server = recording_server(), recording_server()
    try:
        cloned = tmp_path / "cloned"
        cloned.mkdir()
        collection = cloned / "explorer.yaml"
        text = (
            "name: Cloned\n"
            f"environments:\n  - name: local\n    base_url: {trusted_server.url}\n"
            "endpoints:\n  - name: Me\n    path: /me\n    headers: { X-Key: '{{env.API_KEY}}' }\n"
        )
        collection.write_text(text)
        secret = {"API_KEY": "key-e2e"}
        trusted = run(explorer_bin, tmp_path, "trust", cwd=cloned)
        assert trusted.returncode == 0, trusted.stderr
        assert f"and sends to {trusted_server.url}" in trusted.stdout.decode(), "trust says where it holds"
        sent = run(explorer_bin, tmp_path, "send", "Me", cwd=cloned, env=secret)
        assert sent.returncode == 0, sent.stderr
        assert trusted_server.requests[-1].get("x-key") == "key-e2e"

        # A pull points it at another server: the secret does not follow without asking.
        collection.write_text(text.replace(trusted_server.url, other_server.url))
        moved = run(explorer_bin, tmp_path, "send", "Me", cwd=cloned, env=secret)
        assert moved.returncode == 2, moved.stderr
        assert f"It sends to local {other_server.url}" in moved.stderr, moved.stderr
        assert other_server.requests == []
    finally:
        trusted_server.close()
        other_server.close()


def test_a_captured_token_stays_with_the_server_it_came_from(explorer_bin, tmp_path):
    import json as json_module

    def answer(method, path):
        if path == "/login":
            return 200, {"Content-Type": "application/json"}, json_module.dumps({"token": "tok-captured-e2e"}).encode()
        return 200, {"Content-Type": "text/plain"}, b"ok"

    issuer, elsewhere = LocalServer(answer), recording_server()
    try:
        collection = tmp_path / "api.yaml"
        text = (
            "name: Captures\n"
            f"environments:\n  - name: local\n    base_url: {issuer.url}\n"
            "endpoints:\n"
            "  - name: Login\n    method: POST\n    path: /login\n    capture: { session: $.token }\n"
            "  - name: Me\n    path: /me\n    headers: { Authorization: 'Bearer {{session}}' }\n"
        )
        collection.write_text(text)
        assert run(explorer_bin, tmp_path, "send", "Login", "--collection", str(collection)).returncode == 0
        sent = run(explorer_bin, tmp_path, "send", "Me", "--collection", str(collection))
        assert sent.returncode == 0, sent.stderr
        assert issuer.requests[-1].get("authorization") == "Bearer tok-captured-e2e"

        # The environment now sends elsewhere: the captured token does not go there.
        collection.write_text(text.replace(issuer.url, elsewhere.url))
        moved = run(explorer_bin, tmp_path, "send", "Me", "--collection", str(collection))
        assert moved.returncode == 2, moved.stderr
        assert f"{{{{session}}}} was captured by Login when this environment sent to {issuer.url}" in moved.stderr, moved.stderr
        assert "tok-captured-e2e" not in moved.stderr
        assert elsewhere.requests == []
    finally:
        issuer.close()
        elsewhere.close()
