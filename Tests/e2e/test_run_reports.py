"""`explorer run --report KIND=PATH` end to end, against the real demo API: the HTML report
opened in a real browser (Debian's chromium, headless; no script may run) served under the CSP
Jenkins uses, the JSON report against its committed schema, GitHub's annotations, reports
refused before anything is sent, reports written on Ctrl-C; and `trace: true`: the server sees
a valid traceparent and history finds the request by its trace id."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from test_send import run

REPO = Path(__file__).resolve().parents[2]
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
HOSTILE = "</script><script>alert(1)</script><svg onload=alert(2)>"


def collection(tmp_path: Path, demo, extra: str = "") -> Path:
    path = tmp_path / "reports.yaml"
    path.write_text(f"""name: Reports
environments:
  - name: local
    base_url: {demo.urls['local']}
    secrets: [token]
    variables: {{ token: s3cr3t-token-value }}
endpoints:
  - name: Health
    path: /echo
    assert: [status == 200]
  - name: Broken
    path: /echo
    headers: {{ Authorization: "Bearer {{{{token}}}}" }}
    query: {{ note: "{HOSTILE}" }}
    assert:
      - status == 200
      - jsonpath $.method == "POST"
  - name: Last
    path: /echo
    assert: [status == 200]
{extra}""")
    return path


def run_reports(explorer_bin, tmp_path, demo, *args, extra: str = ""):
    return run(explorer_bin, tmp_path, "run", "--collection", str(collection(tmp_path, demo, extra)),
               "--env", "local", *args)


class CSPHandler(SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, *args):
        pass


def serve(folder: Path) -> ThreadingHTTPServer:
    handler = lambda *a, **k: CSPHandler(*a, directory=str(folder), **k)  # noqa: E731
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("chromium is not installed: scripts/setup --with-test-tools installs it")
    return found


def browse(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess:
    """Opens the page in headless chromium. The page's JavaScript is off through the CSP it is
    served under (no script-src: default-src 'none'); Blink's scriptEnabled=false cannot be
    used, as --dump-dom and --screenshot then write nothing (headless reads the page through
    the DevTools protocol's script evaluation)."""
    return subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--enable-logging=stderr", "--v=0",
         f"--user-data-dir={tmp_path / 'chromium'}", *args, url],
        capture_output=True, text=True, timeout=120)


