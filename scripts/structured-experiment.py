#!/usr/bin/env python3
"""One schema for the whole plan, or one request per section? Measured against the real offline model.

For each of the bench's ten offline topics this takes the exact request ``lessonplan generate --local``
sends (captured from the project's scripted server), then asks llama-server for the plan's parts:

* one schema: that request as it is, one answer for every part;
* per section: the same prompt once per part, each time with a schema of that part alone and a last
  line naming it, the answers joined into one object.

Each joined answer is handed back to lessonplan (through the scripted server) so the tool's own
renderer and plan check judge it. Printed per way: plans passing the check, median seconds per plan,
output tokens, and two rough signs of content quality (items repeated within a plan; items that
name a word of the topic).

    scripts/local-model start      # then:
    python3 scripts/structured-experiment.py --binary .build/debug/lessonplan [--port 8012]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_harness import OFFLINE_TOPICS  # noqa: E402 (one list of topics for bench and experiment)

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def post(url: str, body: object, timeout: float = 900) -> object:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with OPENER.open(request, timeout=timeout) as answer:
        return json.loads(answer.read())


def get(url: str) -> object:
    with OPENER.open(url, timeout=60) as answer:
        return json.loads(answer.read())


class Scripted:
    """Tests/TestSupport/fake_openai.py, the project's scripted server."""

    def __init__(self) -> None:
        script = HERE.parent / "Tests" / "TestSupport" / "fake_openai.py"
        self.proc = subprocess.Popen([sys.executable, str(script), "--exit-with-stdin"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdout is not None
        self.port = int(self.proc.stdout.readline().split()[1])
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def lessonplan(binary: str, port: int, band: str, topic: str) -> dict:
    """Runs `generate --local` against `port`; returns its last `turn_ended` record."""
    home = tempfile.mkdtemp(prefix="structured-experiment-")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "LESSONPLAN_"))}
    env.update({"LESSONPLAN_HOME": home, "LESSONPLAN_LOCAL_PORT": str(port), "NO_PROXY": "*"})
    subprocess.run([binary, "generate", "--local", "--grade", band, "--topic", topic, "--minutes", "45",
                    "--no-repair", "--max-retries", "0"], env=env, capture_output=True, timeout=120)
    ended = {}
    for path in Path(home, "sessions").glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("type") == "turn_ended":
                ended = record
    return ended


def ask(llama: str, body: dict) -> tuple[str, int, float]:
    """One non-streamed answer: its text, output tokens and seconds."""
    started = time.monotonic()
    plain = {k: v for k, v in body.items() if k != "stream_options"}
    answer = post(f"{llama}/v1/chat/completions", {**plain, "stream": False})
    seconds = time.monotonic() - started
    return answer["choices"][0]["message"]["content"], answer.get("usage", {}).get("completion_tokens", 0), seconds


def one_schema(llama: str, body: dict) -> tuple[str, int, float]:
    return ask(llama, body)


def per_section(llama: str, body: dict) -> tuple[str, int, float]:
    schema = body["response_format"]["json_schema"]["schema"]
    joined: dict[str, object] = {}
    tokens, seconds = 0, 0.0
    for key, member in schema["properties"].items():
        part = {"type": "object", "properties": {key: member}, "required": [key], "additionalProperties": False}
        messages = [dict(m) for m in body["messages"]]
        messages[-1]["content"] += f'\n\nNow write only the "{key}" member.'
        text, used, took = ask(llama, {**body, "messages": messages,
                                       "response_format": {"type": "json_schema",
                                                           "json_schema": {"name": key, "strict": True,
                                                                           "schema": part}}})
        tokens, seconds = tokens + used, seconds + took
        try:
            joined[key] = json.loads(text).get(key, [])
        except (json.JSONDecodeError, AttributeError):
            joined[key] = []
    return json.dumps(joined), tokens, seconds


def quality(answer: str, topic: str) -> tuple[int, int, int]:
    """Items in all, items repeated within the plan, items naming a word of the topic."""
    try:
        members = json.loads(answer)
    except json.JSONDecodeError:
        return 0, 0, 0
    items = [str(item).strip().lower() for value in members.values() if isinstance(value, list) for item in value]
    words = {w.lower() for w in topic.split() if len(w) > 3}
    return len(items), len(items) - len(set(items)), sum(any(w in item for w in words) for item in items)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--port", type=int, default=int(os.environ.get("LESSONPLAN_LOCAL_PORT", "8012")))
    parser.add_argument("--topics", type=int, default=len(OFFLINE_TOPICS))
    args = parser.parse_args()
    llama = f"http://127.0.0.1:{args.port}"
    scripted = Scripted()
    results: dict[str, list[tuple[bool, float, int, tuple[int, int, int]]]] = {"one schema": [], "per section": []}
    try:
        for band, topic in OFFLINE_TOPICS[: args.topics]:
            post(f"{scripted.base}/__reset", {})
            lessonplan(args.binary, scripted.port, band, topic)
            body = get(f"{scripted.base}/__requests")[-1]["body"]
            for way, method in [("one schema", one_schema), ("per section", per_section)]:
                answer, tokens, seconds = method(llama, body)
                post(f"{scripted.base}/__script", [{"kind": "text", "text": answer}])
                ended = lessonplan(args.binary, scripted.port, band, topic)
                passed = bool((ended.get("check") or {}).get("passed"))
                results[way].append((passed, seconds, tokens, quality(answer, topic)))
                print(f"{way:12} {band:5} {topic:28} {'pass' if passed else 'FAIL'} {seconds:6.1f} s "
                      f"{tokens:5} tokens  items/repeated/on-topic {quality(answer, topic)}", file=sys.stderr,
                      flush=True)
    finally:
        scripted.stop()
    print("| way | plans passing | median s/plan | median output tokens | items repeated | items naming the topic |")
    print("|---|---|---|---|---|---|")
    for way, rows in results.items():
        items = sum(r[3][0] for r in rows) or 1
        print(f"| {way} | {sum(r[0] for r in rows)}/{len(rows)} | {statistics.median(r[1] for r in rows):.1f} | "
              f"{statistics.median(r[2] for r in rows):.0f} | {100 * sum(r[3][1] for r in rows) / items:.0f}% | "
              f"{100 * sum(r[3][2] for r in rows) / items:.0f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
