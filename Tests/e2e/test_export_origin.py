"""An inherited `auth:` goes only to the environment's own server, in every export as when
`explorer send` sends: an endpoint whose path is a whole URL of another server is exported
without it, by `export http`, `export hurl`, `export postman`, `export curl` and `export har`."""
from __future__ import annotations

import json

from test_send import run

COLLECTION = """
name: Origins
environments:
  - name: local
    base_url: https://api.example.test/v1
    variables: { cdn: "https://cdn.example.test" }
auth: { type: bearer, token: inherited-t0ken }
endpoints:
  - name: Own
    path: /me
  - name: Elsewhere
    path: "{{cdn}}/upload"
"""


def exported(explorer_bin, tmp_path, *args: str) -> str:
    result = run(explorer_bin, tmp_path, "export", *args, "--collection", str(tmp_path / "explorer.yaml"))
    assert result.returncode == 0, result.stderr
    return result.stdout.decode()


def test_every_export_leaves_the_inherited_auth_with_its_origin(explorer_bin, tmp_path):
    (tmp_path / "explorer.yaml").write_text(COLLECTION)
    http = exported(explorer_bin, tmp_path, "http")
    own, elsewhere = http.split("### Elsewhere")
    assert "Authorization: Bearer inherited-t0ken" in own
    assert "inherited-t0ken" not in elsewhere, elsewhere

    hurl = exported(explorer_bin, tmp_path, "hurl")
    own, elsewhere = hurl.split("# Elsewhere")
    assert "Authorization: Bearer inherited-t0ken" in own
    assert "inherited-t0ken" not in elsewhere, elsewhere

    postman = json.loads(exported(explorer_bin, tmp_path, "postman"))
    requests = {item["name"]: item["request"] for item in postman["item"]}
    assert requests["Own"]["auth"]["type"] == "bearer"
    assert requests["Elsewhere"]["auth"] == {"type": "noauth"}

    # curl and HAR resolve the request as send does: the same rule.
    assert "inherited-t0ken" in exported(explorer_bin, tmp_path, "curl", "Own", "--reveal-secrets")
    assert "inherited-t0ken" not in exported(explorer_bin, tmp_path, "curl", "Elsewhere", "--reveal-secrets")
    har = exported(explorer_bin, tmp_path, "har", "Elsewhere", "--reveal-secrets")
    assert "inherited-t0ken" not in har
