"""The cookie jar end to end: `explorer send` and `explorer run` keep what the demo API's
/cookies/set sets, per environment, in a private file of the state folder, and send it back;
`--no-cookies` and `cookies: false` turn it off."""
from __future__ import annotations

import json
import stat
from pathlib import Path

from conftest import LocalServer
from test_send import run


def collection(tmp_path: Path, demo) -> Path:
    path = tmp_path / "cookies.yaml"
    path.write_text(f"""
name: cookies
environments:
  - name: local
    base_url: {demo.url("local", "")}
  - name: other
    base_url: {demo.url("local", "")}
  - name: off
    base_url: {demo.url("local", "")}
    cookies: false
endpoints:
  - name: Set
    path: /cookies/set
    query: {{ session: s3ss10n-value }}
  - name: Show
    path: /cookies
  - name: Check
    path: /cookies
    assert:
      - jsonpath $.cookies.session == "s3ss10n-value"
""")
    return path


def send(explorer_bin, tmp_path, path, environment, endpoint, *args):
    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", environment, endpoint,
                 "--check-status", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def shown(explorer_bin, tmp_path, path, environment, *args):
    return send(explorer_bin, tmp_path, path, environment, "Show", *args)["cookies"]


def cookie_file(tmp_path: Path) -> Path:
    return tmp_path / "state" / "explorer" / "cookies.json"


def test_a_cookie_set_by_the_server_is_kept_privately_per_environment_and_sent_back(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    send(explorer_bin, tmp_path, path, "local", "Set")

    assert shown(explorer_bin, tmp_path, path, "local") == {"session": "s3ss10n-value"}
    assert shown(explorer_bin, tmp_path, path, "other") == {}
    assert shown(explorer_bin, tmp_path, path, "local", "--no-cookies") == {}
    file = cookie_file(tmp_path)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert stat.S_IMODE(file.parent.stat().st_mode) == 0o700
    kept = json.loads(file.read_text())
    (jars,) = kept.values()
    assert list(jars) == ["local"]
    (cookie,) = jars["local"]
    assert cookie["name"] == "session" and cookie["httpOnly"] is True and cookie["sameSite"] == "Lax"
    assert cookie["path"] == "/" and cookie["hostOnly"] is True and cookie["expires"] > 0


def test_cookies_false_and_no_cookies_keep_none(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    send(explorer_bin, tmp_path, path, "off", "Set")
    send(explorer_bin, tmp_path, path, "local", "Set", "--no-cookies")

    assert shown(explorer_bin, tmp_path, path, "off") == {}
    assert shown(explorer_bin, tmp_path, path, "local") == {}
    assert not cookie_file(tmp_path).exists() or json.loads(cookie_file(tmp_path).read_text()) == {}


def test_a_run_sends_the_cookie_a_previous_step_set(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    result = run(explorer_bin, tmp_path, "run", "--collection", str(path), "--env", "other", "--json")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert shown(explorer_bin, tmp_path, path, "other") == {"session": "s3ss10n-value"}


def test_an_unreadable_cookie_file_is_named_and_left_alone(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    file = cookie_file(tmp_path)
    file.parent.mkdir(parents=True)
    file.write_text("not json")

    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", "Show")

    assert result.returncode == 0
    assert str(file) in result.stderr and "delete the file" in result.stderr
    assert file.read_text() == "not json"


def test_a_jar_cookie_the_server_echoes_is_masked_in_the_history(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo)
    send(explorer_bin, tmp_path, path, "local", "Set")
    echoed = run(explorer_bin, tmp_path, "send", "--collection", str(path), "--env", "local", "Show", "--json")
    assert echoed.returncode == 0, echoed.stderr
    record = json.loads(echoed.stdout)
    assert "s3ss10n-value" in record["body"], "the server echoed the jar's cookie"
    history = run(explorer_bin, tmp_path, "history", "show", str(record["historyId"]), "--json")
    assert history.returncode == 0, history.stderr
    assert "s3ss10n-value" not in history.stdout.decode()


def test_the_demos_login_form_sets_its_session_on_the_303_and_send_follows_it_signed_in(explorer_bin, tmp_path, demo):
    # POST /session/login answers 303 + Set-Cookie; explorer send keeps the cookie before it
    # follows the redirect (as a GET, the form left behind), and /session/home reads it.
    login = run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection), "--env", "local",
                "Auth/Session login (form, 303 and a cookie)", "--json")
    assert login.returncode == 0, login.stderr
    answer = json.loads(login.stdout)
    assert answer["status"] == 200, answer
    assert json.loads(answer["body"])["signedIn"] is True
    (hop,) = answer["timings"]["redirects"]
    assert hop["status"] == 303 and hop["location"].endswith("/session/home")
    assert answer["url"].endswith("/session/login") and answer["method"] == "POST"

    # The session stays in the environment's jar for the next send, masked in the history.
    home = run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection), "--env", "local", "Auth/Session home",
               "--check-status")
    assert home.returncode == 0, home.stderr
    assert json.loads(home.stdout)["user"] == "ada"
    elsewhere = run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection), "--env", "staging", "Auth/Session home")
    assert json.loads(elsewhere.stdout)["status"] == 401
    shown = run(explorer_bin, tmp_path, "history", "show", str(answer["historyId"]), "--json")
    token = json.loads(cookie_file(tmp_path).read_text())
    (jars,) = token.values()
    (session,) = [cookie for cookie in jars["local"] if cookie["name"] == "demo_session"]
    assert session["value"] not in shown.stdout.decode()


