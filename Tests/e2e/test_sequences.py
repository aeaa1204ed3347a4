"""Captures, assertions, requires and `explorer run` end to end: the real binary, one process
after another, against the real demo API (its login token expires after 60 s)."""
from __future__ import annotations

import json
import os
import stat
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from test_send import run, send


def captures_file(tmp_path: Path) -> Path:
    return tmp_path / "state" / "explorer" / "captures.json"


def test_send_me_works_after_send_login_in_another_process(explorer_bin, tmp_path, demo):
    login = send(explorer_bin, tmp_path, demo, "Auth/Login", "--env", "local")
    assert login.returncode == 0, login.stderr
    token = json.loads(login.stdout)["token"]
    assert token.startswith("tok-")

    stored = json.loads(captures_file(tmp_path).read_text())
    variables = stored[str(demo.collection)]["local"]
    assert variables["session_token"]["value"] == token
    assert variables["session_token"]["endpoint"] == "Auth/Login"
    assert variables["session_token"]["isSecret"] is True
    assert stat.S_IMODE(captures_file(tmp_path).stat().st_mode) == 0o600
    assert stat.S_IMODE(captures_file(tmp_path).parent.stat().st_mode) == 0o700

    me = send(explorer_bin, tmp_path, demo, "Auth/Me after login", "--env", "local")
    assert me.returncode == 0, me.stderr
    assert json.loads(me.stdout)["username"] == "ada"
    assert "Sent Auth/Login first" not in me.stderr, "the token was fresh: no login again"

    # The captured token never reaches the history in clear, neither the request nor the login's answer.
    history = run(explorer_bin, tmp_path, "history", "--limit", "5", "--json")
    assert history.returncode == 0, history.stderr
    assert token not in history.stdout.decode()
    shown = run(explorer_bin, tmp_path, "history", "show", "1", "--json")
    assert token not in shown.stdout.decode()


def test_requires_sends_the_login_first_when_its_token_is_missing(explorer_bin, tmp_path, demo):
    me = send(explorer_bin, tmp_path, demo, "Auth/Me after login", "--env", "staging")
    assert me.returncode == 0, me.stderr
    assert "Sent Auth/Login first (session_token, request_id were not captured yet): 200 OK, 5/5 checks" in me.stderr
    assert json.loads(me.stdout)["username"] == "ada"


def test_a_failed_assertion_exits_3_with_what_was_found(explorer_bin, tmp_path, demo):
    collection = tmp_path / "checks.yaml"
    collection.write_text(f"""
name: Checks
environments:
  - name: local
    base_url: {demo.urls['local']}
endpoints:
  - name: Missing
    path: /users/9999
    assert:
      - status == 200
      - header Content-Type contains problem
""")
    result = run(explorer_bin, tmp_path, "send", "Missing", "--collection", str(collection))
    assert result.returncode == 3, result.stderr
    assert "✗ status == 200: expected == 200, got 404" in result.stderr
    assert "header Content-Type" not in result.stderr, "only failures are listed"
    as_json = run(explorer_bin, tmp_path, "send", "Missing", "--collection", str(collection), "--json")
    assert as_json.returncode == 3
    checks = json.loads(as_json.stdout)["checks"]
    assert [c["passed"] for c in checks] == [False, True]
    assert checks[0]["actual"] == "404"


def test_a_malformed_assertion_is_a_collection_error_at_its_line(explorer_bin, tmp_path, demo):
    collection = tmp_path / "bad.yaml"
    collection.write_text(f"""name: Bad
environments: [{{ name: local, base_url: "{demo.urls['local']}" }}]
endpoints:
  - name: One
    path: /users
    assert:
      - statuz == 200
""")
    result = run(explorer_bin, tmp_path, "send", "One", "--collection", str(collection))
    assert result.returncode == 2
    assert result.stderr.startswith(f"{collection}:7:9: in the assert of endpoint \"One\", \"statuz\" is not a query")
    assert 'Did you mean "status"?' in result.stderr


