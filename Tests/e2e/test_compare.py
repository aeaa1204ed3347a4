"""`explorer compare` end to end: the real binary against two real demo servers, whose
environments differ in known places (the demo's data differs by environment)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import start_demo, stop_demo
from test_send import one_sentence, run


@pytest.fixture
def two_demos(explorer_bin, tmp_path):
    first = start_demo(explorer_bin, tmp_path / "first")
    second = start_demo(explorer_bin, tmp_path / "second")
    yield first, second
    stop_demo(first)
    stop_demo(second)


def collection(tmp_path: Path, first, second, ignore: list[str] | None = None) -> Path:
    """Environments `a` and `b`: the `local` of each demo (the same data); `staging`: the
    first demo's staging, protected (other people, other posts)."""
    rules = ignore if ignore is not None else ["header Date", "header X-Request-Id"]
    compare = "compare:\n  ignore:\n" + "".join(f"    - {json.dumps(rule)}\n" for rule in rules) if rules else ""
    path = tmp_path / "compare.yaml"
    path.write_text(f"""name: Compare
{compare}environments:
  - name: a
    base_url: {first.urls['local']}
  - name: b
    base_url: {second.urls['local']}
  - name: staging
    base_url: {first.urls['staging']}
    protected: true
endpoints:
  - folder: Users
    endpoints:
      - name: Get user
        path: /users/1
      - name: List users
        path: /users
      - name: Create user
        method: POST
        path: /users
        json: {{ name: Eve, username: eve, email: eve@example.com }}
  - folder: Posts
    endpoints:
      - name: List posts
        path: /posts
""")
    return path


def compare(explorer_bin, tmp_path, path, *args, **kwargs):
    return run(explorer_bin, tmp_path, "compare", "--collection", str(path), *args, **kwargs)


def test_the_same_data_in_two_servers_matches_and_exits_0(explorer_bin, tmp_path, two_demos):
    path = collection(tmp_path, *two_demos)
    result = compare(explorer_bin, tmp_path, path, "Users/Get user", "--env", "a", "--env", "b")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("a ") and "200 OK" in lines[0] and "/v1/users/1" in lines[0]
    assert lines[1].startswith("b ")
    assert lines[2:] == ["status   same", "headers  same", "body     same", "match"]


def test_without_rules_the_request_id_header_is_the_only_difference(explorer_bin, tmp_path, two_demos):
    path = collection(tmp_path, *two_demos, ignore=["header Date"])
    result = compare(explorer_bin, tmp_path, path, "Users/Get user", "--env", "a", "--env", "b")
    assert result.returncode == 3, result.stderr
    out = result.stdout.decode()
    assert "headers  1 differs" in out
    assert "  X-Request-Id: " in out
    assert "body     same" in out
    assert out.rstrip().endswith("differ")


def test_two_environments_differ_where_their_data_does_and_exit_3(explorer_bin, tmp_path, two_demos):
    path = collection(tmp_path, *two_demos)
    result = compare(explorer_bin, tmp_path, path, "Users/Get user", "--env", "a", "--env", "staging")
    assert result.returncode == 3, result.stderr
    out = result.stdout.decode()
    # Staging's first user is Grace Hopper, local's Ada Lovelace.
    assert '  ~ $.email: "ada@example.com" | "grace@staging.example.com"' in out
    assert '  ~ $.name: "Ada Lovelace" | "Grace Hopper"' in out
    assert "  X-Demo-Environment: local | staging" in out
    assert "body     3 differences (JSON)" in out


def test_json_names_each_difference_by_kind_and_path(explorer_bin, tmp_path, two_demos):
    path = collection(tmp_path, *two_demos)
    result = compare(explorer_bin, tmp_path, path, "Posts/List posts", "--env", "a", "--env", "staging", "--json")
    assert result.returncode == 3, result.stderr
    report = json.loads(result.stdout)
    assert report["endpoint"] == "Posts/List posts"
    assert report["matches"] is False
    assert report["first"]["environment"] == "a" and report["second"]["environment"] == "staging"
    assert report["first"]["status"] == 200 and report["status"]["differs"] is False
    differences = {d["path"]: d for d in report["body"]["differences"]}
    # Posts are matched by id: local lists 10 (a page), staging 5; each title says its environment.
    assert differences["$.items[?@.id==1].title"] == {
        "kind": "string", "path": "$.items[?@.id==1].title",
        "first": "Notes on the Analytical Engine", "second": "[staging] Notes on the Analytical Engine"}
    assert [d["path"] for d in report["body"]["differences"] if d["kind"] == "removed"] == [
        f"$.items[?@.id=={n}]" for n in range(6, 11)]
    assert not any("tags" in p for p in differences)


def test_all_compares_every_get_of_a_folder_and_sends_no_other_method(explorer_bin, tmp_path, two_demos):
    first, _ = two_demos
    # A list's Link header names its server's port.
    path = collection(tmp_path, *two_demos, ignore=["header Date", "header X-Request-Id", "header Link"])
    result = compare(explorer_bin, tmp_path, path, "--all", "Users", "--env", "a", "--env", "b")
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "== Users/Get user" in out and "== Users/List users" in out
    assert "Create user" not in out
    assert out.rstrip().splitlines()[-1] == "2 endpoints compared: 2 match, 0 differ, 1 not GET, not sent"
    assert not any("POST" in line for line in first.lines)

    everything = compare(explorer_bin, tmp_path, path, "--all", "--env", "a", "--env", "staging", "--json")
    assert everything.returncode == 3, everything.stderr
    report = json.loads(everything.stdout)
    assert (report["matched"], report["differed"], report["failed"], report["skipped"]) == (0, 3, 0, 1)
    assert [e["endpoint"] for e in report["endpoints"]] == ["Users/Get user", "Users/List users", "Posts/List posts"]


def test_a_protected_environment_asks_before_a_non_get(explorer_bin, tmp_path, two_demos):
    first, _ = two_demos
    path = collection(tmp_path, *two_demos)
    result = compare(explorer_bin, tmp_path, path, "Users/Create user", "--env", "a", "--env", "staging")
    assert result.returncode == 2
    assert one_sentence(result.stderr)
    assert 'The environment "staging" is protected: add --yes' in result.stderr
    assert not any("POST" in line for line in first.lines)


def test_a_bad_rule_is_an_error_at_its_line(explorer_bin, tmp_path, two_demos):
    path = collection(tmp_path, *two_demos, ignore=["$.items[", "header Date"])
    result = compare(explorer_bin, tmp_path, path, "Users/Get user", "--env", "a", "--env", "b")
    assert result.returncode == 2
    assert f"{path}:4:" in result.stderr
    assert "compare.ignore" in result.stderr and "JSONPath" in result.stderr


def test_usage_errors_exit_2_with_one_sentence(explorer_bin, tmp_path, two_demos):
    path = collection(tmp_path, *two_demos)
    for args in (["Users/Get user", "--env", "a"], ["Users/Get user", "--env", "a", "--env", "a"],
                 ["--env", "a", "--env", "b"], ["Users/Get user", "--env", "a", "--env", "nowhere"]):
        result = compare(explorer_bin, tmp_path, path, *args)
        assert result.returncode == 2, args
        assert one_sentence(result.stderr), (args, result.stderr)


def test_no_response_exits_1(explorer_bin, tmp_path, two_demos):
    first, second = two_demos
    path = collection(tmp_path, *two_demos)
    stop_demo(second)
    result = compare(explorer_bin, tmp_path, path, "Users/Get user", "--env", "a", "--env", "b")
    assert result.returncode == 1, result.stderr
    assert "no response" in result.stdout.decode()
