"""Redirects as curl -L follows them, end to end: the chain (status, Location, time of each hop)
in `send --json` and in the history, `--no-follow` and `follow_redirects: false`, and the hop
limit (`--max-redirs`) with an error that names it and how to raise it. Against a small server
on 127.0.0.1 that redirects /hop/N to /hop/N-1."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import LocalServer
from test_send import run


def hops(method: str, path: str):
    """/hop/N answers 302 to /hop/N-1 (303 for a POST); /hop/0 answers 200 with the method."""
    count = int(path.split("/")[2]) if path.startswith("/hop/") else 0
    if count > 0:
        return (303 if method == "POST" else 302), {"Location": f"/hop/{count - 1}"}, b""
    return 200, {"Content-Type": "application/json"}, json.dumps({"arrived": method}).encode()


def collection(tmp_path: Path, base_url: str, environment: str = "") -> Path:
    path = tmp_path / "hops.yaml"
    path.write_text(f"""
name: hops
environments:
  - name: local
    base_url: {base_url}
{environment}
endpoints:
  - name: Three
    path: /hop/3
  - name: Submit
    method: POST
    path: /hop/1
    json: {{ a: 1 }}
  - name: Peek
    path: /hop/2
    follow_redirects: false
""")
    return path


def test_the_chain_is_in_send_json_and_in_the_history(explorer_bin, tmp_path):
    server = LocalServer(hops)
    try:
        path = collection(tmp_path, server.url)
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Three", "--json")
        assert result.returncode == 0, result.stderr
        sent = json.loads(result.stdout)
        chain = sent["timings"]["redirects"]
        assert [(hop["status"], hop["location"]) for hop in chain] == [(302, "/hop/2"), (302, "/hop/1"), (302, "/hop/0")]
        assert [hop["url"] for hop in chain] == [f"{server.url}/hop/{n}" for n in (3, 2, 1)]
        assert all(hop["time"] >= 0 for hop in chain)
        assert json.loads(sent["body"]) == {"arrived": "GET"}

        shown = run(explorer_bin, tmp_path, "history", "show", str(sent["historyId"]), "--json")
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout)["timings"]["redirects"] == chain
    finally:
        server.close()


def test_a_post_answered_303_arrives_as_a_get(explorer_bin, tmp_path):
    server = LocalServer(hops)
    try:
        path = collection(tmp_path, server.url)
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Submit", "--json", "--no-history")
        assert result.returncode == 0, result.stderr
        sent = json.loads(result.stdout)
        assert json.loads(sent["body"]) == {"arrived": "GET"}
        assert [hop["status"] for hop in sent["timings"]["redirects"]] == [303]
    finally:
        server.close()


def test_no_follow_and_follow_redirects_false_answer_with_the_first_redirect(explorer_bin, tmp_path):
    server = LocalServer(hops)
    try:
        path = collection(tmp_path, server.url)
        flag = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Three", "--no-follow", "--json", "--no-history")
        setting = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Peek", "--json", "--no-history")
        for result, location in [(flag, "/hop/2"), (setting, "/hop/1")]:
            assert result.returncode == 0, result.stderr
            answer = json.loads(result.stdout)
            assert answer["status"] == 302
            assert answer["headers"]["Location"] == location
            assert "redirects" not in answer["timings"]
        assert len(server.requests) == 2

        # On the environment, for every endpoint that does not say otherwise.
        path = collection(tmp_path, server.url, "    follow_redirects: false")
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Three", "--json", "--no-history")
        assert json.loads(result.stdout)["status"] == 302
    finally:
        server.close()


def test_past_the_hop_limit_the_error_names_it_and_how_to_raise_it(explorer_bin, tmp_path):
    server = LocalServer(hops)
    try:
        path = collection(tmp_path, server.url)
        result = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Three", "--max-redirs", "2", "--no-history")
        assert result.returncode == 1
        assert "--max-redirs 2" in result.stderr and "Raise --max-redirs" in result.stderr, result.stderr
        assert len(server.requests) == 3

        enough = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Three", "--max-redirs", "3", "--no-history")
        assert enough.returncode == 0, enough.stderr

        default = LocalServer(lambda method, path: (302, {"Location": "/again"}, b""))
        try:
            looping = run(explorer_bin, tmp_path, "send", "--collection", str(collection(tmp_path, default.url)), "Three", "--no-history")
            assert looping.returncode == 1
            assert "the default --max-redirs 10" in looping.stderr, looping.stderr
            assert len(default.requests) == 11
        finally:
            default.close()

        bad = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Three", "--max-redirs", "-1")
        assert bad.returncode == 2 and "--max-redirs" in bad.stderr
    finally:
        server.close()