def test_run_reports_a_table_junit_and_json_with_the_exit_code(explorer_bin, tmp_path, demo):
    junit = tmp_path / "report.xml"
    result = run(explorer_bin, tmp_path, "run", "Auth", "--collection", str(demo.collection), "--env", "local",
                 "--junit", str(junit))
    # "Me without token (401)" has no assertions: it passes; every Auth endpoint answers.
    assert result.returncode == 0, result.stderr + result.stdout.decode()
    table = result.stdout.decode()
    assert "Auth/Login" in table and "5/5" in table
    assert "6 requests in" in table and "6 passed, 0 failed, 0 errors" in table

    root = ElementTree.parse(junit).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "6" and root.get("failures") == "0"
    cases = root.findall("./testsuite/testcase")
    assert [case.get("name") for case in cases] == ["Me without token (401)", "Me with token", "Login", "Session login (form, 303 and a cookie)",
                                                  "Session home", "Me after login"]
    assert {case.get("classname") for case in cases} == {"Explorer demo API/Auth"}

    as_json = run(explorer_bin, tmp_path, "run", "Auth/Login", "Auth/Me after login", "--collection", str(demo.collection),
                  "--env", "local", "--json", "--repeat", "2")
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert [(r["endpoint"], r["iteration"]) for r in report["results"]] == [
        ("Auth/Login", 1), ("Auth/Me after login", 1), ("Auth/Login", 2), ("Auth/Me after login", 2)]
    assert report["exitCode"] == 0 and report["passed"] == 4


def test_run_exits_3_on_a_failure_and_fail_fast_stops_there(explorer_bin, tmp_path, demo):
    collection = tmp_path / "run.yaml"
    collection.write_text(f"""
name: Run
environments:
  - name: local
    base_url: {demo.urls['local']}
endpoints:
  - name: Good
    path: /users/1
    assert: [status == 200]
  - name: Bad
    path: /users/9999
    assert: [status == 200]
  - name: After
    path: /users/2
    assert: [jsonpath $.id == 2]
""")
    junit = tmp_path / "fail.xml"
    result = run(explorer_bin, tmp_path, "run", "--collection", str(collection), "--junit", str(junit))
    assert result.returncode == 3, result.stderr
    assert "3 requests in" in result.stdout.decode()
    failure = ElementTree.parse(junit).getroot().find("./testsuite/testcase[@name='Bad']/failure")
    assert failure is not None and failure.get("message") == "✗ status == 200: expected == 200, got 404"

    fast = run(explorer_bin, tmp_path, "run", "--collection", str(collection), "--fail-fast", "--json")
    assert fast.returncode == 3
    assert [r["endpoint"] for r in json.loads(fast.stdout)["results"]] == ["Good", "Bad"]


def test_run_exits_1_when_the_server_is_gone_and_2_for_an_unknown_folder(explorer_bin, tmp_path, demo):
    unknown = run(explorer_bin, tmp_path, "run", "Auht", "--collection", str(demo.collection))
    assert unknown.returncode == 2
    assert 'did you mean "Auth"' in unknown.stderr

    collection = tmp_path / "gone.yaml"
    collection.write_text("""
name: Gone
environments: [{ name: local, base_url: "http://127.0.0.1:9" }]
endpoints:
  - name: Nothing there
    path: /
""")
    gone = run(explorer_bin, tmp_path, "run", "--collection", str(collection))
    assert gone.returncode == 1, gone.stdout
    assert "0 passed, 0 failed, 1 error" in gone.stdout.decode()


def test_xpath_asserts_and_captures_on_the_demos_xml_and_html(explorer_bin, tmp_path, demo):
    collection = tmp_path / "xpath.yaml"
    collection.write_text(f"""
name: XPath
environments:
  - name: local
    base_url: {demo.urls['local']}
endpoints:
  - name: Catalog
    path: /xml
    capture:
      first_book: {{ xpath: "//book[1]/@id" }}
    assert:
      - xpath count(//book) == 2
      - xpath //book[@id='bk102']/title == "Midnight Rain"
      - xpath /catalog/@environment == local
  - name: Error page
    path: /error
    assert:
      - status == 500
      - xpath /html/head/title contains "Internal Server Error"
      - xpath //h1 == "Not this"
""")
    result = run(explorer_bin, tmp_path, "run", "--collection", str(collection), "--json")
    assert result.returncode == 3, result.stderr
    report = json.loads(result.stdout)
    catalog, page = report["results"]
    assert catalog["outcome"] == "passed" and catalog["captured"] == ["first_book"]
    assert [c["passed"] for c in page["checks"]] == [True, True, False]
    assert page["checks"][2]["actual"] == '"Internal Server Error"'
    # The reader prints nothing of its own: stderr holds no parser noise.
    assert "parser" not in result.stderr.lower() and "error :" not in result.stderr.lower()
    stored = json.loads(captures_file(tmp_path).read_text())[str(collection)]["local"]
    assert stored["first_book"]["value"] == "bk101"


