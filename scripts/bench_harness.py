#!/usr/bin/env python3
"""lessonplan's benchmark: start-up, first token, throughput, long sessions, transcripts, memory.

Run through ``scripts/bench`` (which builds the release binary and the fixture writer first). Everything talks to
``bench_server.py`` on 127.0.0.1; nothing leaves the machine. Each timed row is the median of
``--runs`` runs after one warm-up run, shown with min and max, next to its floor (``/bin/true``
or ``curl`` doing the same work) and its budget. Exits 1 when a budget is missed.

Times come from ``time.monotonic_ns()`` (CLOCK_MONOTONIC), the same clock the server uses to
stamp the first delta it writes, so "first token" spans two processes on one clock. Peak RSS is
the child's ``ru_maxrss`` from ``wait4`` (what ``/usr/bin/time -v`` reports).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
KEY = "sk-bench-0000"
MIB = 1024 * 1024
FOOTER = "── ".encode()
DELTA_MARK = b'"response.output_text.delta"'
# One plan's worth of deltas from the bench server (its PLAN text split into word pieces).
PLAN_DELTAS = 300


# --------------------------------------------------------------------------------------------
# Processes
# --------------------------------------------------------------------------------------------


@dataclass
class Run:
    """One finished child process."""
    wall_ns: int
    status: int
    maxrss_kib: int
    stdout: bytes = b""
    stderr: bytes = b""
    # (monotonic ns, chunk) for each read of stdout, when it was read through a pipe.
    chunks: list[tuple[int, bytes]] = field(default_factory=list)

    @property
    def first_byte_ns(self) -> int | None:
        return self.chunks[0][0] if self.chunks else None


def run(cmd: list[str], env: dict[str, str], stdin: bytes = b"", capture: bool = False,
        timeout: float = 300, cwd: str | None = None) -> Run:
    """Runs ``cmd`` to the end; with ``capture`` its stdout is read through a pipe and timestamped."""
    stderr_file = tempfile.TemporaryFile()
    started = time.monotonic_ns()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE if capture else subprocess.DEVNULL, stderr=stderr_file)
    killer = threading.Timer(timeout, lambda: proc.kill())
    killer.start()
    try:
        assert proc.stdin is not None
        try:
            proc.stdin.write(stdin)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        chunks: list[tuple[int, bytes]] = []
        if capture:
            assert proc.stdout is not None
            fd = proc.stdout.fileno()
            while True:
                data = os.read(fd, 1 << 16)
                now = time.monotonic_ns()
                if not data:
                    break
                chunks.append((now, data))
            proc.stdout.close()
        _, status, usage = os.wait4(proc.pid, 0)
        ended = time.monotonic_ns()
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        killer.cancel()
    stderr_file.seek(0)
    err = stderr_file.read()
    stderr_file.close()
    return Run(ended - started, proc.returncode, usage.ru_maxrss, b"".join(c for _, c in chunks), err, chunks)


def must(result: Run, what: str) -> Run:
    if result.status != 0:
        tail = result.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise RuntimeError(f"{what} exited {result.status}: {' / '.join(tail)}")
    return result


class Server:
    """bench_server.py as a child process; dies with this process (its stdin is our pipe)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(HERE / "bench_server.py"), "--exit-with-stdin"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        if not line.startswith("PORT "):
            raise RuntimeError("bench_server.py did not start")
        self.port = int(line.split()[1])

    def base(self, scenario: str) -> str:
        return f"http://127.0.0.1:{self.port}/{scenario}/v1"

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=120) as response:
            return json.loads(response.read())

    def prepare(self, deltas: int, api: str = "responses") -> None:
        self.call("POST", "/__prepare", {"deltas": deltas, "api": api})

    def reset(self) -> None:
        self.call("POST", "/__reset", {})

    def log(self) -> list[dict[str, Any]]:
        return self.call("GET", "/__log")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def base_env(home: str) -> dict[str, str]:
    """A clean environment: no proxy, no user settings, a private data directory."""
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy") and not k.startswith(("OPENAI_", "LESSONPLAN_", "XDG_"))}
    env.update({"LESSONPLAN_HOME": home, "NO_PROXY": "*", "no_proxy": "*", "NO_COLOR": "1", "TERM": "dumb"})
    return env


def curl_cmd(url: str, output: str | None = None) -> list[str]:
    body = json.dumps({"model": "gpt-5.2", "input": "Create a lesson plan.", "stream": True})
    cmd = ["curl", "-sS", "-N", "--noproxy", "*", "-X", "POST", "-H", "Content-Type: application/json",
           "-H", "Accept: text/event-stream", "--data-binary", body, url]
    return cmd + (["-o", output] if output else [])


