"""GraphQL endpoints end to end: `explorer send` and the TUI against the demo's GraphQL server."""
from __future__ import annotations

import json

from test_send import send as send_cli
from test_tui import send as send_tui, tui  # noqa: F401  (the fixture)


def test_a_query_prints_its_data_and_exits_0(explorer_bin, tmp_path, demo):
    result = send_cli(explorer_bin, tmp_path, demo, "GraphQL/Users and posts", "--check-status")
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert len(body["data"]["posts"]) == 3
    assert result.stderr == ""


def test_errors_with_200_are_listed_and_check_status_exits_4(explorer_bin, tmp_path, demo):
    result = send_cli(explorer_bin, tmp_path, demo, "GraphQL/Failing field (200 with errors)", "--check-status")
    assert result.returncode == 4, result.stderr
    assert json.loads(result.stdout)["data"]["user"]["name"] == "Ada Lovelace"
    lines = result.stderr.splitlines()
    assert lines[0] == "GraphQL: 1 error"
    assert lines[1] == "• user.secretNote (2:22): secretNote is private: the demo never shows it"
    assert "has errors (status 200)" in lines[2]


def test_errors_without_check_status_are_listed_and_exit_0(explorer_bin, tmp_path, demo):
    result = send_cli(explorer_bin, tmp_path, demo, "GraphQL/Failing field (200 with errors)")
    assert result.returncode == 0
    assert "• user.secretNote (2:22)" in result.stderr


def test_the_tui_shows_the_errors_of_a_200_as_an_error_summary(tui):  # noqa: F811
    s = tui()
    send_tui(s, "Failing field")
    text = s.wait_for("GraphQL: 1 error")
    assert "200 OK" in text
    s.wait_for("user.secretNote (2:22): secretNote is private")


def test_import_graphql_from_the_demo_url_writes_one_endpoint_per_root_field(explorer_bin, tmp_path, demo):
    from test_send import run
    url = demo.url("local", "/graphql")
    result = run(explorer_bin, tmp_path, "import", "graphql", url)
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    for expected in ["folder: Query", "folder: Mutation", "name: users", "name: createPost", "query Users($role: String) {"]:
        assert expected in text
    into = tmp_path / "imported.yaml"
    merged = run(explorer_bin, tmp_path, "import", "graphql", url, "--into", str(into))
    assert merged.returncode == 0, merged.stderr
    sent = run(explorer_bin, tmp_path, "send", "--collection", str(into), "Query/posts", "--check-status")
    assert sent.returncode == 0, sent.stderr
    assert b"Notes on the Analytical Engine" in sent.stdout
