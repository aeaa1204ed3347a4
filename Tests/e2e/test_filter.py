"""`explorer send ENDPOINT --filter JSONPATH` and `explorer history show N --filter`: the
nodelist of an RFC 9535 query as a JSON array, the body read whole; an invalid query exits 2
with one line naming its column."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import LocalServer
from test_send import run

BODY = {"items": [{"name": "a", "price": 5}, {"name": "b", "price": 12}, {"name": "c", "price": 8}], "total": 3}


def collection(tmp_path: Path, base_url: str) -> Path:
    path = tmp_path / "filter.yaml"
    path.write_text(f"""
name: filter
environments:
  - name: local
    base_url: {base_url}
endpoints:
  - name: Items
    path: /items
  - name: Checked
    path: /items
    assert:
      - status == 200
""")
    return path


def test_send_and_history_show_print_the_nodelist_of_the_query(explorer_bin, tmp_path):
    server = LocalServer(lambda method, path: (200, {"Content-Type": "application/json"}, json.dumps(BODY).encode()))
    try:
        path = collection(tmp_path, server.url)
        # Piped stdout would stream the body: --filter reads it whole.
        cheap = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Items", "--filter", "$.items[?@.price < 10].name")
        assert cheap.returncode == 0, cheap.stderr
        assert json.loads(cheap.stdout) == ["a", "c"]

        checked = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Checked", "--filter", "$..price")
        assert checked.returncode == 0, checked.stderr
        assert json.loads(checked.stdout) == [5, 12, 8]

        nothing = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Items", "--filter", "$.missing", "--no-history")
        assert nothing.returncode == 0 and json.loads(nothing.stdout) == []

        listed = json.loads(run(explorer_bin, tmp_path, "history", "list", "--json").stdout)
        stored = run(explorer_bin, tmp_path, "history", "show", str(listed[-1]["id"]), "--filter", "$.items[0,2]['name','price']")
        assert stored.returncode == 0, stored.stderr
        assert json.loads(stored.stdout) == ["a", 5, "c", 8]
    finally:
        server.close()


def test_an_invalid_query_exits_2_with_one_line_naming_its_column(explorer_bin, tmp_path):
    server = LocalServer(lambda method, path: (200, {"Content-Type": "text/plain"}, b"not json"))
    try:
        path = collection(tmp_path, server.url)
        for command in (["send", "--collection", str(path), "Items"], ["history", "show", "1"]):
            bad = run(explorer_bin, tmp_path, *command, "--filter", "$.items[?@.price <]")
            assert bad.returncode == 2
            assert bad.stderr.count("\n") == 1, bad.stderr
            assert "--filter" in bad.stderr and "column 19" in bad.stderr, bad.stderr
        assert server.requests == []

        text = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Items", "--filter", "$.a", "--no-history")
        assert text.returncode == 1
        assert "not valid JSON" in text.stderr
    finally:
        server.close()