def test_the_html_report_opens_in_a_browser_under_a_strict_csp(explorer_bin, tmp_path, demo):
    html5lib = pytest.importorskip("html5lib")
    out = tmp_path / "out"
    out.mkdir()
    result = run_reports(explorer_bin, tmp_path, demo, "--report", f"html={out / 'report.html'}")
    assert result.returncode == 3, result.stderr
    page = (out / "report.html").read_text()
    assert "<script" not in page.lower() and "s3cr3t-token-value" not in page
    parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
    parser.parse(page)
    assert parser.errors == [], parser.errors

    server = serve(out)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/report.html"
        started = time.monotonic()
        dumped = browse(tmp_path, url, "--dump-dom")
        opened = time.monotonic() - started
        shot = browse(tmp_path, url, f"--screenshot={tmp_path / 'report.png'}", "--window-size=1280,2400")
    finally:
        server.shutdown()
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    assert "Content Security Policy" not in dumped.stderr, "nothing the page asks for is blocked"
    dom = html5lib.parse(dumped.stdout, namespaceHTMLElements=False)

    def text(element) -> str:
        return "".join(element.itertext()).strip()

    figures = {e.get("id"): text(e) for e in dom.iter("span") if e.get("class") == "value"}
    assert figures["passed"] == "2" and figures["failed"] == "1" and figures["errors"] == "0", figures
    assert figures["requests"] == "3"
    articles = [e for e in dom.iter("article") if e.get("class") == "failure"]
    assert articles and "Broken" in text(articles[0].find("h3")), "the failed request comes first"
    shown = text(articles[0])
    assert HOSTILE in shown, "the response's markup is shown as text"
    assert "Authorization: Bearer ••••••" in shown, "the credential is masked as history masks it"
    assert not any(dom.iter("script")) and not [e for e in dom.iter() if e.get("onload")]
    bars = [e for e in dom.iter() if str(e.tag).endswith("rect") and (e.get("class") or "").startswith("bar ")]
    assert len(bars) == 3, "one bar per request"
    assert shot.returncode == 0, shot.stderr[-2000:]
    png = (tmp_path / "report.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 20_000, "a screenshot of a drawn page"
    assert opened < 20, f"the browser took {opened:.1f} s"


def test_json_junit_and_github_reports_at_once(explorer_bin, tmp_path, demo):
    jsonschema = pytest.importorskip("jsonschema")
    result = run_reports(explorer_bin, tmp_path, demo, "--repeat", "3", "--report", "json=r.json",
                         "--report", "github", "--junit", "r.xml")
    assert result.returncode == 3, result.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    schema = json.loads((REPO / "schema/run-report.schema.json").read_text())
    jsonschema.validate(report, schema, cls=jsonschema.Draft202012Validator)
    assert report["run"]["passed"] == 6 and report["run"]["failed"] == 3
    assert [i["iteration"] for i in report["iterations"]] == [1, 2, 3]
    broken = report["iterations"][0]["requests"][1]
    assert broken["method"] == "GET" and broken["url"].startswith(demo.urls["local"])
    assert broken["assertions"][1] == {
        "assert": 'jsonpath $.method == "POST"', "passed": False, "expected": '== "POST"', "actual": '"GET"',
        "reason": 'expected == "POST", got "GET"'}
    assert broken["sizes"]["responseBody"] > 0 and broken["timings"]["totalMs"] > 0
    assert [l["endpoint"] for l in report["latency"]] == ["Health", "Broken", "Last"]
    assert all(l["count"] == 3 and l["min"] <= l["p50"] <= l["max"] for l in report["latency"])
    assert "<testsuites" in (tmp_path / "r.xml").read_text()
    annotations = [l for l in result.stdout.decode().splitlines() if l.startswith("::error")]
    assert len(annotations) == 3
    assert annotations[0].startswith("::error file=reports.yaml,line=11,title=Broken #1%3A 200::")


def test_bad_reports_are_refused_before_anything_is_sent(explorer_bin, tmp_path, demo):
    result = run_reports(explorer_bin, tmp_path, demo, "--report", "pdf=x.pdf",
                         "--report", f"html={tmp_path / 'missing' / 'r.html'}")
    assert result.returncode == 2
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    assert len(lines) == 2, lines
    assert '"pdf" is not a kind of report' in lines[0]
    assert "does not exist: create it or choose another path." in lines[1]
    history = run(explorer_bin, tmp_path, "history", "--json")
    assert json.loads(history.stdout or b"[]") == [], "nothing was sent"


def test_reports_are_written_on_ctrl_c_with_what_ran(explorer_bin, tmp_path, demo):
    path = collection(tmp_path, demo, extra="  - { name: Slow, path: /slow, query: { ms: '20000' } }\n")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
           "LANG": "C.UTF-8"}
    process = subprocess.Popen(
        [str(explorer_bin), "run", "--collection", str(path), "--env", "local", "--report", "json=r.json",
         "--report", "html=r.html"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = run(explorer_bin, tmp_path, "history", "--json")
        if listed.returncode == 0 and len(json.loads(listed.stdout or b"[]")) >= 3:
            break
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "Interrupted: the reports hold the 3 requests that ran." in stderr.decode()
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["run"]["interrupted"] is True and report["run"]["requests"] == 3
    assert 'id="interrupted"' in (tmp_path / "r.html").read_text()


def test_trace_sends_a_traceparent_that_history_finds(explorer_bin, tmp_path, demo):
    path = tmp_path / "trace.yaml"
    path.write_text(f"""name: Trace
trace: true
environments: [{{ name: local, base_url: "{demo.urls['local']}" }}]
endpoints:
  - {{ name: Echo, path: /echo }}
  - {{ name: Own, path: /echo, headers: {{ traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01 }} }}
  - {{ name: Off, path: /echo, trace: false }}
""")
    result = run(explorer_bin, tmp_path, "run", "--collection", str(path), "--report", "json=r.json")
    assert result.returncode == 0, result.stderr
    seen = []
    for history_id in (1, 2, 3):
        shown = json.loads(run(explorer_bin, tmp_path, "history", "show", str(history_id), "--json").stdout)
        seen.append({k.lower(): v for k, v in json.loads(shown["body"])["headers"].items()}.get("traceparent"))
    assert re.fullmatch(r"00-[0-9a-f]{32}-[0-9a-f]{16}-01", seen[0]), seen
    assert seen[1] == "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "the collection's own wins"
    assert seen[2] is None, "trace: false on the endpoint"
    trace_id = seen[0].split("-")[1]
    requests = json.loads((tmp_path / "r.json").read_text())["iterations"][0]["requests"]
    assert [r["traceId"] for r in requests] == [trace_id, "0af7651916cd43dd8448eb211c80319c", None]
    found = json.loads(run(explorer_bin, tmp_path, "history", "--search", trace_id, "--json").stdout)
    assert [row["endpoint"] for row in found] == ["Echo"]

    sent = run(explorer_bin, tmp_path, "send", "--collection", str(path), "Off", "--trace", "--json")
    assert sent.returncode == 0, sent.stderr
    assert re.search(r"00-[0-9a-f]{32}-[0-9a-f]{16}-01", sent.stdout.decode()), "send --trace adds one"


def test_load_writes_the_same_latency_charts(explorer_bin, tmp_path, demo):
    html5lib = pytest.importorskip("html5lib")
    path = collection(tmp_path, demo)
    result = run(explorer_bin, tmp_path, "load", "Health", "--collection", str(path), "--env", "local",
                 "-n", "60", "-c", "4", "--report", "html=load.html")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "load.html").read_text()
    parser = html5lib.HTMLParser(strict=False)
    parser.parse(page)
    assert parser.errors == [], parser.errors
    assert "<script" not in page and '<polyline class="curve"' in page
    assert page.count('<rect class="bucket"') == 20
    for figure in ("min", "max", "mean", "stddev", "p50", "p90", "p95", "p99"):
        assert f"<th>{figure}</th>" in page
    assert '<td class="num">60</td>' in page, "the 60 responses of status 200"
    refused = run(explorer_bin, tmp_path, "load", "Health", "--collection", str(path), "--report", "json=x.json")
    assert refused.returncode == 2 and '"json" is not a kind of report; use one of html=PATH.' in refused.stderr


def test_a_terminal_shows_one_progress_line_and_a_pipe_none(explorer_bin, tmp_path, demo, screen):
    path = collection(tmp_path, demo, extra="  - { name: Slow, path: /slow, query: { ms: '1500' } }\n")
    shown = screen([str(explorer_bin), "run", "--collection", str(path), "--env", "local", "--no-history"],
                   width=120, height=20)
    progress = shown.wait_for(re.compile(r"\[3/4 · 1 failed · 0:0\d\] Slow …"))
    assert len([l for l in progress.splitlines() if l.startswith("[")]) == 1, "one line, redrawn in place"
    shown.wait_for("[exited 3]")
    piped = run(explorer_bin, tmp_path, "run", "--collection", str(path), "--env", "local", "--no-history")
    assert "[1/4" not in piped.stderr and "\r" not in piped.stderr, "no progress line off a terminal"