def test_export_hurl_writes_the_checks_and_no_secret(explorer_bin, tmp_path, demo):
    result = run(explorer_bin, tmp_path, "export", "hurl", "Auth/Me after login", "--collection", str(demo.collection), "--env", "local")
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    # The login it requires comes first, with its captures and assertions in Hurl's words.
    assert text.index("# Auth/Login\nPOST " + demo.urls["local"].rstrip("/") + "/login") < text.index("# Auth/Me after login\nGET ")
    assert 'session_token: jsonpath "$.token" redact' in text
    assert 'jsonpath "$.roles[*]" includes "admin"' in text
    assert "Authorization: Bearer {{session_token}}" in text
    assert "--secret password=…" in text and "lovelace" not in text


def test_run_with_jobs_keeps_file_order_and_captures_flow(explorer_bin, tmp_path, demo):
    endpoints = "".join(f"""
  - name: User {n}
    path: /users/{n % 3 + 1}
    assert: [status == 200]""" for n in range(1, 9))
    collection = tmp_path / "jobs.yaml"
    collection.write_text(f"""
name: Jobs
environments:
  - name: local
    base_url: {demo.urls['local']}
    variables: {{ user: ada, password: lovelace }}
endpoints:{endpoints}
  - name: Login
    method: POST
    path: /login
    json: {{ user: "{{{{user}}}}", password: "{{{{password}}}}" }}
    capture: {{ session_token: $.token }}
  - name: Me
    path: /me
    headers: {{ Authorization: "Bearer {{{{session_token}}}}" }}
    assert: [status == 200, jsonpath $.username == ada]
""")
    result = run(explorer_bin, tmp_path, "run", "--collection", str(collection), "--jobs", "4", "--json")
    assert result.returncode == 0, result.stderr + result.stdout.decode()
    report = json.loads(result.stdout)
    assert [r["endpoint"] for r in report["results"]] == [f"User {n}" for n in range(1, 9)] + ["Login", "Me"]
    assert report["passed"] == 10

    bad = run(explorer_bin, tmp_path, "run", "--collection", str(collection), "--jobs", "0")
    assert bad.returncode == 2 and "--jobs must be a whole number from 1 to 64" in bad.stderr


def test_history_keeps_the_assertion_results_without_the_token(explorer_bin, tmp_path, demo):
    login = send(explorer_bin, tmp_path, demo, "Auth/Login", "--env", "local")
    assert login.returncode == 0, login.stderr
    token = json.loads(login.stdout)["token"]
    shown = run(explorer_bin, tmp_path, "history", "show", "1", "--json")
    assert shown.returncode == 0, shown.stderr
    stored = json.loads(shown.stdout)
    assert [c["assert"] for c in stored["checks"]][0] == "status == 200"
    assert all(c["passed"] for c in stored["checks"]) and len(stored["checks"]) == 5
    assert stored["captured"] == ["session_token", "request_id"]
    assert token not in shown.stdout.decode()


def echo_collection(path, demo, name, lines):
    """A collection whose one endpoint, Echo, is the demo's echo with these extra lines."""
    path.write_text(f"""
name: {name}
environments:
  - name: local
    base_url: {demo.urls['local']}
endpoints:
  - name: Echo
    path: /echo
""" + "".join(f"    {line}\n" for line in lines))
    return path


def prompt_collection(tmp_path, demo):
    return echo_collection(tmp_path / "prompt.yaml", demo, "Prompt", [
        """query: { code: '{{prompt "One-time code"}}' }""",
        """headers: { X-Password: '{{prompt "Password"}}' }""",
    ])


