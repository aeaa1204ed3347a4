"""`explorer send` on the demo's gRPC endpoints as a user drives it from a shell: `-d @-` read
message by message while a bidirectional call is open (as grpcurl reads stdin), a message that
does not match its type stopping the call where it is, and Ctrl-C cancelling the call on the wire
(the server sees CANCELLED) while history keeps what came, exiting 130.
"""
from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading

from conftest import DEFAULT_TIMEOUT, poll


def start_send(explorer_bin, demo, tmp_path, name: str, *options: str) -> subprocess.Popen:
    environment = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
                   "LANG": "C.UTF-8"}
    return subprocess.Popen(
        [str(explorer_bin), "send", "--collection", str(demo.collection), "--env", "local", name, *options],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
        cwd=str(tmp_path))


def line_reader(stream) -> queue.Queue:
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True).start()
    return lines


def test_stdin_messages_go_one_at_a_time_while_the_call_is_open(explorer_bin, demo, tmp_path):
    process = start_send(explorer_bin, demo, tmp_path, "gRPC/Chat", "-d", "@-", "--no-history")
    try:
        answers = line_reader(process.stdout)
        # Each answer comes before the next message is written: the call is open and each message
        # went as soon as its closing brace was read.
        for text in ("first", "second"):
            process.stdin.write(json.dumps({"text": text}) + "\n")
            process.stdin.flush()
            answer = json.loads(answers.get(timeout=DEFAULT_TIMEOUT))
            assert answer["text"].endswith(text), answer
        # A message split across writes is read whole.
        process.stdin.write('{"te')
        process.stdin.flush()
        process.stdin.write('xt": "third"}')
        process.stdin.close()
        assert json.loads(answers.get(timeout=DEFAULT_TIMEOUT))["text"].endswith("third")
        assert process.wait(timeout=DEFAULT_TIMEOUT) == 0, process.stderr.read()
    finally:
        process.kill()
        process.wait()


def test_a_message_of_the_wrong_type_stops_the_call_and_names_it(explorer_bin, demo, tmp_path):
    process = start_send(explorer_bin, demo, tmp_path, "gRPC/Chat", "-d", "@-", "--no-history")
    try:
        answers = line_reader(process.stdout)
        process.stdin.write('{"text": "fine"}\n')
        process.stdin.flush()
        assert json.loads(answers.get(timeout=DEFAULT_TIMEOUT))["text"].endswith("fine")
        process.stdin.write('{"txet": "typo"}\n')
        process.stdin.flush()
        assert process.wait(timeout=DEFAULT_TIMEOUT) == 2
        error = process.stderr.read()
        assert "Request message 2" in error and "txet" in error, error
    finally:
        process.kill()
        process.wait()


def test_ctrl_c_cancels_the_call_on_the_wire_keeps_it_in_history_and_exits_130(explorer_bin, demo, tmp_path):
    process = start_send(explorer_bin, demo, tmp_path, "gRPC/Heartbeat (never ends)")
    try:
        ticks = line_reader(process.stdout)
        ticks.get(timeout=DEFAULT_TIMEOUT)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=DEFAULT_TIMEOUT) == 130
        assert "CANCELLED" in process.stderr.read()
    finally:
        process.kill()
        process.wait()
    # The server saw the stream reset: its access log says the client cancelled.
    poll(lambda: any("/explorer.demo.v1.Directory/Heartbeat → CANCELLED" in line for line in demo.lines),
         timeout=DEFAULT_TIMEOUT, message="the heartbeat's CANCELLED in the demo's log")
    environment = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    history = subprocess.run([str(explorer_bin), "history", "--json"], capture_output=True, text=True,
                             env=environment, cwd=str(tmp_path), timeout=DEFAULT_TIMEOUT)
    entries = [json.loads(line) for line in history.stdout.splitlines() if line.strip()] \
        if not history.stdout.lstrip().startswith("[") else json.loads(history.stdout)
    assert entries and "CANCELLED" in json.dumps(entries[0]), history.stdout


def test_a_message_over_the_size_limit_is_refused_naming_how_to_raise_it(explorer_bin, demo, tmp_path):
    process = start_send(explorer_bin, demo, tmp_path, "gRPC/Chat", "-d", json.dumps({"text": "x" * 5000}),
                         "--max-message-size", "1K", "--no-history")
    _, error = process.communicate(timeout=DEFAULT_TIMEOUT)
    assert process.returncode == 2, error
    assert "Request message 1 is 500" in error and "over the limit of 1024 bytes" in error, error
    assert "max_message_size:" in error and "--max-message-size" in error, error


def test_an_answer_over_the_size_limit_ends_resource_exhausted_naming_how_to_raise_it(explorer_bin, demo, tmp_path):
    process = start_send(explorer_bin, demo, tmp_path, "gRPC/Get user", "--max-message-size", "20", "--no-history")
    _, error = process.communicate(timeout=DEFAULT_TIMEOUT)
    # The request (an id) goes; the user it answers with does not fit.
    assert process.returncode == 64 + 8, error
    assert "RESOURCE_EXHAUSTED" in error and "over the limit of 20 bytes" in error, error
    assert "max_message_size:" in error and "GRPCCallOptions" not in error, error
