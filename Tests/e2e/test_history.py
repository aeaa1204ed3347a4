"""`explorer history` end to end: list, filters, show, resend, clear, against real sends."""
from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor

from test_send import one_sentence, run, send


def history(explorer_bin, tmp_path, *args, env=None):
    return run(explorer_bin, tmp_path, "history", *args, env=env)


def listed(explorer_bin, tmp_path, *args, env=None):
    result = history(explorer_bin, tmp_path, *args, "--json", env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def sent_id(explorer_bin, tmp_path, demo, *args) -> int:
    result = send(explorer_bin, tmp_path, demo, *args, "--json")
    return json.loads(result.stdout)["historyId"]


def seed(explorer_bin, tmp_path, demo) -> dict[str, int]:
    return {
        "users": sent_id(explorer_bin, tmp_path, demo, "Users/List users", "--env", "local"),
        "missing": sent_id(explorer_bin, tmp_path, demo, "Users/Missing user (404)", "--env", "local"),
        "posts": sent_id(explorer_bin, tmp_path, demo, "Posts/List posts", "--env", "staging"),
        "error": sent_id(explorer_bin, tmp_path, demo, "Errors/Server error (500 HTML)", "--env", "staging"),
    }


def test_the_list_is_newest_first_with_every_send(explorer_bin, tmp_path, demo):
    ids = seed(explorer_bin, tmp_path, demo)
    rows = listed(explorer_bin, tmp_path)
    assert [row["id"] for row in rows] == [ids["error"], ids["posts"], ids["missing"], ids["users"]]
    assert rows[-1]["endpoint"] == "Users/List users" and rows[-1]["status"] == 200
    assert rows[-1]["url"].startswith(demo.url("local", "/users"))


def test_the_plain_list_shows_one_line_per_exchange(explorer_bin, tmp_path, demo):
    seed(explorer_bin, tmp_path, demo)
    result = history(explorer_bin, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("#4") and "500" in lines[0] and "Errors/Server error (500 HTML)" in lines[0]


def test_filters_by_endpoint_environment_status_and_search(explorer_bin, tmp_path, demo):
    ids = seed(explorer_bin, tmp_path, demo)
    assert [r["id"] for r in listed(explorer_bin, tmp_path, "--endpoint", "Posts/List posts")] == [ids["posts"]]
    assert [r["id"] for r in listed(explorer_bin, tmp_path, "--env", "local")] == [ids["missing"], ids["users"]]
    assert [r["id"] for r in listed(explorer_bin, tmp_path, "--status", "4xx")] == [ids["missing"]]
    assert [r["id"] for r in listed(explorer_bin, tmp_path, "--status", "5xx")] == [ids["error"]]
    assert [r["id"] for r in listed(explorer_bin, tmp_path, "--status", "error")] == []
    assert [r["id"] for r in listed(explorer_bin, tmp_path, "--search", "posts")] == [ids["posts"]]
    assert [r["id"] for r in listed(explorer_bin, tmp_path, "--limit", "1")] == [ids["error"]]


def test_a_bad_status_class_is_a_usage_error(explorer_bin, tmp_path):
    result = history(explorer_bin, tmp_path, "--status", "6xx")
    assert result.returncode == 2
    assert "2xx" in result.stderr


def test_show_prints_request_and_response(explorer_bin, tmp_path, demo):
    ids = seed(explorer_bin, tmp_path, demo)
    result = history(explorer_bin, tmp_path, "show", str(ids["missing"]))
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    assert f"> GET {demo.url('local', '/users/9999')}" in text
    assert "< HTTP/1.1 404 Not Found" in text


def test_show_json_has_the_send_fields_and_the_request(explorer_bin, tmp_path, demo):
    ids = seed(explorer_bin, tmp_path, demo)
    shown = json.loads(history(explorer_bin, tmp_path, "show", str(ids["users"]), "--json").stdout)
    assert shown["historyId"] == ids["users"] and shown["status"] == 200
    assert shown["request"]["method"] == "GET"
    assert json.loads(shown["body"])["items"]
    assert shown["bodyTruncated"] is False


def test_show_of_an_unknown_id_exits_2_with_one_sentence(explorer_bin, tmp_path):
    result = history(explorer_bin, tmp_path, "show", "999")
    assert result.returncode == 2
    assert one_sentence(result.stderr), result.stderr


def test_resend_sends_the_same_endpoint_again_as_a_new_exchange(explorer_bin, tmp_path, demo):
    ids = seed(explorer_bin, tmp_path, demo)
    result = history(explorer_bin, tmp_path, "resend", str(ids["posts"]), "--json")
    assert result.returncode == 0, result.stderr
    again = json.loads(result.stdout)
    assert again["historyId"] > ids["error"]
    assert again["url"].startswith(demo.url("staging", "/posts")) and again["status"] == 200
    assert listed(explorer_bin, tmp_path)[0]["endpoint"] == "Posts/List posts"


def test_resend_exits_like_send(explorer_bin, tmp_path, demo):
    ids = seed(explorer_bin, tmp_path, demo)
    result = history(explorer_bin, tmp_path, "resend", str(ids["error"]), "--check-status")
    assert result.returncode == 5


def test_resend_fills_secrets_in_again(explorer_bin, tmp_path, demo):
    first = sent_id(explorer_bin, tmp_path, demo, "Auth/Me with token", "--env", "production")
    result = history(explorer_bin, tmp_path, "resend", str(first), "--check-status")
    assert result.returncode == 0, result.stderr


def test_clear_before_a_date_and_clear_all(explorer_bin, tmp_path, demo):
    seed(explorer_bin, tmp_path, demo)
    result = history(explorer_bin, tmp_path, "clear", "--before", "2000-01-01")
    assert result.returncode == 0 and result.stdout.decode().startswith("Deleted 0 exchanges")
    assert len(listed(explorer_bin, tmp_path)) == 4
    result = history(explorer_bin, tmp_path, "clear")
    assert result.returncode == 0 and result.stdout.decode().startswith("Deleted 4 exchanges")
    assert listed(explorer_bin, tmp_path) == []


def test_a_bad_date_is_a_usage_error(explorer_bin, tmp_path):
    result = history(explorer_bin, tmp_path, "clear", "--before", "last tuesday")
    assert result.returncode == 2
    assert "--before" in result.stderr


def test_two_processes_sending_at_once_lose_nothing(explorer_bin, tmp_path, demo):
    def burst(environment: str) -> list[int]:
        return [send(explorer_bin, tmp_path, demo, "Users/List users", "--env", environment).returncode for _ in range(10)]

    with ThreadPoolExecutor(max_workers=2) as pool:
        codes = list(pool.map(burst, ["local", "staging"]))
    assert codes == [[0] * 10, [0] * 10]
    rows = listed(explorer_bin, tmp_path, "--limit", "100")
    assert len(rows) == 20
    assert len({row["id"] for row in rows}) == 20


def test_a_body_over_the_cap_is_kept_truncated_with_its_full_size(explorer_bin, tmp_path, demo):
    result = send(explorer_bin, tmp_path, demo, "Content/Large JSON", "--env", "local", "--json",
                  env={"EXPLORER_HISTORY_BODY_CAP": "1K"})
    assert result.returncode == 0, result.stderr
    exchange = json.loads(result.stdout)
    full = len(exchange["body"].encode())
    assert full > 1024
    shown = json.loads(history(explorer_bin, tmp_path, "show", str(exchange["historyId"]), "--json").stdout)
    assert shown["bodyTruncated"] is True
    assert shown["bodySize"] == full
    assert len(shown["body"].encode()) == 1024
    text = history(explorer_bin, tmp_path, "show", str(exchange["historyId"])).stdout.decode()
    assert "(response body truncated: 1.0 KB of" in text


def test_retention_keeps_the_newest_n_on_start(explorer_bin, tmp_path, demo):
    seed(explorer_bin, tmp_path, demo)
    rows = listed(explorer_bin, tmp_path, env={"EXPLORER_HISTORY_KEEP": "2"})
    assert len(rows) == 2
    assert [row["endpoint"] for row in rows] == ["Errors/Server error (500 HTML)", "Posts/List posts"]


def test_until_and_since_bound_the_list_in_time(explorer_bin, tmp_path, demo):
    seed(explorer_bin, tmp_path, demo)
    assert listed(explorer_bin, tmp_path, "--until", "2000-01-01") == []
    assert len(listed(explorer_bin, tmp_path, "--since", "2000-01-01")) == 4


# MARK: - per collection

def test_the_list_is_the_collections_own_and_all_lists_every_one(explorer_bin, tmp_path, demo):
    """As the TUI's History pane: the collection send would use, --all for every one."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "explorer.yaml").write_text(demo.collection.read_text())
    ours = sent_id(explorer_bin, tmp_path, demo, "Users/List users", "--env", "local")
    result = run(explorer_bin, tmp_path, "send", "--collection", str(other / "explorer.yaml"),
                 "Users/Get user", "--env", "staging", "--json")
    assert result.returncode == 0, result.stderr
    theirs = json.loads(result.stdout)["historyId"]

    def ids(*args, cwd=None, env=None):
        result = run(explorer_bin, tmp_path, "history", *args, "--json", cwd=cwd, env=env)
        assert result.returncode == 0, result.stderr
        return [row["id"] for row in json.loads(result.stdout)], result.stderr

    # The folder's explorer.yaml, --collection (relative to the folder), $EXPLORER_COLLECTION.
    assert ids(cwd=other) == ([theirs], "")
    assert ids("--collection", "demo.yaml") == ([ours], "")
    assert ids("--collection", "../demo.yaml", cwd=other) == ([ours], "")
    assert ids(env={"EXPLORER_COLLECTION": str(demo.collection)}) == ([ours], "")
    # --all, and a folder without a collection (which says so, once).
    assert ids("--all", cwd=other) == ([theirs, ours], "")
    listed_all, said = ids()
    assert listed_all == [theirs, ours]
    assert said.count("every collection") == 1 and one_sentence(said), said


def test_an_empty_list_of_one_collection_points_at_all(explorer_bin, tmp_path, demo):
    sent_id(explorer_bin, tmp_path, demo, "Users/List users", "--env", "local")
    (tmp_path / "explorer.yaml").write_text("name: Empty\n")
    result = history(explorer_bin, tmp_path)
    assert result.returncode == 0 and result.stdout == b""
    assert "--all" in result.stderr and one_sentence(result.stderr), result.stderr
    assert len(history(explorer_bin, tmp_path, "--all").stdout.decode().splitlines()) == 1


def test_all_with_a_collection_is_a_usage_error(explorer_bin, tmp_path):
    result = history(explorer_bin, tmp_path, "--all", "--collection", "demo.yaml")
    assert result.returncode == 2
    assert "--all" in result.stderr
