#!/usr/bin/env python3
"""The benchmark's own loopback server: streams the OpenAI Responses format from prebuilt bytes.

Started by ``scripts/bench``; prints ``PORT <n>`` on its first line and serves 127.0.0.1 only.
Every answer is built once, in memory, before it is timed, so the server never is what a
benchmark measures: a request costs a JSON parse of its body, one log entry and ``sendall``.

What a request gets is named by the first path segment, so one base URL per scenario
(``http://127.0.0.1:<n>/<scenario>/v1``) works for lessonplan, curl and peers alike:

* ``/d<N>/…/responses``: a streamed answer of N ``response.output_text.delta`` events (plan
  text repeated as needed; en dashes, curly quotes, newlines and an emoji included), framed
  the way api.openai.com frames it: ``response.created`` … ``response.completed``.
* ``/d<N>p<MS>/…/responses``: the same, but after the head and the opening events the server
  waits MS milliseconds, then notes ``time.monotonic_ns()`` and writes the first delta on its
  own; the rest follows at once. That timestamp is what "first token" is measured from.
* ``/d<N>/…/chat/completions``: the same text as Chat Completions chunks (for peers that only
  speak that).

Control (not logged): ``POST /__prepare`` with ``{"deltas": N}`` builds an answer ahead of time;
``GET /__log`` returns one entry per model request: ``path``, ``arrived_ns``, ``input_bytes``
(UTF-8 length of the ``input`` sent, or of the messages for Chat Completions), ``first_delta_ns``,
``done_ns``; ``POST /__reset`` clears the log. Runs until stdin closes (``--exit-with-stdin``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# Plan-shaped text: headings, pacing, non-ASCII characters and newlines (escaped as \n in JSON).
PLAN = """Learning Objective
Students will be able to explain how plants turn light into chemical energy and apply it to a new example.

Materials
- Slides or board notes on photosynthesis
- Sticky notes and markers 📝
- Exit ticket slips

Warm-Up (5 min)
- Minutes 0–5: Quick-write: “What do you already know about photosynthesis?” Pair-share two ideas.

Direct Instruction
(12 min)
- Minutes 5–17: Introduce chlorophyll, light energy and glucose with one worked example; pause for questions.

Guided Practice
(10 min)
- Minutes 17–27: In pairs, students label a leaf diagram while the teacher circulates.

Independent Practice
(10 min)
- Minutes 27–37: Students complete three practice items on their own.

Differentiation
- Support: sentence frames and a labelled diagram.
- Extension: students design an experiment that changes one variable and predict the result.
- Multilingual learners: key terms with visuals.

Check for Understanding
(4 min)
- Minutes 37–41:
1. What are the inputs and outputs of photosynthesis?
2. Why does a plant in the dark stop growing?
3. Where could you see this outside school?

Exit Ticket
(4 min)
- Minutes 41–45:
1. One thing I learned about how plants turn light into energy…
2. One question I still have…
3. One way I could use this…

