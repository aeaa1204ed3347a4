"""Name resolution as curl's --resolve, end to end: `resolve:` on an environment and `send
--resolve HOST:PORT:ADDRESS` reach a server on 127.0.0.1 under other names (api.test,
other.test), never through DNS; the Host header and the cookies stay each name's."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import LocalServer
from test_send import run


def answer(port: int):
    def respond(method: str, path: str):
        if path == "/login":
            # The session is set for api.test on a redirect to the other name.
            return 302, {"Set-Cookie": "session=s1; Path=/", "Location": f"http://other.test:{port}/landing"}, b""
        return 200, {"Content-Type": "application/json"}, json.dumps({"path": path}).encode()
    return respond


def collection(tmp_path: Path, port: int, resolve: str) -> Path:
    path = tmp_path / "resolve.yaml"
    path.write_text(f"""
name: resolve
environments:
  - name: named
    base_url: http://api.test:{port}
{resolve}
endpoints:
  - name: Login
    method: POST
    path: /login
  - name: Again
    path: /again
""")
    return path


def test_resolve_on_the_environment_keeps_the_host_header_and_each_names_cookies(explorer_bin, tmp_path):
    ports: list[int] = []
    server = LocalServer(lambda method, path: answer(ports[0])(method, path))
    ports.append(server.port)
    try:
        path = collection(tmp_path, server.port, f"""    resolve:
      "api.test:{server.port}": 127.0.0.1
      "other.test:{server.port}": 127.0.0.1""")
        login = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Login", "--json", "--no-history")
        assert login.returncode == 0, login.stderr
        sent = json.loads(login.stdout)
        assert json.loads(sent["body"]) == {"path": "/landing"}
        assert [hop["location"] for hop in sent["timings"]["redirects"]] == [f"http://other.test:{server.port}/landing"]

        again = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Again", "--no-history")
        assert again.returncode == 0, again.stderr

        hosts = [request["host"] for request in server.requests]
        assert hosts == [f"api.test:{server.port}", f"other.test:{server.port}", f"api.test:{server.port}"]
        assert "cookie" not in server.requests[1], "api.test's session reached other.test"
        assert server.requests[2].get("cookie") == "session=s1"
    finally:
        server.close()


def test_the_resolve_flag_reaches_a_name_the_environment_does_not_resolve(explorer_bin, tmp_path):
    server = LocalServer(lambda method, path: (200, {"Content-Type": "application/json"}, b'{"ok": true}'))
    try:
        path = collection(tmp_path, server.port, "")
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Again", "--no-history",
                     "--resolve", f"api.test:{server.port}:127.0.0.1")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == {"ok": True}
        assert server.requests[0]["host"] == f"api.test:{server.port}"

        bad = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Again", "--resolve", "api.test:127.0.0.1")
        assert bad.returncode == 2
        assert "--resolve expects HOST:PORT:ADDRESS" in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr
    finally:
        server.close()
