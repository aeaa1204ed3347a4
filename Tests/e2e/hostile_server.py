"""A server that answers badly on purpose: one named misbehaviour per path.

`HostileServer()` listens on 127.0.0.1 (a free port), in daemon threads of the test, and
answers each connection by the path of its request, writing raw bytes on the socket (no HTTP
library in between, so nothing tidies the reply up). `url(path)` gives the address of one
behaviour; `close()` stops it. The pytest fixture `hostile_server` (in conftest.py) starts one
for a test.

The behaviours (`BEHAVIOURS` lists them):

- `/nul-header`: a NUL byte inside a header value.
- `/huge-header`: one header of 1 MB.
- `/many-headers`: 20,000 headers.
- `/bad-chunk`: `Transfer-Encoding: chunked` with a chunk size that is not hexadecimal.
- `/two-content-lengths`: two `Content-Length` headers that disagree.
- `/te-and-cl`: both `Transfer-Encoding: chunked` and `Content-Length`.
- `/http09`: an HTTP/0.9 answer: the body alone, no status line, no headers.
- `/status-1`: the status code `1`.
- `/bare-lf`: a well-formed reply whose lines end in LF alone (no CR).
- `/esc-header`: a header value with an ESC (a terminal colour sequence) in it.
- `/redirect-file`, `/redirect-gopher`: a 302 to `file:///etc/passwd`, to `gopher://127.0.0.1/`.
- `/br`, `/zstd`: a body labelled `Content-Encoding: br` or `zstd` (bytes that begin like
  those formats, not text).
- `/truncated-gzip`: a gzip body cut in the middle (its `Content-Length` is the cut size).
- `/sse-no-final-newline`: an event stream whose last event has no blank line after it,
  then the connection closes.
- `/drip`: the response head one byte at a time, one every `?every=` seconds (default 2),
  then a short body.
- `/custom-reason`: status `299 Quite Fine`, `/unknown-code`: `999 Way Out`: codes no RFC
  names, with the server's reason phrase.
"""
from __future__ import annotations

import gzip
import socket
import threading
import time
from urllib.parse import parse_qs, urlsplit


def _reply(status: str, headers: list[tuple[str, str]], body: bytes = b"", eol: bytes = b"\r\n") -> bytes:
    head = status.encode() + eol
    for name, value in headers:
        head += name.encode("latin-1") + b": " + value.encode("latin-1") + eol
    return head + eol + body


def _plain(body: bytes, extra: list[tuple[str, str]] | None = None, status: str = "HTTP/1.1 200 OK") -> bytes:
    return _reply(status, [("Content-Type", "text/plain"), *(extra or []), ("Content-Length", str(len(body))), ("Connection", "close")], body)


def _truncated_gzip() -> bytes:
    text = b"".join(b"line %05d of a body that was cut in the middle of its gzip stream\n" % n for n in range(2000))
    whole = gzip.compress(text)
    cut = whole[: len(whole) // 2]
    return _reply("HTTP/1.1 200 OK", [("Content-Type", "text/plain"), ("Content-Encoding", "gzip"),
                                      ("Content-Length", str(len(cut))), ("Connection", "close")], cut)


STATIC: dict[str, bytes] = {
    "/nul-header": b"HTTP/1.1 200 OK\r\nX-Bad: a\x00b\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
    "/huge-header": _plain(b"ok", [("X-Huge", "a" * (1 << 20))]),
    "/many-headers": _plain(b"ok", [(f"X-H{n}", "v") for n in range(20_000)]),
    "/bad-chunk": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
    "/two-content-lengths": b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\nokk",
    "/te-and-cl": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 7\r\nConnection: close\r\n\r\n2\r\nok\r\n0\r\n\r\n",
    "/http09": b"hello from HTTP/0.9\n",
    "/status-1": b"HTTP/1.1 1 Odd\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
    "/bare-lf": _reply("HTTP/1.1 200 OK", [("Content-Type", "text/plain"), ("Content-Length", "8"), ("Connection", "close")],
                       b"bare lf\n", eol=b"\n"),
    "/esc-header": _plain(b"ok", [("X-Esc", "\x1b[31mred")]),
    "/redirect-file": _reply("HTTP/1.1 302 Found", [("Location", "file:///etc/passwd"), ("Content-Length", "0"), ("Connection", "close")]),
    "/redirect-gopher": _reply("HTTP/1.1 302 Found", [("Location", "gopher://127.0.0.1/"), ("Content-Length", "0"), ("Connection", "close")]),
    # Brotli has no magic number; these bytes are a brotli stream's shape (a window byte, then
    # binary). A zstd frame starts with 28 B5 2F FD.
    "/br": _plain(b"\x1b\x0b\x00\xf8\xa5\x00\x02\x00\x8e\xc0\x12\x80\x00\xff\x01", [("Content-Encoding", "br")]),
    "/zstd": _plain(b"\x28\xb5\x2f\xfd\x24\x05\x29\x00\x00hello\x81\x1c\x09\x0c", [("Content-Encoding", "zstd")]),
    "/truncated-gzip": _truncated_gzip(),
    "/sse-no-final-newline": _reply("HTTP/1.1 200 OK", [("Content-Type", "text/event-stream"), ("Connection", "close")],
                                    b"data: first\n\ndata: last"),
    "/custom-reason": _plain(b"fine", status="HTTP/1.1 299 Quite Fine"),
    "/unknown-code": _plain(b"odd", status="HTTP/1.1 999 Way Out"),
}

BEHAVIOURS = sorted([*STATIC, "/drip"])


class HostileServer:
    """A raw-socket server on 127.0.0.1 with one misbehaviour per path (see the module)."""

    def __init__(self):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(16)
        self.port = self.socket.getsockname()[1]
        self.closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.closed.set()
        self.socket.close()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            try:
                request = self._read_head(connection)
                target = request.split(b" ")[1].decode("latin-1") if request.count(b" ") >= 2 else "/"
                parts = urlsplit(target)
                if parts.path == "/drip":
                    every = float(parse_qs(parts.query).get("every", ["2"])[0])
                    for byte in _plain(b"dripped"):
                        if self.closed.is_set():
                            return
                        connection.sendall(bytes([byte]))
                        time.sleep(every)
                    return
                connection.sendall(STATIC.get(parts.path, _plain(b"no such behaviour", status="HTTP/1.1 404 Not Found")))
                connection.shutdown(socket.SHUT_WR)
                # Wait for the client to close, so it reads everything before the reset.
                connection.settimeout(5)
                while connection.recv(65536):
                    pass
            except OSError:
                pass

    @staticmethod
    def _read_head(connection: socket.socket) -> bytes:
        data = b""
        connection.settimeout(10)
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = connection.recv(4096)
            if not chunk:
                break
            data += chunk
        return data