Homework / Extension (optional)
- Find one real-world example of photosynthesis and describe it in two sentences.
"""

PIECES = re.findall(r"\s*\S+|\s+$", PLAN)
MODEL = "gpt-5.2"
RESPONSE_ID = "resp_bench000001"
MESSAGE_ID = "msg_bench000001"
CHUNK_BYTES = 64 * 1024


def delta_texts(count: int) -> list[str]:
    return [PIECES[i % len(PIECES)] for i in range(count)]


def response_object(status: str, output: list[Any], usage: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "id": RESPONSE_ID, "object": "response", "created_at": 1767225600, "status": status,
        "background": False, "error": None, "incomplete_details": None, "instructions": None,
        "max_output_tokens": 8192, "model": MODEL, "output": output, "parallel_tool_calls": True,
        "previous_response_id": None, "reasoning": {"effort": "medium", "summary": None}, "store": False,
        "temperature": 1.0, "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto", "tools": [], "top_p": 1.0, "truncation": "disabled", "usage": usage,
        "user": None, "metadata": {},
    }


def sse(payload: dict[str, Any]) -> bytes:
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"event: {payload['type']}\ndata: {data}\n\n".encode()


def responses_parts(count: int) -> tuple[bytes, bytes, bytes]:
    """The body in three pieces: what precedes the first delta, the first delta, the rest."""
    texts = delta_texts(count)
    text = "".join(texts)
    seq = 0

    def event(payload: dict[str, Any]) -> bytes:
        nonlocal seq
        payload = {"type": payload["type"], "sequence_number": seq, **payload}
        seq += 1
        return sse(payload)

    reasoning = {"id": "rs_bench000001", "type": "reasoning", "summary": []}
    common = {"item_id": MESSAGE_ID, "output_index": 1, "content_index": 0}
    head = b"".join([
        event({"type": "response.created", "response": response_object("in_progress", [], None)}),
        event({"type": "response.in_progress", "response": response_object("in_progress", [], None)}),
        event({"type": "response.output_item.added", "output_index": 0, "item": reasoning}),
        event({"type": "response.output_item.done", "output_index": 0, "item": reasoning}),
        event({"type": "response.output_item.added", "output_index": 1,
               "item": {"id": MESSAGE_ID, "type": "message", "status": "in_progress", "content": [],
                        "role": "assistant"}}),
        event({"type": "response.content_part.added", **common,
               "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}}),
    ])
    deltas = [event({"type": "response.output_text.delta", **common, "delta": piece, "logprobs": []})
              for piece in texts]
    part = {"type": "output_text", "annotations": [], "logprobs": [], "text": text}
    message = {"id": MESSAGE_ID, "type": "message", "status": "completed", "content": [part], "role": "assistant"}
    # A real answer never reports more output tokens than the request's limit (8192 by default);
    # the synthetic 46 MB stream must not read as one that stopped at the limit.
    output_tokens = min(max(1, len(text) // 4) + 64, 4000)
    usage = {"input_tokens": 900, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": output_tokens,
             "output_tokens_details": {"reasoning_tokens": 64}, "total_tokens": 900 + output_tokens}
    tail = b"".join([
        event({"type": "response.output_text.done", **common, "text": text, "logprobs": []}),
        event({"type": "response.content_part.done", **common, "part": part}),
        event({"type": "response.output_item.done", "output_index": 1, "item": message}),
        event({"type": "response.completed", "response": response_object("completed", [reasoning, message], usage)}),
    ])
    return head, deltas[0] if deltas else b"", b"".join(deltas[1:]) + tail


def chat_parts(count: int) -> tuple[bytes, bytes, bytes]:
    def chunk(choices: list[Any], **extra: Any) -> bytes:
        payload = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1767225600,
                   "model": MODEL, "choices": choices, **extra}
        return f"data: {json.dumps(payload, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()

    texts = delta_texts(count)
    head = chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}, "logprobs": None,
                   "finish_reason": None}])
    deltas = [chunk([{"index": 0, "delta": {"content": piece}, "logprobs": None, "finish_reason": None}])
              for piece in texts]
    tail = chunk([{"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}]) + chunk(
        [], usage={"prompt_tokens": 900, "completion_tokens": count, "total_tokens": 900 + count}) + \
        b"data: [DONE]\n\n"
    return head, deltas[0] if deltas else b"", b"".join(deltas[1:]) + tail


def frame(data: bytes) -> bytes:
    """HTTP/1.1 chunked framing, in pieces of at most CHUNK_BYTES, as one prebuilt buffer."""
    out = bytearray()
    for start in range(0, len(data), CHUNK_BYTES):
        piece = data[start:start + CHUNK_BYTES]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return bytes(out)


class Answers:
    """Prebuilt, framed bodies, keyed by API and delta count; built once, then only sent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._built: dict[tuple[str, int], tuple[bytes, bytes, bytes]] = {}

    def get(self, api: str, count: int) -> tuple[bytes, bytes, bytes]:
        with self._lock:
            key = (api, count)
            if key not in self._built:
                head, first, rest = (chat_parts if api == "chat" else responses_parts)(count)
                self._built[key] = (frame(head), frame(first), frame(rest) + b"0\r\n\r\n")
            return self._built[key]


class Log:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.entries: list[dict[str, Any]] = []

    def add(self, entry: dict[str, Any]) -> None:
        with self._lock:
            self.entries.append(entry)

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(e) for e in self.entries]

    def reset(self) -> None:
        with self._lock:
            self.entries.clear()


SCENARIO = re.compile(r"^/d(\d+)(?:p(\d+))?/")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "BenchServer"

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/__log":
            self.send_json(200, self.server.log.snapshot())
        elif self.path == "/__health":
            self.send_json(200, {"ok": True})
        else:
            self.send_json(404, {"error": {"message": f"no {self.path}", "type": "invalid_request_error"}})

    def do_POST(self) -> None:  # noqa: N802
        arrived = time.monotonic_ns()
        raw = self.body()
        path = self.path.split("?", 1)[0]
        if path == "/__reset":
            self.server.log.reset()
            self.send_json(200, {"ok": True})
            return
        if path == "/__prepare":
            spec = json.loads(raw or b"{}")
            self.server.answers.get(spec.get("api", "responses"), int(spec["deltas"]))
            self.send_json(200, {"ok": True})
            return
        match = SCENARIO.match(path)
        api = "chat" if path.endswith("/chat/completions") else "responses"
        if not match or not (path.endswith("/responses") or api == "chat"):
            self.send_json(404, {"error": {"message": f"Invalid URL (POST {path})", "type": "invalid_request_error"}})
            return
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        sent = body.get("messages") if api == "chat" else body.get("input")
        if not isinstance(sent, str):
            sent = json.dumps(sent, ensure_ascii=False)
        entry = {"path": path, "arrived_ns": arrived, "input_bytes": len(sent.encode()),
                 "first_delta_ns": None, "done_ns": None}
        head, first, rest = self.server.answers.get(api, int(match.group(1)))
        pause_ms = int(match.group(2) or 0)

        sock = self.connection
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("x-request-id", "req_bench")
        self.end_headers()
        self.wfile.flush()
        try:
            if pause_ms:
                sock.sendall(head)
                time.sleep(pause_ms / 1000)
                entry["first_delta_ns"] = time.monotonic_ns()
                sock.sendall(first)
                sock.sendall(rest)
            else:
                entry["first_delta_ns"] = time.monotonic_ns()
                sock.sendall(head + first)
                sock.sendall(rest)
        except OSError:
            self.close_connection = True
        entry["done_ns"] = time.monotonic_ns()
        self.server.log.add(entry)


class BenchServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.answers = Answers()
        self.log = Log()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exit-with-stdin", action="store_true", help="exit when stdin reaches EOF")
    args = parser.parse_args()
    server = BenchServer()
    print(f"PORT {server.server_address[1]}", flush=True)
    if args.exit_with_stdin:
        def watch() -> None:
            while sys.stdin.buffer.read(4096):
                pass
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