def hosts_collection(tmp_path: Path, port: int, names: list[str]) -> Path:
    """A collection whose endpoints reach several host names, each resolved to 127.0.0.1 (as
    curl's --resolve), so that one local server plays several sites in one cookie jar."""
    resolve = "\n".join(f'      "{name}:{port}": 127.0.0.1' for name in names)
    endpoints = "\n".join(f"""  - name: {endpoint}
    path: http://{name}:{port}{route}""" for endpoint, name, route in [
        ("SetUK", "shop.example.co.uk", "/set-uk"), ("SetSite", "shop.example.co.uk", "/set-site"),
        ("SetPages", "me.github.io", "/set-pages"), ("SetMine", "me.github.io", "/set-mine"),
        ("OtherUK", "other.co.uk", "/show"), ("SiblingUK", "www.example.co.uk", "/show"),
        ("OtherPages", "you.github.io", "/show"), ("OwnPages", "me.github.io", "/show"),
        ("SetLoopbackName", "127.evil.test", "/set-secure"), ("ShowLoopbackName", "127.evil.test", "/show"),
        ("SetLoopback", "127.0.0.1", "/set-secure"), ("ShowLoopback", "127.0.0.1", "/show"),
    ])
    path = tmp_path / "sites.yaml"
    path.write_text(f"""
name: sites
environments:
  - name: local
    base_url: http://127.0.0.1:{port}
    resolve:
{resolve}
endpoints:
{endpoints}
""")
    return path


def cookie_server() -> LocalServer:
    """Sets the cookies each route names and answers the others 200; the cookies sent are in
    `requests`."""
    setting = {
        "/set-uk": "uk=1; Domain=co.uk; Path=/", "/set-site": "site=2; Domain=example.co.uk; Path=/",
        "/set-pages": "pages=3; Domain=github.io; Path=/", "/set-mine": "mine=4; Domain=me.github.io; Path=/",
        "/set-secure": "planted=p; Secure; Path=/",
    }

    def answer(method: str, path: str):
        headers = {"Content-Type": "application/json"}
        if path in setting:
            headers["Set-Cookie"] = setting[path]
        return 200, headers, b"{}"
    return LocalServer(answer)


def sent_cookies(explorer_bin, tmp_path, path, server, endpoint) -> str | None:
    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), endpoint, "--no-history")
    assert result.returncode == 0, result.stderr
    return server.requests[-1].get("cookie")


def test_a_cookie_for_a_public_suffix_is_refused_and_one_for_the_site_is_kept(explorer_bin, tmp_path):
    server = cookie_server()
    names = ["shop.example.co.uk", "me.github.io", "other.co.uk", "www.example.co.uk", "you.github.io"]
    try:
        path = hosts_collection(tmp_path, server.port, names)
        for endpoint in ["SetUK", "SetSite", "SetPages", "SetMine"]:
            sent_cookies(explorer_bin, tmp_path, path, server, endpoint)

        # Domain=co.uk and Domain=github.io would reach every site under them (Public Suffix List).
        assert sent_cookies(explorer_bin, tmp_path, path, server, "OtherUK") is None
        assert sent_cookies(explorer_bin, tmp_path, path, server, "OtherPages") is None
        assert sent_cookies(explorer_bin, tmp_path, path, server, "SiblingUK") == "site=2"
        assert sent_cookies(explorer_bin, tmp_path, path, server, "OwnPages") == "mine=4"
    finally:
        server.close()


def test_a_secure_cookie_over_http_is_kept_for_a_loopback_address_not_for_a_name_starting_with_127(explorer_bin, tmp_path):
    server = cookie_server()
    try:
        path = hosts_collection(tmp_path, server.port, ["127.evil.test"])
        sent_cookies(explorer_bin, tmp_path, path, server, "SetLoopbackName")
        assert sent_cookies(explorer_bin, tmp_path, path, server, "ShowLoopbackName") is None

        sent_cookies(explorer_bin, tmp_path, path, server, "SetLoopback")
        assert sent_cookies(explorer_bin, tmp_path, path, server, "ShowLoopback") == "planted=p"
    finally:
        server.close()
