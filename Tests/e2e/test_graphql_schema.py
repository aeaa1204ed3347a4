"""GraphQL schemas end to end: `explorer graphql schema`, validation before `send`, the TUI's browser."""
from __future__ import annotations

import json
import stat

from test_send import run, send as send_cli
from test_tui import select_endpoint, tui  # noqa: F401  (the fixture)


BAD_ENDPOINT = """
  - name: Bad query
    method: POST
    path: /graphql
    graphql:
      query: |
        query {
          user(id: 1) {
            nickname
          }
        }
"""


def collection_with_bad_query(demo, tmp_path):
    """The demo collection with one more endpoint whose query names a field User lacks."""
    path = tmp_path / "bad.yaml"
    text = demo.collection.read_text()
    path.write_text(text.rstrip("\n") + "\n" + BAD_ENDPOINT.lstrip("\n"))
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if text.strip() == "nickname")
    column = lines[line - 1].index("nickname") + 1
    return path, line, column


def test_schema_prints_the_sdl_caches_it_private_and_reuses_it(explorer_bin, tmp_path, demo):
    first = run(explorer_bin, tmp_path, "graphql", "schema", "--collection", str(demo.collection))
    assert first.returncode == 0, first.stderr
    sdl = first.stdout.decode()
    assert "type Query {" in sdl and "createPost(" in sdl
    assert "fetched now" in first.stderr
    cache = tmp_path / "state" / "explorer" / "graphql-schemas.json"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    kept = json.loads(cache.read_text())
    assert list(kept.values())[0]["local"]

    second = run(explorer_bin, tmp_path, "graphql", "schema", "--collection", str(demo.collection))
    assert second.returncode == 0, second.stderr
    assert "cached since" in second.stderr
    assert second.stdout == first.stdout

    refreshed = run(explorer_bin, tmp_path, "graphql", "schema", "--collection", str(demo.collection), "--refresh")
    assert refreshed.returncode == 0, refreshed.stderr
    assert "fetched now" in refreshed.stderr


def test_an_invalid_query_is_not_sent_and_points_at_the_file_line_and_column(explorer_bin, tmp_path, demo):
    path, line, column = collection_with_bad_query(demo, tmp_path)
    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Bad query")
    assert result.returncode == 2, result.stderr
    assert result.stdout == b""
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{path}:{line}:{column}: "), result.stderr
    assert "nickname" in lines[0]
    assert "Not sent" in lines[-1] and "--no-validate" in lines[-1]


def test_no_validate_sends_it_anyway_and_the_server_answers_its_errors(explorer_bin, tmp_path, demo):
    path, _, _ = collection_with_bad_query(demo, tmp_path)
    result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Bad query", "--no-validate")
    assert result.returncode == 0, result.stderr
    assert "nickname" in json.loads(result.stdout)["errors"][0]["message"]


def test_a_valid_query_is_sent_without_a_word_on_stderr(explorer_bin, tmp_path, demo):
    result = send_cli(explorer_bin, tmp_path, demo, "GraphQL/Users and posts", "--check-status")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_the_tui_browses_the_schema(tui):  # noqa: F811
    s = tui()
    s.keys("Q")
    s.wait_for("GraphQL schema · local")
    s.wait_for("type Query")
    s.keys("/")
    s.type("handle")
    s.keys("Enter", "Enter")
    s.wait_for("username: String!")
    s.keys("j", "j", "j")
    s.wait_for("Deprecated: Use username.")
    s.keys("Escape", "Escape", "Escape")
    s.wait_until_gone("GraphQL schema · local")


def test_the_tui_does_not_send_an_invalid_query_and_says_where_it_is(explorer_bin, tmp_path, demo, screen):
    path, line, column = collection_with_bad_query(demo, tmp_path)
    s = screen([str(explorer_bin), str(path)], width=160, height=36)
    s.wait_for("Endpoints")
    select_endpoint(s, "Bad query")
    s.keys("Enter")
    s.wait_for("Not sent: the GraphQL query does not validate")
    s.wait_for(f"bad.yaml:{line}:{column}")


def test_the_tui_with_no_validate_sends_it_and_shows_the_servers_errors(explorer_bin, tmp_path, demo, screen):
    path, _, _ = collection_with_bad_query(demo, tmp_path)
    s = screen([str(explorer_bin), str(path), "--no-validate"], width=160, height=36)
    s.wait_for("Endpoints")
    select_endpoint(s, "Bad query")
    s.keys("Enter")
    s.wait_for("GraphQL: 1 error")
    assert "Not sent" not in s.text()


def test_a_protected_environment_is_confirmed_before_its_schema_is_fetched(explorer_bin, tmp_path, demo):
    refused = run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection), "GraphQL/Users and posts", "--env", "production")
    assert refused.returncode == 2, refused.stderr
    assert "is protected: add --yes" in refused.stderr
    assert not (tmp_path / "state" / "explorer" / "graphql-schemas.json").exists(), "the schema was fetched before the confirmation"
    confirmed = run(explorer_bin, tmp_path, "send", "--collection", str(demo.collection), "GraphQL/Users and posts", "--env", "production", "--yes")
    assert confirmed.returncode == 0, confirmed.stderr
    assert (tmp_path / "state" / "explorer" / "graphql-schemas.json").exists(), "validated once confirmed"