# --------------------------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    unit: str  # "ms", "s", "MiB", "x"
    values: list[float] = field(default_factory=list)
    floor: list[float] | None = None
    floor_name: str = ""
    # How the budget is checked: "max" (median ≤ limit), "min" (median ≥ limit), "over" (median −
    # floor median ≤ limit), "ratio" (median / floor median ≤ limit).
    kind: str = "max"
    limit: float | None = None
    budget: str = ""
    skipped: str = ""
    error: str = ""
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def floor_median(self) -> float | None:
        return statistics.median(self.floor) if self.floor else None

    @property
    def compared(self) -> float | None:
        """The number the budget applies to."""
        if self.median is None:
            return None
        if self.kind == "over" and self.floor_median is not None:
            return self.median - self.floor_median
        if self.kind == "ratio" and self.floor_median:
            return self.median / self.floor_median
        return self.median

    @property
    def result(self) -> str:
        if self.skipped:
            return "skip"
        if self.error:
            return "FAIL"
        if self.limit is None:
            return "info"
        compared = self.compared
        if self.kind == "min":
            return "pass" if compared is not None and compared >= self.limit else "FAIL"
        return "pass" if compared is not None and compared <= self.limit else "FAIL"

    def versus(self) -> str:
        if self.floor_median is None or self.median is None:
            return ""
        if self.kind == "over":
            return f"{self.median - self.floor_median:+.1f} {self.unit}"
        return f"{self.median / self.floor_median:.1f}×" if self.floor_median else ""

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "unit": self.unit, "median": self.median,
                "min": min(self.values) if self.values else None,
                "max": max(self.values) if self.values else None, "runs": self.values,
                "floor": self.floor_name or None, "floor_median": self.floor_median,
                "compared": self.compared, "budget": self.budget, "limit": self.limit, "kind": self.kind,
                "result": self.result, "skipped": self.skipped or None, "error": self.error or None,
                "note": self.note or None}


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "–"
    if unit == "x":
        return f"{value:.2f}"
    if unit == "ms":
        return f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "MiB":
        return f"{value:.1f} MiB"
    if unit.startswith("/"):
        return f"{value:g}{unit}"
    return f"{value:g} {unit}"


