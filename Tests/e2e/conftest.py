"""End-to-end harness: the real `explorer` binary, a real demo server, a real terminal.

Fixtures:
- `explorer_bin`: path of the built binary (EXPLORER_BIN, else .build/debug/explorer).
- `demo`: a running `explorer demo --serve-only` on free ports, with its environments' URLs
  and the collection file it wrote; stopped with SIGINT after the test.
- `screen`: a factory for `Screen`, the real binary in a tmux pane (a pseudo-terminal) of a
  given size; read it with `wait_for` (polls, never sleeps a fixed time) and drive it with `keys`.

`require_tool` is how a test asks for a tool that `scripts/setup --with-test-tools` installs
(schemathesis, vi, zsh, fish, cryptography): skipped without it, failed when
EXPLORER_REQUIRE_TEST_TOOLS=1 (scripts/test sets it, so that CI never passes by skipping).
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_TIMEOUT = 15.0


def poll(predicate, timeout=DEFAULT_TIMEOUT, interval=0.05, message="condition"):
    """Calls `predicate` until it returns a truthy value; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}; last value: {last!r}")


REQUIRE_TEST_TOOLS = "EXPLORER_REQUIRE_TEST_TOOLS"


def require_tool(tool: str, *, commands: tuple[str, ...] | None = None, module: str | None = None,
                 package: str | None = None) -> Any:
    """A tool `scripts/setup --with-test-tools` installs, for the test that calls this.

    With `module`, the Python module of that name (imported); else the path of the first of
    `commands` (by default the tool's name) found on PATH. Without it the test is skipped, with a
    reason naming the tool and the setup script, or failed when EXPLORER_REQUIRE_TEST_TOOLS=1.
    `package` names what the script installs when it is not the tool's name (vim-tiny for vi).
    """
    found: Any = None
    if module is not None:
        try:
            found = import_module(module)
        except ImportError:
            found = None
    else:
        found = next((path for path in map(shutil.which, commands or (tool,)) if path), None)
    if found is not None:
        return found
    installs = f"installs it ({package})" if package else "installs it"
    reason = f"{tool} is not installed: `scripts/setup --with-test-tools` {installs}"
    if os.environ.get(REQUIRE_TEST_TOOLS) == "1":
        pytest.fail(f"{reason}; {REQUIRE_TEST_TOOLS}=1 requires every test tool", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def explorer_bin() -> Path:
    path = Path(os.environ.get("EXPLORER_BIN", ROOT / ".build" / "debug" / "explorer"))
    if not path.exists():
        pytest.fail(f"{path} does not exist: build it first with `swift build`")
    return path


@dataclass
class Demo:
    process: subprocess.Popen
    urls: dict[str, str]
    collection: Path
    lines: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def url(self, environment: str, path: str) -> str:
        return self.urls[environment] + path


def start_demo(explorer_bin: Path, tmp_path: Path, port: int = 0, drain: bool = True, options: tuple[str, ...] = ()) -> Demo:
    """Starts `explorer demo --serve-only` (with `options`); with `drain`, its output is read on
    into `lines` and `errors` (a test that reads the pipes itself passes False)."""
    collection = tmp_path / "demo.yaml"
    process = subprocess.Popen(
        [str(explorer_bin), "demo", "--serve-only", "--port", str(port), "--collection-out", str(collection), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    urls: dict[str, str] = {}
    lines: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"demo exited early: {process.stderr.read()}")
        lines.append(line)
        match = re.match(r"\s+(\w+)\s+(http://\S+)", line)
        if match:
            urls[match.group(1)] = match.group(2)
        if line.startswith("collection:"):
            break
    assert set(urls) == {"local", "staging", "production"}, lines
    demo = Demo(process=process, urls=urls, collection=collection, lines=lines)
    # The demo logs every request it serves to stdout: read on, so that a test sending more
    # than a pipe holds (64 KiB, some 2,000 lines) never blocks the server in its write.
    if drain:
        threading.Thread(target=keep_reading, args=(process.stdout, demo.lines), daemon=True).start()
        threading.Thread(target=keep_reading, args=(process.stderr, demo.errors), daemon=True).start()
    return demo


def keep_reading(stream, lines: list[str]) -> None:
    for line in stream:
        lines.append(line)


def stop_demo(demo: Demo) -> int:
    if demo.process.poll() is None:
        demo.process.send_signal(signal.SIGINT)
        try:
            demo.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            demo.process.kill()
            demo.process.wait()
    return demo.process.returncode


@pytest.fixture
def demo(explorer_bin, tmp_path):
    running = start_demo(explorer_bin, tmp_path)
    yield running
    stop_demo(running)


class Screen:
    """The real binary in a tmux pane: a real pseudo-terminal with a real terminfo entry."""

    def __init__(self, command: list[str], width: int, height: int, env: dict[str, str], cwd: Path):
        self.name = f"explorer-e2e-{uuid.uuid4().hex[:8]}"
        # A tmux server of its own: one shared by the screens of a run exits when its last
        # session is killed, and a screen opened in that moment failed with "server exited
        # unexpectedly".
        self.socket = f"{self.name}-{os.getpid()}"
        environment = " ".join(f"{k}={shell_quote(v)}" for k, v in env.items())
        shell_command = f"cd {shell_quote(str(cwd))} && env {environment} {' '.join(shell_quote(c) for c in command)}; echo '[exited '$?']'; sleep 600"
        self.tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), "sh", "-c", shell_command)

    def tmux(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {result.stderr}")
        return result.stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def wait_for(self, text: str | re.Pattern, timeout: float = DEFAULT_TIMEOUT) -> str:
        """The screen once it shows `text` and has settled.

        ncurses writes a frame in many writes (about one per line), so a capture can fall in the
        middle of one: the text waited for is there, a line below it not yet. A hit counts once a
        second capture right after it is the same screen; a screen that keeps changing (a live
        stream, a timer) is taken as it is after a second of hits.
        """
        first_hit: list[float] = []

        def hits(screen: str) -> bool:
            return bool(text.search(screen)) if isinstance(text, re.Pattern) else text in screen

        def found():
            screen = self.text()
            if not hits(screen):
                return None
            again = self.text()
            if again == screen:
                return screen
            if not first_hit:
                first_hit.append(time.monotonic())
            return again if hits(again) and time.monotonic() - first_hit[0] > 1.0 else None

        try:
            return poll(found, timeout=timeout, message=repr(text))
        except AssertionError as error:
            raise AssertionError(f"{error}\n--- screen ---\n{self.text()}") from None

    def wait_until_gone(self, text: str, timeout: float = DEFAULT_TIMEOUT) -> str:
        def gone():
            screen = self.text()
            return screen if text not in screen else None

        return poll(gone, timeout=timeout, message=f"{text!r} to go")

    def keys(self, *keys: str) -> None:
        """Sends tmux key names (`Enter`, `Down`, `C-c`) or literal text (`-l` is not used)."""
        self.tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def pane_pid(self) -> int:
        return int(self.tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip())

    def child_pid(self, name: str) -> int | None:
        """The pid of the first process called `name` under this pane's shell, if any."""
        pending = [self.pane_pid()]
        while pending:
            pid = pending.pop(0)
            try:
                if Path(f"/proc/{pid}/comm").read_text().strip() == name and pid != self.pane_pid():
                    return pid
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                continue
            pending.extend(int(child) for child in children)
        return None

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


@pytest.fixture
def screen(tmp_path):
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: `apt-get install tmux` (.ci/run does this)")
    opened: list[Screen] = []
    state = tmp_path / "state"
    config = tmp_path / "config"

    def open_screen(command: list[str], width: int = 100, height: int = 30, env: dict[str, str] | None = None) -> Screen:
        environment = {
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "XDG_STATE_HOME": str(state),
            "XDG_CONFIG_HOME": str(config),
            "HOME": str(tmp_path),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        environment.update(env or {})
        opened.append(Screen(command, width, height, environment, tmp_path))
        return opened[-1]

    yield open_screen
    for one in opened:
        one.close()


class LocalServer:
    """A small HTTP server on 127.0.0.1, in a thread of the test, for what the demo cannot be:
    a server that redirects elsewhere, records what reaches it, or says hostile things.

    `answer(method, path)` gives `(status, headers, body)`; every request's headers are kept in
    `requests` (names in lower case), in order, and every connection accepted in
    `connections` (the client's address). With a TLS `context` it serves https; with
    `keep_alive` it speaks HTTP/1.1 and keeps a connection for the requests that follow."""

    def __init__(self, answer, context=None, keep_alive=False):
        import http.server

        server = self
        self.requests: list[dict[str, str]] = []
        self.connections: list[tuple[str, int]] = []

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

            def setup(self):
                super().setup()
                server.connections.append(self.client_address)

            def respond(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                server.requests.append({name.lower(): value for name, value in self.headers.items()})
                status, headers, body = answer(self.command, self.path)
                self.send_response(status)
                for name, value in {**headers, "Content-Length": str(len(body))}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = respond

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if context:
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