def test_prompt_asks_in_a_terminal_without_echoing_a_password(explorer_bin, tmp_path, demo, screen):
    collection = prompt_collection(tmp_path, demo)
    s = screen([str(explorer_bin), "send", "Echo", "--collection", str(collection)], width=120, height=40)
    s.wait_for("One-time code:")
    s.type("123456")
    s.keys("Enter")
    s.wait_for("Password:")
    s.type("hunter2")
    s.keys("Enter")
    text = s.wait_for("[exited 0]")
    assert '"code": "123456"' in text
    assert "Password: hunter2" not in text, "the password was echoed"
    shown = run(explorer_bin, tmp_path, "history", "show", "1", "--json")
    assert "hunter2" not in shown.stdout.decode(), "the password reached the history"


def test_prompt_without_a_terminal_exits_2_and_var_answers_it(explorer_bin, tmp_path, demo):
    collection = prompt_collection(tmp_path, demo)
    result = run(explorer_bin, tmp_path, "send", "Echo", "--collection", str(collection))
    assert result.returncode == 2
    assert 'prompt "One-time code" needs a terminal to ask on' in result.stderr and '--var "One-time code=…"' in result.stderr
    given = run(explorer_bin, tmp_path, "send", "Echo", "--collection", str(collection), "--var", "One-time code=42", "--var", "Password=p")
    assert given.returncode == 0, given.stderr
    assert json.loads(given.stdout)["args"]["code"] in ("42", ["42"])


def test_prompt_in_the_tui_asks_in_the_footer_with_a_secret_as_dots(explorer_bin, tmp_path, demo, screen):
    collection = prompt_collection(tmp_path, demo)
    s = screen([str(explorer_bin), str(collection)], width=120, height=40)
    s.wait_for('ƒ prompt "One-time code" asked when sent')
    s.keys("Enter")
    s.wait_for(" One-time code: ")
    s.type("123456")
    s.keys("Enter")
    s.wait_for(" Password: ")
    s.type("hunter2")
    text = s.wait_for("•••••••")
    assert "hunter2" not in text, "the password was drawn"
    s.keys("Enter")
    s.wait_for("200 OK")
    # The echo carries the answer, which the pane masks as the secret it is (the mask stands
    # only where the value was: it was sent).
    text = s.wait_for('"code": "••••••"')
    assert "123456" not in text
    # The answers are kept for the session: a second send asks nothing.
    s.keys("Enter")
    s.wait_for("200 OK")
    assert " One-time code: " not in s.text()


def command_collection(tmp_path, demo):
    folder = tmp_path / "cloned"
    folder.mkdir()
    return echo_collection(folder / "explorer.yaml", demo, "Command", [
        """headers: { X-Vault: '{{command "printf s3cr3t-from-vault"}}' }""",
    ])


def test_command_runs_only_from_a_collection_opened_by_name_or_trusted(explorer_bin, tmp_path, demo):
    collection = command_collection(tmp_path, demo)
    folder = collection.parent
    found = run(explorer_bin, tmp_path, "send", "Echo", cwd=folder)
    assert found.returncode == 2, found.stderr
    assert "was found, not named" in found.stderr and f"explorer trust {collection}" in found.stderr
    trusted = run(explorer_bin, tmp_path, "trust", cwd=folder)
    assert trusted.returncode == 0, trusted.stderr
    sent = run(explorer_bin, tmp_path, "send", "Echo", cwd=folder)
    assert sent.returncode == 0, sent.stderr
    assert b"s3cr3t-from-vault" in sent.stdout, "the server got the command's output"
    shown = run(explorer_bin, tmp_path, "history", "show", "1", "--json")
    assert b"s3cr3t-from-vault" not in shown.stdout, "a command's output is a secret: never in the history"
    assert run(explorer_bin, tmp_path, "trust", "--revoke", cwd=folder).returncode == 0
    assert run(explorer_bin, tmp_path, "send", "Echo", cwd=folder).returncode == 2
    named = run(explorer_bin, tmp_path, "send", "Echo", "--collection", str(collection))
    assert named.returncode == 0, named.stderr
    listed = run(explorer_bin, tmp_path, "trust", "--list")
    assert str(collection) in listed.stdout.decode()
    state = tmp_path / "state" / "explorer" / "trusted-collections.json"
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