def table(rows: list[Row]) -> str:
    header = ["what", "median", "min", "max", "floor (median)", "vs floor", "budget", "result"]
    lines = [header]
    for row in rows:
        if row.skipped:
            lines.append([row.name, "–", "–", "–", "–", "–", row.budget, f"skip: {row.skipped}"])
            continue
        if row.error:
            lines.append([row.name, "–", "–", "–", "–", "–", row.budget, f"FAIL: {row.error}"])
            continue
        floor = f"{row.floor_name} {fmt(row.floor_median, row.unit)}" if row.floor else ""
        lines.append([row.name, fmt(row.median, row.unit), fmt(min(row.values), row.unit),
                      fmt(max(row.values), row.unit), floor, row.versus(), row.budget, row.result])
    out = ["| " + " | ".join(lines[0]) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(cells) + " |" for cells in lines[1:]]
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# The benchmark
# --------------------------------------------------------------------------------------------


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.binary = str(Path(args.binary).resolve())
        self.fixture = str(Path(args.fixture).resolve())
        self.quick = args.quick
        self.runs = args.runs or (3 if self.quick else 7)
        # CI machines are noisy: quick mode checks time budgets at a generous margin.
        self.margin = 3.0 if self.quick else 1.0
        self.stream_deltas = 20_000 if self.quick else 200_000
        self.session_turns = 50 if self.quick else 200
        self.listed_sessions = 200 if self.quick else 1_000
        self.replay_turns = 2_000 if self.quick else 10_000
        self.work = Path(tempfile.mkdtemp(prefix="lessonplan-bench-"))
        self.server = Server()
        self.rows: list[Row] = []
        self.notes: list[str] = []

    def progress(self, text: str) -> None:
        if not self.args.json:
            print(f"… {text}", file=sys.stderr, flush=True)

    def home(self, name: str) -> str:
        path = self.work / name
        path.mkdir(parents=True, exist_ok=True)
        return str(path)

    def repeat(self, measure: Callable[[], float]) -> list[float]:
        measure()  # warm-up: page cache, the server's prebuilt answers, the dynamic loader
        return [measure() for _ in range(self.runs)]

    def budget(self, limit: float, deterministic: bool = False) -> float:
        return limit if deterministic else limit * self.margin

    def wanted(self, group: str) -> bool:
        return not self.args.only or group in self.args.only

    def guarded(self, rows: list[Row], body: Callable[[], None]) -> None:
        """Runs a group of measurements; a crash marks its rows failed instead of ending the run."""
        try:
            body()
        except Exception as error:  # noqa: BLE001 (report, keep measuring the rest)
            for row in rows:
                if not row.values and not row.skipped:
                    row.error = str(error)[:160]
        self.rows += rows

    # -- start-up ---------------------------------------------------------------------------

    def startup(self) -> None:
        limit = self.budget(50)
        version = Row("start-up: `--version`", "ms", kind="max", limit=limit, budget=f"≤ {limit:g} ms",
                      floor_name="/bin/true")
        repl = Row("start-up: REPL to first prompt (`resume` of a one-turn session, piped `/quit`)", "ms", kind="max", limit=limit,
                   budget=f"≤ {limit:g} ms", floor_name="/bin/true")

        def body() -> None:
            self.progress("start-up")
            env = base_env(self.home("startup"))
            true = shutil.which("true") or "/bin/true"
            version.floor = repl.floor = self.repeat(lambda: must(run([true], env), "true").wall_ns / 1e6)
            version.values = self.repeat(
                lambda: must(run([self.binary, "--version"], env), "--version").wall_ns / 1e6)
            # A saved one-turn session reopened: the REPL reads the transcript, shows its prompt, reads
            # `/quit` and exits; no request is made. (A new session with no key stops before any
            # prompt with the three ways on, so it is not a REPL start.)
            one_home = self.home("startup-session")
            one_id = write_fixture(self.fixture, "big", Path(one_home), 1)
            env_one = base_env(one_home)
            args = [self.binary, "resume", one_id]
            repl.values = self.repeat(lambda: must(run(args, env_one, stdin=b"/quit\n"), "REPL").wall_ns / 1e6)

        self.guarded([version, repl], body)

    # -- standards --------------------------------------------------------------------------

    def standards(self) -> None:
        """`lessonplan standards`: one code, an invented one with its nearest real codes, and a search, each a
        whole process (the catalogue is read on first use), against `--version`, which reads no catalogue."""
        limit = self.budget(150)
        one = Row("standards: one code (`standards 4.NF.1`)", "ms", kind="max", limit=limit,
                  budget=f"≤ {limit:g} ms", floor_name="--version")
        invented = Row("standards: an invented code and its nearest (`standards 4.NF.9`)", "ms", kind="max",
                       limit=limit, budget=f"≤ {limit:g} ms", floor_name="--version")
        search = Row("standards: search (`standards search photosynthesis --grade 7`)", "ms", kind="max",
                     limit=limit, budget=f"≤ {limit:g} ms", floor_name="--version")

        def body() -> None:
            self.progress("standards")
            env = base_env(self.home("standards"))
            floor = self.repeat(lambda: must(run([self.binary, "--version"], env), "--version").wall_ns / 1e6)
            one.floor = invented.floor = search.floor = floor
            one.values = self.repeat(
                lambda: must(run([self.binary, "standards", "4.NF.1"], env), "standards").wall_ns / 1e6)
            # Exit status 1 (not a standard) is the expected answer here, so it is timed without `must`.
            invented.values = self.repeat(lambda: run([self.binary, "standards", "4.NF.9"], env).wall_ns / 1e6)
            search.values = self.repeat(lambda: must(
                run([self.binary, "standards", "search", "photosynthesis", "--grade", "7"], env), "search").wall_ns / 1e6)

        self.guarded([one, invented, search], body)

    # -- aimed refinement -------------------------------------------------------------------

    def redo(self) -> None:
        """`/redo warm-up …` against the whole-plan `/revise` it replaces, through the project's scripted server
        (Tests/TestSupport/fake_openai.py, which answers a section redo with that section alone and reports
        usage as a model does): request bytes, output tokens and the command's time."""
        redo_out = Row("aimed refinement: `/redo warm-up …` output tokens", "tok")
        revise_out = Row("aimed refinement: `/revise` of the whole plan, output tokens", "tok")
        redo_in = Row("aimed refinement: `/redo` request bytes", "B")
        revise_in = Row("aimed refinement: `/revise` request bytes", "B")
        share = Row("aimed refinement: `/redo`'s output as a share of `/revise`'s", "x", kind="max", limit=0.5,
                    budget="≤ 0.5")
        redo_time = Row("aimed refinement: `generate --then /redo …`, whole command", "ms")
        revise_time = Row("aimed refinement: `generate --then /revise …`, whole command", "ms")
        rows = [redo_out, revise_out, share, redo_in, revise_in, redo_time, revise_time]
        fake = HERE.parent / "Tests" / "TestSupport" / "fake_openai.py"

        def body() -> None:
            self.progress("aimed refinement: /redo against /revise")
            server = subprocess.Popen([sys.executable, str(fake), "--exit-with-stdin"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            try:
                assert server.stdout is not None
                port = int(server.stdout.readline().split()[1])
                base = f"http://127.0.0.1:{port}"

                def once(then: str) -> tuple[float, int, int]:
                    home = Path(tempfile.mkdtemp(dir=self.work, prefix="redo-"))
                    env = {**base_env(str(home)), "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": base + "/v1"}
                    urllib.request.urlopen(urllib.request.Request(base + "/__reset", data=b"", method="POST")).read()
                    result = must(run([self.binary, "generate", "--grade", "4", "--topic", "Tides", "--minutes", "45",
                                       "--no-repair", "--then", then], env), then)
                    sent = json.loads(urllib.request.urlopen(base + "/__requests").read())
                    body = sent[-1].get("body") or {}
                    request_bytes = len(json.dumps(body.get("input"), ensure_ascii=False).encode())
                    output = 0
                    for path in (home / "sessions").glob("*.jsonl"):
                        ended = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                                 if '"turn_ended"' in line]
                        output = ((ended[-1].get("usage") or {}).get("output_tokens") or 0) if ended else 0
                    return result.wall_ns / 1e6, request_bytes, output

                for _ in range(self.runs):
                    wall, sent_bytes, tokens = once("/redo warm-up more hands-on with tide pools")
                    redo_time.values.append(wall)
                    redo_in.values.append(sent_bytes)
                    redo_out.values.append(tokens)
                    wall, sent_bytes, tokens = once("/revise make the warm-up more hands-on with tide pools")
                    revise_time.values.append(wall)
                    revise_in.values.append(sent_bytes)
                    revise_out.values.append(tokens)
                share.values = [r / w for r, w in zip(redo_out.values, revise_out.values) if w]
                share.note = "the scripted server's usage (characters / 4), one lesson of 45 minutes"
            finally:
                if server.stdin:
                    server.stdin.close()
                server.wait(timeout=10)

        self.guarded(rows, body)

    # -- first token ------------------------------------------------------------------------

    def first_token(self) -> None:
        limit = self.budget(5)
        row = Row("first token: server's first delta → first byte on stdout", "ms", kind="over", limit=limit,
                  budget=f"≤ curl + {limit:g} ms", floor_name="curl")

        def body() -> None:
            self.progress("first token")
            scenario = f"d{PLAN_DELTAS}p50"
            self.server.prepare(PLAN_DELTAS)
            env = base_env(self.home("first-token"))
            env.update({"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": self.server.base(scenario)})
            args = [self.binary, "--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--no-repair"]

            def tool() -> float:
                self.server.reset()
                result = must(run(args, env, stdin=b"/quit\n", capture=True), "REPL")
                sent = self.server.log()[-1]["first_delta_ns"]
                if result.first_byte_ns is None:
                    raise RuntimeError("the REPL wrote nothing to stdout")
                return (result.first_byte_ns - sent) / 1e6

            def curl() -> float:
                self.server.reset()
                result = must(run(curl_cmd(self.server.base(scenario) + "/responses"), env, capture=True), "curl")
                sent = self.server.log()[-1]["first_delta_ns"]
                seen = b""
                for stamp, chunk in result.chunks:
                    seen += chunk
                    if DELTA_MARK in seen:
                        return (stamp - sent) / 1e6
                raise RuntimeError("curl saw no delta")

            row.floor = self.repeat(curl)
            row.values = self.repeat(tool)
            row.note = "the server pauses 50 ms after the opening events, then stamps and writes the first delta"

        self.guarded([row], body)

    # -- stream throughput and its memory ---------------------------------------------------

    def throughput(self) -> None:
        limit = self.budget(5)
        n = self.stream_deltas
        row = Row(f"stream: {n:,} deltas, `generate > /dev/null`", "s", kind="ratio", limit=limit,
                  budget=f"≤ {limit:g}× curl", floor_name="curl -N")
        memory = Row(f"memory: peak RSS, {n:,}-delta stream", "MiB", kind="max", limit=40,
                     budget="≤ 40 MiB")

        def body() -> None:
            self.progress(f"stream throughput ({n:,} deltas)")
            scenario = f"d{n}"
            self.server.prepare(n)
            env = base_env(self.home("stream"))
            env.update({"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": self.server.base(scenario)})
            sizes: list[int] = []

            def curl() -> float:
                cmd = curl_cmd(self.server.base(scenario) + "/responses", "/dev/null") + ["-w", "%{size_download}"]
                result = must(run(cmd, env, capture=True), "curl")
                sizes.append(int(result.stdout or b"0"))
                return result.wall_ns / 1e9

            rss: list[float] = []

            def tool() -> float:
                args = [self.binary, "generate", "--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--no-repair"]
                result = must(run(args, env), "generate")
                rss.append(result.maxrss_kib / 1024)
                return result.wall_ns / 1e9

            row.floor = self.repeat(curl)
            row.values = self.repeat(tool)
            memory.values = rss[1:]
            row.note = f"{sizes[-1] / 1e6:.1f} MB of SSE"

        self.guarded([row, memory], body)

    # -- long session -----------------------------------------------------------------------

    REFINEMENTS = [
        "add a two-minute think-pair-share after the direct instruction",
        "/differentiate ell",
        "/shorten 40",
        "make the exit ticket questions more concrete",
        "/lengthen 45",
        "/differentiate advanced",
    ]

    def long_session(self) -> None:
        turns = self.session_turns
        # Single turns take a few ms and one fsync can double one, so each end is the median of
        # a window of turns: 2–21 and 181–200 for 200 turns.
        window = 20 if turns >= 100 else 5
        late = f"{turns - window + 1}–{turns}" if window > 1 else str(turns)
        early = f"2–{1 + window}" if window > 1 else "2"
        limit = self.budget(1.2)
        wall = Row(f"long session: turn time, turns {late} vs {early} ({turns} turns)", "x", kind="max",
                   limit=limit, budget=f"≤ {limit:g}")
        tokens = Row(f"long session: input bytes, turn {turns} vs turn 2", "x", kind="max", limit=1.2,
                     budget="≤ 1.2")
        memory = Row(f"memory: peak RSS, REPL through {turns} turns", "MiB", kind="max", limit=40,
                     budget="≤ 40 MiB")

        def body() -> None:
            self.progress(f"long session ({turns} turns)")
            scenario = f"d{PLAN_DELTAS}"
            self.server.prepare(PLAN_DELTAS)
            # Turn k ≥ 2 types REFINEMENTS[(k − 2) % 6], so turn 2 and the last turn type the same
            # kind of line whenever (turns − 2) is a multiple of 6 (200 and 50 both are).
            lines = [self.REFINEMENTS[i % len(self.REFINEMENTS)] for i in range(turns - 1)] + ["/quit"]
            stdin = ("\n".join(lines) + "\n").encode()
            args = [self.binary, "--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--no-repair"]
            early_ms: list[float] = []
            late_ms: list[float] = []
            rss: list[float] = []
            inputs: list[int] = []

            def once() -> float:
                env = base_env(tempfile.mkdtemp(dir=self.home("session")))
                env.update({"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": self.server.base(scenario)})
                self.server.reset()
                result = must(run(args, env, stdin=stdin, capture=True, timeout=900), "REPL session")
                ends = footer_times(result.chunks)
                if len(ends) != turns:
                    raise RuntimeError(f"expected {turns} turn footers on stdout, saw {len(ends)}")
                log = self.server.log()
                if len(log) != turns:
                    raise RuntimeError(f"expected {turns} requests, the server saw {len(log)}")
                inputs[:] = [entry["input_bytes"] for entry in log]
                per_turn = [(b - a) / 1e6 for a, b in zip(ends, ends[1:])]  # per_turn[0] is turn 2
                first = statistics.median(per_turn[:window])
                last = statistics.median(per_turn[-window:])
                early_ms.append(first)
                late_ms.append(last)
                rss.append(result.maxrss_kib / 1024)
                return last / first

            wall.values = self.repeat(once)
            del early_ms[0], late_ms[0], rss[0]
            memory.values = rss
            tokens.values = [inputs[-1] / inputs[1]]
            wall.note = (f"median turn {early}: {statistics.median(early_ms):.1f} ms, "
                         f"turn {late}: {statistics.median(late_ms):.1f} ms (end of one footer to the next)")
            tokens.note = f"turn 2: {inputs[1]:,} bytes of input, turn {turns}: {inputs[-1]:,} bytes"

        self.guarded([wall, tokens, memory], body)

    # -- transcripts ------------------------------------------------------------------------

    def transcripts(self) -> None:
        m, n = self.listed_sessions, self.replay_turns
        specs = [
            ("sessions", f"`sessions` over {m:,} saved sessions", 200),
            ("replay", f"`replay --plain` of a {n:,}-turn session", 1000),
            ("resume", f"`resume` of a {n:,}-turn session (piped `/quit`)", 300),
        ]
        rows = {}
        for command, name, limit_ms in specs:
            limit = self.budget(limit_ms)
            rows[command] = Row(name, "ms", kind="max", limit=limit, budget=f"≤ {limit:g} ms")

        def body() -> None:
            env = base_env(self.home("help"))
            available = {command: run([self.binary, "help", command], env).status == 0 for command in rows}
            for command, row in rows.items():
                if not available[command]:
                    row.skipped = f"not available in this build (`lessonplan help {command}` fails)"
            if not any(available.values()):
                return
            self.progress(f"transcripts ({m:,} sessions, {n:,} turns)")
            many = self.home("many-sessions")
            write_fixture(self.fixture, "sessions", Path(many), m)
            big_home = self.home("big-session")
            big_id = write_fixture(self.fixture, "big", Path(big_home), n)
            size = (Path(big_home) / "sessions" / f"{big_id}.jsonl").stat().st_size
            if available["sessions"]:
                env_many = base_env(many)
                rows["sessions"].values = self.repeat(
                    lambda: must(run([self.binary, "sessions"], env_many), "sessions").wall_ns / 1e6)
            env_big = base_env(big_home)
            if available["replay"]:
                rows["replay"].values = self.repeat(
                    lambda: must(run([self.binary, "replay", "--plain", big_id], env_big),
                                 "replay").wall_ns / 1e6)
                rows["replay"].note = f"{size / 1e6:.1f} MB transcript"
            if available["resume"]:
                rows["resume"].values = self.repeat(
                    lambda: must(run([self.binary, "resume", big_id], env_big, stdin=b"/quit\n"),
                                 "resume").wall_ns / 1e6)

        self.guarded(list(rows.values()), body)

    # -- the offline model ------------------------------------------------------------------

    def installed_model(self) -> tuple[str, str]:
        """The offline model scripts/local-model installed, as its stamp names it: (`1.5b` or `tiny`, its name)."""
        env = self.offline_env()
        data = Path(env.get("LESSONPLAN_HOME") or Path(env.get("XDG_DATA_HOME") or Path.home() / ".local/share") / "lessonplan")
        try:
            words = (data / "local-model" / "install.stamp").read_text(encoding="utf-8").splitlines()[0].split(" ")
        except (OSError, IndexError):
            return "tiny", "SmolLM2-135M-Instruct"
        return (words[1], words[2]) if len(words) == 3 and words[0] == "model:" else ("tiny", "SmolLM2-135M-Instruct")

    def offline(self) -> None:
        """First plans from the real offline model on fixed topics: structured and free text side by side, the
        server's resident memory after them, and a fresh install's time."""
        n = len(OFFLINE_TOPICS)
        choice, name = self.installed_model()
        limit = 90 if choice == "1.5b" else 60
        structured_pass = Row(f"offline ({name}), structured: first plans passing the check ({n} topics)", f"/{n}",
                              kind="min", limit=n, budget=f"= {n}/{n}")
        structured_time = Row(f"offline ({name}), structured: seconds per plan", "s", kind="max", limit=limit,
                              budget=f"≤ {limit} s")
        free_pass = Row(f"offline ({name}), free text: first plans passing the check ({n} topics)", f"/{n}")
        free_time = Row(f"offline ({name}), free text: seconds per plan", "s")
        memory = Row(f"offline ({name}): the server's resident memory after the plans", "MiB")
        install = Row(f"offline: `scripts/local-model install --model {choice}` into a new data directory", "s",
                      kind="max", limit=300, budget="≤ 300 s")
        rows = [structured_pass, structured_time, free_pass, free_time, memory, install]
        wanted = self.args.offline or bool(self.args.only and "offline" in self.args.only)
        script = HERE / "local-model"
        env = self.offline_env()
        port = env.setdefault("LESSONPLAN_LOCAL_PORT", "8012")
        if not wanted:
            for row in rows:
                row.skipped = "opt-in: scripts/bench --offline (about 20 min on 2 cores)"
            self.rows += rows
            return
        status = run([str(script), "status"], env)
        if b"not installed" in status.stderr:
            for row in rows:
                row.skipped = "the offline model is not installed (scripts/local-model install)"
            self.rows += rows
            return

        def body() -> None:
            started_here = status.status != 0
            if started_here:
                must(run([str(script), "start"], env, timeout=120), "local-model start")
            try:
                self.progress("offline model: one warm-up plan")
                self.offline_plan("K–2", "Shapes around us", [], port)
                for path, passed, seconds, extra in [("structured", structured_pass, structured_time, []),
                                                     ("free text", free_pass, free_time, ["--free-text"])]:
                    passes = 0
                    for index, (band, topic) in enumerate(OFFLINE_TOPICS):
                        self.progress(f"offline model, {path}: {index + 1}/{n} {band} {topic}")
                        ok, wall = self.offline_plan(band, topic, extra + ["--model", name], port)
                        passes += ok
                        seconds.values.append(wall)
                    passed.values = [passes]
                    seconds.note = f"{n} topics across the four bands, 45 minutes, one plan each, `--no-repair`"
                memory.values = [resident_mib(env)]
            finally:
                if started_here:
                    run([str(script), "stop"], env)
            self.progress(f"offline model: a fresh install of {choice}")
            fresh = {**env, "LESSONPLAN_HOME": tempfile.mkdtemp(dir=self.work, prefix="install-")}
            install.values = [must(run([str(script), "install", "--model", choice], fresh, timeout=1800),
                                   "local-model install").wall_ns / 1e9]
            install.note = "pip's wheel cache as the machine has it; the new data directory is removed after"
            shutil.rmtree(fresh["LESSONPLAN_HOME"], ignore_errors=True)

        self.guarded(rows, body)

    def offline_env(self) -> dict[str, str]:
        """This environment without proxies, with the offline model's data directory if one was given."""
        env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
        env.update({"NO_PROXY": "*", "no_proxy": "*"})
        if self.args.offline_home:
            env["LESSONPLAN_HOME"] = self.args.offline_home
        return env

    def offline_busy(self) -> None:
        """Ten first plans with two CPU-bound processes on the same 2 cores (`scripts/local-load-test --busy 2`),
        before (llama.cpp's defaults: a thread per core, waits that spin) and after (as scripts/local-model runs
        it: one thread, waits that sleep)."""
        before = Row("offline, busy (2 × `yes`), llama.cpp's defaults (2 threads, spinning waits): seconds per plan", "s")
        after = Row("offline, busy (2 × `yes`), as shipped (1 thread, sleeping waits): seconds per plan", "s")
        choice, name = self.installed_model()
        limit = 90 if choice == "1.5b" else 60
        slowest = Row(f"offline ({name}), busy (2 × `yes`), as shipped: slowest of ten plans", "s", kind="max",
                      limit=limit, budget=f"≤ {limit} s")
        rows = [before, after, slowest]
        if not (self.args.offline or bool(self.args.only and "offline-busy" in self.args.only)):
            for row in rows:
                row.skipped = "opt-in: scripts/bench --offline (or --only offline-busy; about 20 min)"
            self.rows += rows
            return

        def load(row: Row, extra: list[str]) -> list[float]:
            self.progress(f"offline model under load: {' '.join(extra) or 'as shipped'}")
            script = [str(HERE / "local-load-test"), "--busy", "2", "--json", *extra]
            result = run(script, {**self.offline_env(), "LESSONPLAN_LOCAL_PORT": "18014"}, capture=True, timeout=3600)
            report = json.loads(result.stdout.decode().strip().splitlines()[-1])
            row.values = report["seconds"]
            row.note = (f"ten grade 7 topics, 45 minutes, `--no-repair`; {len(report['topics']) - len(report['failed'])}"
                        f"/{len(report['topics'])} finished (a plan not done in 300 s counts as 300 s)")
            return report["seconds"]

        def body() -> None:
            load(before, ["--threads", "2", "--poll", "50"])
            slowest.values = [max(load(after, []))]

        self.guarded(rows, body)

    def offline_plan(self, band: str, topic: str, extra: list[str], port: str) -> tuple[bool, float]:
        """One `generate --local` plan: whether its first plan passed the check, and its wall time in seconds."""
        home = Path(tempfile.mkdtemp(dir=self.work, prefix="offline-"))
        env = base_env(str(home))
        env["LESSONPLAN_LOCAL_PORT"] = port
        args = [self.binary, "generate", "--local", "--grade", band, "--topic", topic, "--minutes", "45",
                "--no-repair", *extra]
        result = run(args, env, timeout=900)
        passed = False
        for path in (home / "sessions").glob("*.jsonl"):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record.get("type") == "turn_ended":
                    passed = bool((record.get("check") or {}).get("passed"))
        return passed and result.status == 0, result.wall_ns / 1e9

    # -- peers ------------------------------------------------------------------------------

    def peers(self) -> None:
        row = Row("peer: `llm openai endpoint --responses`, one plan", "ms", kind="max",
                  floor_name="lessonplan")
        llm = shutil.which("llm")
        if not llm:
            row.skipped = "`llm` (PyPI) is not installed"
            self.rows.append(row)
            return

        def body() -> None:
            self.progress("peer: llm")
            scenario = f"d{PLAN_DELTAS}"
            self.server.prepare(PLAN_DELTAS)
            env = base_env(self.home("peer"))
            env.update({"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": self.server.base(scenario),
                        "LLM_USER_PATH": self.home("peer-llm")})
            peer = [llm, "openai", "endpoint", self.server.base(scenario), "Create a lesson plan.",
                    "-m", "gpt-5.2", "--responses", "--key", KEY]
            ours = [self.binary, "generate", "--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--no-repair"]
            row.values = self.repeat(lambda: must(run(peer, env, capture=True), "llm").wall_ns / 1e6)
            row.floor = self.repeat(lambda: must(run(ours, env), "generate").wall_ns / 1e6)
            row.note = "one plan-sized answer each, process start to exit; vs floor = llm ÷ lessonplan"

        self.guarded([row], body)

    # -- all --------------------------------------------------------------------------------

    def run_all(self) -> int:
        try:
            for group, step in [("startup", self.startup), ("standards", self.standards), ("redo", self.redo),
                                ("first-token", self.first_token),
                                ("stream", self.throughput), ("session", self.long_session),
                                ("transcripts", self.transcripts), ("peers", self.peers),
                                ("offline", self.offline), ("offline-busy", self.offline_busy)]:
                if self.wanted(group):
                    step()
        finally:
            self.server.stop()
            if not self.args.keep:
                shutil.rmtree(self.work, ignore_errors=True)
        failed = [row for row in self.rows if row.result == "FAIL"]
        machine = describe_machine()
        if self.args.json:
            print(json.dumps({"quick": self.quick, "runs": self.runs, "margin": self.margin, "machine": machine,
                              "rows": [row.as_json() for row in self.rows], "passed": not failed}, indent=2))
        else:
            print(table(self.rows))
            print()
            for row in self.rows:
                if row.note:
                    print(f"- {row.name}: {row.note}")
            print(f"- {self.runs} runs per row after one warm-up; {machine}")
            if self.quick:
                print(f"- quick mode: smaller sizes, time budgets ×{self.margin:g}")
            print("FAILED: " + "; ".join(row.name for row in failed) if failed else "all budgets met")
        return 1 if failed else 0


def resident_mib(env: dict[str, str]) -> float:
    """The running offline server's resident memory (VmRSS) in MiB, from its pid file in the data directory."""
    data = Path(env.get("LESSONPLAN_HOME") or Path(env.get("XDG_DATA_HOME") or Path.home() / ".local/share") / "lessonplan")
    pid = (data / "local-model" / "llama-server.pid").read_text(encoding="utf-8").split()[0]
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("the server's memory could not be read")


def footer_times(chunks: list[tuple[int, bytes]]) -> list[int]:
    """When each turn's footer line (`── v3 · …`) was read from the REPL's stdout."""
    times: list[int] = []
    pending = b""
    for stamp, chunk in chunks:
        pending += chunk
        lines = pending.split(b"\n")
        pending = lines.pop()
        times += [stamp for line in lines if line.startswith(FOOTER)]
    return times


def describe_machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({cpu}), {os.uname().sysname} {os.uname().release}"


# --------------------------------------------------------------------------------------------
# Transcript fixtures, written by lessonplan's own transcript writer (Sources/lessonplan-bench-fixture)
# --------------------------------------------------------------------------------------------

# The offline rows' topics: ten across the four bands, the same for both paths.
OFFLINE_TOPICS = [("K–2", "Counting to 20"), ("K–2", "What plants need"), ("3–5", "Fractions on a number line"),
                  ("3–5", "The water cycle"), ("3–5", "Multiplying by 10"), ("6–8", "Photosynthesis"),
                  ("6–8", "Ratios and rates"), ("6–8", "Plate tectonics"), ("9–12", "The French Revolution"),
                  ("9–12", "Writing a persuasive essay")]


def write_fixture(fixture: str, kind: str, home: Path, count: int) -> str:
    """Runs the fixture writer (`sessions` or `big`) over `home` with the server's plan text as
    the answer each turn revises; returns what it prints (the big session's id)."""
    sys.path.insert(0, str(HERE))
    from bench_server import PLAN  # noqa: PLC0415 (one source for the plan text)
    result = subprocess.run([fixture, kind, str(home), str(count)], input=PLAN.encode(), capture_output=True,
                            timeout=600, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"lessonplan-bench-fixture {kind} failed: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout.decode().strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the lessonplan binary to measure")
    parser.add_argument("--fixture", required=True,
                        help="the lessonplan-bench-fixture binary that writes the transcript fixtures")
    parser.add_argument("--quick", action="store_true", help="fewer runs, smaller sizes, time budgets ×3 (CI)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    parser.add_argument("--runs", type=int, help="timed runs per row (default 7; 3 with --quick)")
    parser.add_argument("--only", action="append",
                        choices=["startup", "standards", "redo", "first-token", "stream", "session", "transcripts", "peers", "offline",
                                 "offline-busy"],
                        help="run only this group (repeatable)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary data directories")
    parser.add_argument("--offline", action="store_true",
                        help="also measure plans from the offline model (scripts/local-model; about 20 min)")
    parser.add_argument("--offline-home", help="the data directory holding local-model/ (default: lessonplan's)")
    args = parser.parse_args()
    if args.runs is not None and args.runs < 1:
        parser.error("--runs must be at least 1")
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return Bench(args).run_all()


if __name__ == "__main__":
    sys.exit(main())
