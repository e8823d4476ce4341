#!/usr/bin/env python3
"""A scriptable fake of the OpenAI API on 127.0.0.1, for LessonPlanBuilder's tests.

Run it, read ``PORT <n>`` from the first line of stdout, then point the client at
``http://127.0.0.1:<n>/v1``. Python 3.11 standard library only; it never binds anything
but the loopback address.

Model endpoints (every request to them is recorded, see ``GET /__requests``):

* ``POST /v1/responses`` (and any path ending in ``/responses``, and ``/lessonplan`` like the
  original demo's proxy): the Responses API. With ``"stream": true`` it answers with the
  Responses SSE stream (``response.created`` ... ``response.completed``); without, one JSON
  response object.
* ``POST /v1/chat/completions``: Chat Completions, streamed as ``data: {...}`` chunks ending in
  ``data: [DONE]``, or one JSON object.

What a model request gets is decided by a queue of *steps*, one step per request, in order.
When the queue is empty the default step ``{"kind": "plan"}`` applies. Step kinds:

* ``plan``: a deterministic lesson plan under the ten headings, paced to the minutes in the
  request, with student-facing text worded for the requested grade band (see ``plan_text``); a
  prompt whose "Output format" lists other headings (another framework) gets a plan under those
  (see ``framework_plan_text``); a /standards prompt gets its standards quoted under the first
  section, a /materials prompt gets student handouts (``handouts_text``), a /quiz or /rubric
  prompt (or its repair) a quiz or rubric that passes its check (``quiz_text``, ``rubric_text``), a /review
  prompt one block per criterion quoting the plan (``review_text``), a unit's overview prompt (or its repair)
  the overview in the layout asked for, one titled lesson per number (``overview_text``), and a
  request that carries a JSON schema (structured outputs) gets a JSON answer for it (``schema_answer``). Options:
  ``delay_ms`` (pause before each delta).
* ``text``: streams exactly ``text``.
* ``slow``: ``plan`` with ``delay_ms`` (default 200) between deltas, for Ctrl-C tests.
* ``refusal``: the model declines with ``text`` (a ``refusal`` content part).
* ``incomplete``: streams ``text`` (default: the plan) then ends as incomplete with ``reason``
  (default ``max_output_tokens``).
* ``failed``: ``after_deltas`` deltas (default 0), then ``response.failed`` with ``message`` and
  ``code`` (default ``server_error``).
* ``error_event``: ``after_deltas`` deltas (default 0), then an ``error`` event with ``message``
  and ``code``; the stream then ends cleanly.
* ``error``: an HTTP error before any stream: ``status`` (default 500), ``headers``, and either
  ``body`` (an object sent as JSON, or a string sent as is) or ``message``/``type``/``code`` to
  fill OpenAI's ``{"error": {...}}`` shape; defaults depend on the status.
* ``html``: an HTML error page with ``status`` (default 502), like a proxy in front of the API.
* ``cut``: ``after_deltas`` deltas (default 3), then the connection drops without completing.
  ``"reset": true`` sends a TCP reset instead of a clean close.
* ``hang``: accepts the request and sends nothing for ``seconds`` (default 30), then closes.
  With ``after_deltas`` it first sends the head and that many deltas, then goes silent.
* ``drop``: closes the connection without sending any response at all.
* ``llama``: the plan the way llama.cpp's ``llama-server`` streams it: no ``sequence_number``,
  ``output_index`` or ``content_index``, no reasoning item, and a ``timings`` object at the end.
* ``raw``: sends ``body`` (a string, UTF-8; or ``body_base64`` for bytes that are not UTF-8)
  with ``status`` and ``headers``, written ``chunk_size`` bytes at a time (default: all at once)
  with ``delay_ms`` between writes. For byte-exact transport tests and hand-written SSE edge
  cases; with status 307 and a ``Location`` header, a redirect (to another server, say).

Hostile steps, for the client's bounds (each runs until the client hangs up):

* ``endless``: ``response.created``, then text deltas of ``delta_bytes`` (default 4096) forever,
  never completing: a model that does not stop.
* ``endless_line``: the head, then one ``data:`` line that never ends.
* ``huge_headers``: a 200 head with ``total_bytes`` (default 200000) of header lines, each
  ``line_bytes`` long (default 100: many lines; more than 100 KB: one line), then the plan.

Options every streaming step understands: ``framing`` (``"chunked"``, the default, or
``"close"``: no length, the body ends when the connection closes) and ``event_lines``
(``false`` leaves out the ``event:`` lines, so only the JSON ``type`` says what an event is).

Streams are written in many small writes, and every multi-byte UTF-8 character in them is split
across two writes with a flush and a short pause in between, so clients must reassemble bytes
before decoding. The default plan contains en dashes, curly quotes and an emoji for that reason.

Control API (never recorded, never consumes a step):

* ``POST /__script`` with a JSON list of steps (or ``{"steps": [...]}``): appends to the queue.
* ``GET /__requests``: every model request so far, oldest first: ``number`` (1-based),
  ``method``, ``path``, ``headers`` (names lower-cased), ``body`` (parsed JSON, or null with
  ``raw_body`` when it was not JSON), ``step`` (the kind that answered it) and ``client_closed``
  (true once the server saw the client hang up before the answer was complete).
* ``POST /__reset``: empties the queue and the log and restarts request numbering at 1.
* ``POST /__release``: lets a ``raw`` step with ``hold_after`` (N bytes written, then it waits)
  write the rest.
* ``GET /__health``: ``{"ok": true}``.

Flags: ``--port`` (default 0: an ephemeral port), ``--verbose`` (access log on stderr),
``--exit-with-stdin`` (exit when stdin reaches EOF, so the server dies with the test process
that started it even if that process is killed).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import re
import select
import socket
import struct
import sys
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

# The ten headings of prompts/headings.txt, in order; the default plan uses exactly these.
HEADINGS = [
    "Learning Objective",
    "Materials",
    "Warm-Up (5 min)",
    "Direct Instruction",
    "Guided Practice",
    "Independent Practice",
    "Differentiation",
    "Check for Understanding",
    "Exit Ticket",
    "Homework / Extension (optional)",
]

STEP_KINDS = {
    "plan", "text", "slow", "refusal", "incomplete", "failed", "error_event", "error", "html",
    "cut", "hang", "drop", "llama", "raw", "endless", "endless_line", "huge_headers",
}

DEFAULT_MODEL = "gpt-5.2"

# Pause after a write that ends inside a UTF-8 character, so the client is likely to see the
# two halves in separate reads rather than coalesced again by the kernel.
SPLIT_PAUSE_SECONDS = 0.002


# --------------------------------------------------------------------------------------------
# Shared state
# --------------------------------------------------------------------------------------------


class ServerState:
    """The step queue and the request log, shared by all handler threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: deque[dict[str, Any]] = deque()
        self._log: list[dict[str, Any]] = []
        # A ``raw`` step with ``hold_after`` waits here, after writing that many bytes, until
        # ``POST /__release``: a test then knows exactly which bytes its client had.
        self.released = threading.Event()

    def enqueue(self, steps: list[dict[str, Any]]) -> int:
        with self._lock:
            self._queue.extend(steps)
            return len(self._queue)

    def record(self, entry: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Logs a model request and hands it the next step; returns its number and step."""
        with self._lock:
            step = self._queue.popleft() if self._queue else {"kind": "plan"}
            number = len(self._log) + 1
            entry["number"] = number
            entry["step"] = step.get("kind", "plan")
            entry["client_closed"] = False
            self._log.append(entry)
            return number, step

    def record_without_step(self, entry: dict[str, Any]) -> int:
        """Logs a request that is rejected before any step applies (bad JSON, unknown path)."""
        with self._lock:
            number = len(self._log) + 1
            entry["number"] = number
            entry["step"] = None
            self._log.append(entry)
            return number

    def note_client_closed(self, entry: dict[str, Any]) -> None:
        with self._lock:
            entry["client_closed"] = True

    def requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return json.loads(json.dumps(self._log))  # a snapshot, safe to serialize unlocked

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self._log.clear()


# --------------------------------------------------------------------------------------------
# What the fake model "writes"
# --------------------------------------------------------------------------------------------


def request_text(body: dict[str, Any]) -> str:
    """The prompt text a request carries: its last user message, else everything it says."""
    items: list[Any]
    if "messages" in body:
        items = body.get("messages") or []
    else:
        items = body.get("input") if isinstance(body.get("input"), list) else [body.get("input")]

    def text_of(content: Any) -> str:
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "\n".join(text_of(part) for part in content)
        if isinstance(content, dict):
            if isinstance(content.get("text"), str):
                return content["text"]
            return text_of(content.get("content"))
        return ""

    user_texts = [text_of(item) for item in items if isinstance(item, dict) and item.get("role") == "user"]
    if user_texts:
        return user_texts[-1]
    return "\n".join(text_of(item) for item in items)


def find_minutes(text: str) -> int:
    """The lesson length a prompt asks for; the target of a rewrite wins over the old length."""
    patterns = [
        r"Duration:\s*(\d+)\s*minutes",
        r"\bin (\d+) minutes instead of",
        r"total of (\d+) minutes",
        r"\bin (\d+) minutes",
        r"(\d+)-minute",
        r"(\d+)\s*minutes",
    ]
    for pattern in patterns:
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            return int(match.group(1))
    return 45


def find_grade_band(text: str) -> str:
    """The grade band a prompt asks for, as written there; the target of a regrade wins."""
    # "grade 4 (band 3–5)" or "grades 3–5", as prompts/ write {{grade_level}}; older wording after.
    level = r"(?:grade \S+ \(band ([^)\s]+)\)|grades ([^\s,.;:)]+))"
    patterns = [
        r"Rewrite it for " + level,
        r"Grade:\s*" + level,
        r"lesson on .+? for " + level,
        r"for grade band\s+([^\s,.;]+)",
        r"Grade band:\s*([^\n]+)",
        r"-minute\s+(\S+)\s+lesson",
    ]
    for pattern in patterns:
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            found = next(group for group in match.groups() if group)
            return found.strip().rstrip(".,;")
    return "6–8"


def find_topic(text: str) -> str:
    match = (
        re.search(r"Topic:\s*([^\n]+)", text)
        or re.search(r"lesson on (.+?) for grades? .+?:\s*$", text, re.MULTILINE)
        or re.search(r"lesson on (.+?):\s*$", text, re.MULTILINE)
    )
    return match.group(1).strip() if match else "the topic"


def pacing(minutes: int) -> list[int]:
    """Minutes for Direct Instruction, Guided/Independent Practice, CFU and Exit Ticket.

    Together with the 5-minute warm-up they add up to exactly ``minutes`` (at least 10).
    """
    rest = max(minutes, 10) - 5
    weights = [0.3, 0.25, 0.25, 0.1, 0.1]
    parts = [max(1, int(rest * w)) for w in weights]
    parts[2] += rest - sum(parts)  # Independent Practice absorbs the rounding.
    return parts


# What students read in the default plan, worded for each grade band so that its Flesch–Kincaid
# grade lands in the band's expected range (K–2 up to 2.5, 3–5 2–5.5, 6–8 6–10, 9–12 8–14):
# the fake "model" obeys a /regrade, so only a scripted plan triggers the reading-level retry.
STUDENT_TEXT = {
    "young": {
        "guided": "In pairs, students do two examples. The teacher walks around and helps.",
        "independent": "Students do three practice items on their own.",
        "cfu": ["What is the big idea today?", "How does the example show it?", "Where can you see it at home?"],
        "exit": ["One idea I learned…", "One question I have…", "One way I can use this…"],
    },
    "middle": {
        "guided": "In pairs, students work through two examples while the teacher circulates.",
        "independent": "Students complete three practice items on their own.",
        "cfu": ["What is the main idea of {topic}?", "How does the worked example show it?",
                "Where could you see this outside school?"],
        "exit": ["One key idea I learned…", "One question I still have…", "One way I could use this…"],
    },
    "older": {
        "guided": "In pairs, students analyze two examples and explain each relationship while the "
                  "teacher circulates and questions their reasoning.",
        "independent": "Students solve three problems on their own and justify each answer with evidence.",
        "cfu": ["What principle explains the results of the demonstration?",
                "How does the worked example illustrate that principle?",
                "Where could you recognize this process outside the classroom?"],
        "exit": ["One important idea I understood today…",
                 "One question I still have about the explanation…",
                 "One situation where I could use this understanding…"],
    },
}


def student_text(grade: str) -> dict[str, Any]:
    """The wording of the student-facing lines for a grade band as the prompt writes it."""
    if grade.upper().startswith("K"):
        return STUDENT_TEXT["young"]
    if grade.startswith("6") or grade.startswith("9"):
        return STUDENT_TEXT["older"]
    return STUDENT_TEXT["middle"]


def find_headings(text: str) -> list[str]:
    """The numbered headings under "Output format" in a prompt, or the ten default ones."""
    match = re.search(r"Output format[^\n]*\n((?:\d+\) [^\n]+\n?)+)", text)
    if not match:
        return HEADINGS
    return [re.sub(r"^\d+\) ", "", line).strip() for line in match.group(1).splitlines() if line.strip()]


# What students do in each section of another framework's plan: a different observable verb each.
FRAMEWORK_ACTIONS = [
    "predict what they will learn about", "identify two examples of", "explain in their own words",
    "compare two cases of", "apply to a new problem what they know of", "sort examples and non-examples of",
    "sketch a labelled model of", "summarize for a partner what they found about",
    "write two sentences of their own about", "ask and answer one new question on", "choose and defend one claim on",
]


def find_roles(text: str) -> tuple[str | None, str | None]:
    """The headings a prompt's rules name for the CFU questions and the exit ticket, if any."""
    cfu = (re.search(r"Under (.+?), provide at least \d+ CFU questions", text)
           or re.search(r"^- ([^:\n]+):[^\n]*at least \d+ numbered questions", text, re.MULTILINE))
    exit_ticket = re.search(r"Under (.+?), provide an exit ticket", text)
    return (cfu.group(1) if cfu else None, exit_ticket.group(1) if exit_ticket else None)


def framework_plan_text(number: int, headings: list[str], grade: str, minutes: int, topic: str,
                        roles: tuple[str | None, str | None] = (None, None)) -> str:
    """A plan under any other framework's headings that passes its check.

    The first section takes 5 minutes (a framework's warm-up comes first), the rest share the
    remaining time. The heading the prompt's rules name for CFU questions asks three numbered
    questions and the one named for the exit ticket has exactly three prompts; every other section
    says what students do in it, in its own words, so the content check finds nothing repeated.
    """
    minutes = max(minutes, 10)
    rest = minutes - 5
    others = len(headings) - 1
    shares = [rest // others] * others if others else []
    if shares:
        shares[-1] += rest - sum(shares)
    times = [5] + shares if others else [minutes]
    words = student_text(grade)
    cfu, exit_ticket = roles
    lines: list[str] = []
    for index, (heading, length) in enumerate(zip(headings, times)):
        action = FRAMEWORK_ACTIONS[index % len(FRAMEWORK_ACTIONS)]
        lines += [f"{heading} ({length} min)", f"- Step {index + 1}: students {action} {topic}."]
        if heading == cfu:
            lines += [f"{n}. {question.format(topic=topic)}" for n, question in enumerate(words["cfu"], start=1)]
        elif heading == exit_ticket:
            lines += [f"{n}. {prompt.rstrip('…')} about {topic}…" for n, prompt in enumerate(words["exit"], start=1)]
        lines.append("")
    lines.append(f"Plan #{number} — grade band {grade}, {minutes} minutes in total.")
    return "\n".join(lines)


def find_standards(text: str) -> list[str]:
    """The standards a /standards prompt asks the plan to align to (one per line or per ";")."""
    match = re.search(r"Align the plan to these standards:\n(.+?)\n\n", text, re.DOTALL)
    if not match:
        return []
    return [part.strip() for part in re.split(r"[;\n]", match.group(1)) if part.strip()]


def handouts_text(number: int, grade: str, topic: str) -> str:
    """What a /materials prompt gets: student handouts with nothing for the teacher in them."""
    words = student_text(grade)
    lines = [f"{topic} — student handout", "Name: ______________   Date: __________", "", "Practice",
             f"1. {words['independent']}", "", "Check your understanding"]
    lines += [f"{n}. {q.format(topic=topic)}" for n, q in enumerate(words["cfu"], start=1)]
    lines += ["", "Exit ticket"]
    lines += [f"{n}. {p}" for n, p in enumerate(words["exit"], start=1)]
    lines += ["", f"Handout #{number} — grade band {grade}."]
    return "\n".join(lines)


def quiz_text(prompt: str, topic: str) -> str | None:
    """What a /quiz prompt (or its repair) gets: a quiz of the asked kind and size that passes the check, each
    wrong answer with its misconception (for the teacher) and its feedback (for the student). A test that wants a
    quiz without feedback scripts it as a ``text`` step."""
    if "quiz of exactly" not in prompt and "quiz you wrote" not in prompt:
        return None
    kind = "starter" if "starter quiz" in prompt else "exit"
    match = re.search(r"exactly (\d+) (?:multiple-choice )?items", prompt)
    items = int(match.group(1)) if match else 5
    lines = [f"Quiz: {kind}", "Misconceptions:", f"- {topic} happens only once a year.", ""]
    for n in range(1, items + 1):
        key = "ABC"[n % 3]
        lines.append(f"{n}. Question {n} on {topic}: which idea is right?")
        lines += [f"{letter}) " + (f"The right idea {n}" if letter == key else f"Wrong idea {letter}{n}") for letter in "ABC"]
        lines.append(f"Answer: {key}")
        for letter in "ABC":
            if letter != key:
                lines.append(f"Misconception {letter}: a student who picks {letter} mixes up idea {n}.")
                lines.append(f"Feedback {letter}: You mixed up idea {n}; look again at how it differs from the others.")
        lines.append("")
    return "\n".join(lines)


def rubric_text(prompt: str, topic: str) -> str | None:
    """What a /rubric prompt (or its repair) gets: a rubric with the asked levels and a student version."""
    if "Write a rubric" not in prompt and "rubric you wrote" not in prompt:
        return None
    match = re.search(r"\| Criterion \| (.*) \|", prompt)
    header = match.group(1) if match else "Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4)"
    levels = [level.strip() for level in header.split("|")]
    rule = " | ".join(["---"] * (len(levels) + 1))
    lines = [f"Rubric: {topic} poster", f"| Criterion | {header} |", f"| {rule} |"]
    for criterion in ("Explains the idea", "Uses vocabulary", "Gives an example"):
        lines.append(f"| {criterion} | " + " | ".join(f"{criterion} at {level}" for level in levels) + " |")
    lines += ["", "Student version:", f"| I can … | {header} |", f"| {rule} |"]
    for criterion in ("I can explain", "I can use the words", "I can give an example"):
        lines.append(f"| {criterion} | " + " | ".join(f"{criterion}: {level}" for level in levels) + " |")
    return "\n".join(lines)


def review_text(prompt: str) -> str | None:
    """What a /review prompt gets: one block per criterion it lists, each quoting a line of the plan word for word."""
    if "Review this plan for the teacher" not in prompt:
        return None
    plan = prompt.split("<<<PLAN\n", 1)[-1].split("\nPLAN>>>", 1)[0]
    sentences = []
    for line in plan.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip()
        if len(line.split()) >= 6 and not line.startswith("Minutes"):
            sentences.append(line)
    listed = prompt.split("criteria in this order:\n", 1)[-1]
    criteria = [m.group(1) for m in re.finditer(r"^\d+\. ([^:\n]+)", listed, re.MULTILINE)]
    top = re.search(r"Score each criterion from 0 to (\d+)", prompt)
    blocks = []
    for index, criterion in enumerate(criteria):
        quote = sentences[index % len(sentences)] if sentences else "none"
        blocks.append(f"Criterion: {criterion}\nScore: 2 of {top.group(1) if top else 3}\n"
                      f"Evidence: \"{quote}\"\nWhy: The plan addresses {criterion.lower()} here, but could do more.")
    return "\n\n".join(blocks)


def overview_text(prompt: str, topic: str) -> str | None:
    """What a unit's overview prompt (or its repair) gets: the layout asked for, one titled lesson per number."""
    match = re.search(r"(?:Plan a unit of|for a unit of) (\d+) lessons", prompt)
    if not match:
        return None
    steps = ["What it is", "Naming and drawing", "Equivalent forms", "Comparing", "Ordering", "Adding",
             "Subtracting", "In measurement", "In data", "Word problems", "Mixed practice", "Explaining",
             "Modelling", "Review", "Showcase"]
    lines = [f"Goal: Students understand {topic} well enough to use it and explain it.",
             "Essential questions:", f"- Where do we meet {topic} outside school?",
             f"- How can we tell that an idea about {topic} is right?"]
    for n in range(1, int(match.group(1)) + 1):
        step = steps[(n - 1) % len(steps)]
        lines += ["", f"Lesson {n}: {topic}: {step}",
                  f"Objective: Students will explain the key ideas of {topic} ({step.lower()}) and apply them to a new example.",
                  "Builds on: what students already know" if n == 1 else f"Builds on: Lesson {n - 1}"]
    return "\n".join(lines)


def accommodation_text(prompt: str, number: int) -> str | None:
    """An `/accommodate` prompt (pseudonyms with needs, the activities in order): the section as it was, then
    "Accommodations:" and a row for every student in every activity, the needs copied and one support, so a
    test sees the table checked whole; the students are named only by the pseudonyms the prompt gave."""
    students = re.findall(r"^- (Student [A-Z]+): (.+)$", prompt, re.MULTILINE)
    activities = re.search(r"^- The activities, in this order: (.+)\.$", prompt, re.MULTILINE)
    if "never give a student a name" not in prompt or not students or not activities:
        return None
    section = section_redo_text(prompt, number)
    if section is None:
        return None
    lines = [section.replace(f" (written again in request #{number})", ""), "Accommodations:",
             "| Student | Needs | Activity | Support |", "|---|---|---|---|"]
    for pseudonym, needs in students:
        for activity in activities.group(1).split("; "):
            lines.append(f"| {pseudonym} | {needs} | {activity} | {pseudonym} gets a picture card and 5 extra minutes in {activity}. |")
    return "\n".join(lines)


def section_redo_text(prompt: str, number: int) -> str | None:
    """A `/redo` prompt ("Reply with the X section only, under its heading."): that section of the plan in the
    prompt, its heading line and body as they were, the last body line marked with the request number, so a
    test can tell the new section from the old and that nothing else came back."""
    asked = re.search(r"^Reply with the (.+) section only, under its heading\.$", prompt, re.MULTILINE)
    plan = re.search(r"<<<PLAN\n(.*?)\nPLAN>>>", prompt, re.DOTALL)
    if not asked or not plan:
        return None
    heading = asked.group(1).strip()
    lines = plan.group(1).split("\n")
    known = [h.lower() for h in HEADINGS] + [heading.lower()]
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    except StopIteration:
        return f"{heading}\n- Written again (request #{number})."
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip() and (lines[i].strip().lower() in known or lines[i].startswith("Plan #")
                                         or re.match(r"^[A-Z][A-Za-z /&-]+( \(.*\))?$", lines[i].strip())
                                         and not lines[i].startswith(("-", "(")))), len(lines))
    body = [line for line in lines[start + 1:end]]
    while body and not body[-1].strip():
        body.pop()
    if body:
        body[-1] = body[-1] + f" (written again in request #{number})"
    return "\n".join([lines[start], *body])


def quiz_item_text(prompt: str, number: int) -> str | None:
    """A `/quiz item N` prompt ("Reply with item N only, in that layout."): item N of the quiz in the prompt,
    its stem marked with the request number and its key moved to another option, so a test can tell it
    apart from the old item and see that nothing else came back."""
    asked = re.search(r"^Reply with item (\d+) only, in that layout\.$", prompt, re.MULTILINE)
    quiz = re.search(r"<<<QUIZ\n(.*?)\nQUIZ>>>", prompt, re.DOTALL)
    if not asked or not quiz:
        return None
    item = int(asked.group(1))
    lines = quiz.group(1).split("\n")
    starts = [i for i, line in enumerate(lines) if re.match(r"^\d+[.)] ", line)]
    start = next((i for i in starts if lines[i].startswith(f"{item}.") or lines[i].startswith(f"{item})")), None)
    if start is None:
        return f"{item}. A new question (request #{number})?\nA) yes\nB) no\nC) maybe\nAnswer: A\n" \
               "Misconception B: thinks no.\nFeedback B: Read the question again.\n" \
               "Misconception C: thinks maybe.\nFeedback C: Look for the word that settles it."
    end = next((i for i in starts if i > start), len(lines))
    body = [line for line in lines[start + 1:end] if line.strip()]
    options = [line for line in body if re.match(r"^[A-D]\) ", line)]
    letters = [line[0] for line in options]
    key = next((line.split(":", 1)[1].strip() for line in body if line.startswith("Answer:")), letters[0])
    new_key = next(letter for letter in letters if letter != key)
    texts = {line[0]: line[3:] for line in options}
    texts[key], texts[new_key] = texts[new_key], texts[key]
    stem = re.sub(r"^\d+[.)] ", "", lines[start])
    out = [f"{item}. {stem} (written again in request #{number})"]
    out += [f"{letter}) {texts[letter]}" for letter in letters]
    out.append(f"Answer: {new_key}")
    for letter in letters:
        if letter != new_key:
            out.append(f"Misconception {letter}: a student who picks {letter} has the wrong idea {item}.")
            out.append(f"Feedback {letter}: You took the wrong idea {item}; compare it with the question once more.")
    return "\n".join(out)


def rubric_row_text(prompt: str, number: int) -> str | None:
    """A `/rubric row N` prompt ("Reply with row N only, as table rows."): row N of the rubric's teacher table and
    of its student version, each with its first level's cell marked with the request number."""
    asked = re.search(r"^Reply with row (\d+) only, as table rows\.$", prompt, re.MULTILINE)
    rubric = re.search(r"<<<RUBRIC\n(.*?)\nRUBRIC>>>", prompt, re.DOTALL)
    if not asked or not rubric:
        return None
    row = int(asked.group(1))
    tables: list[list[str]] = [[]]
    for line in rubric.group(1).split("\n"):
        if line.lower().startswith("student version"):
            tables.append([])
        elif line.startswith("|") and not set(line) <= set("|-: "):
            tables[-1].append(line)
    out = []
    for table in tables:
        rows = table[1:]  # the header first
        if row <= len(rows):
            cells = [cell.strip() for cell in rows[row - 1].strip("|").split("|")]
            cells[1] = f"{cells[1]} (written again in request #{number})"
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) if out else "| Nothing | to | write |"


def plan_text(number: int, grade: str, minutes: int, topic: str, headings: list[str] | None = None,
              standards: list[str] | None = None, roles: tuple[str | None, str | None] = (None, None),
              objective: str | None = None) -> str:
    """The default answer: a plan that passes a structure check and tells turns apart.

    Every timed section carries one ``(N min)`` mark (the warm-up's is in its heading), and
    those marks add up to the requested minutes. The ``Plan #N`` line is the request number,
    so a test can tell which request produced the text on screen. A prompt that lists other
    headings (another framework) gets ``framework_plan_text`` instead.
    """
    if headings and headings != HEADINGS:
        return framework_plan_text(number, headings, grade, minutes, topic, roles)
    minutes = max(minutes, 10)
    direct, guided, independent, cfu, exit_ticket = pacing(minutes)
    t1 = 5
    t2 = t1 + direct
    t3 = t2 + guided
    t4 = t3 + independent
    t5 = t4 + cfu
    words = student_text(grade)
    questions = [f"{n}. {q.format(topic=topic)}" for n, q in enumerate(words["cfu"], start=1)]
    prompts = [f"{n}. {p}" for n, p in enumerate(words["exit"], start=1)]
    alignment = ["Standards addressed:"] + [f"- “{standard}” — addressed by Guided Practice."
                                            for standard in standards] if standards else []
    sections = [
        [objective or f"Students will be able to explain the key ideas of {topic} and apply them to a new example.",
         *alignment],
        [f"- Slides or board notes on {topic}", "- Sticky notes and markers 📝", "- Exit ticket slips"],
        [f"- Minutes 0–5: Quick-write: “What do you already know about {topic}?” Pair-share two ideas."],
        [f"({direct} min)",
         f"- Minutes {t1}–{t2}: Introduce the key vocabulary with one worked example; pause for questions."],
        [f"({guided} min)", f"- Minutes {t2}–{t3}: {words['guided']}"],
        [f"({independent} min)", f"- Minutes {t3}–{t4}: {words['independent']}"],
        ["- Support: sentence frames and a labelled diagram.",
         "- Extension: students write their own example and explain it to a partner.",
         "- Multilingual learners: key terms with visuals."],
        [f"({cfu} min)", f"- Minutes {t4}–{t5}:", *questions],
        [f"({exit_ticket} min)", f"- Minutes {t5}–{minutes}:", *prompts],
        [f"- Find one real-world example of {topic} and describe it in two sentences."],
    ]
    lines: list[str] = []
    for heading, body in zip(HEADINGS, sections, strict=True):
        lines += [heading, *body, ""]
    lines.append(f"Plan #{number} — grade band {grade}, {minutes} minutes in total.")
    return "\n".join(lines)


def requested_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema a request asks the answer to follow (structured outputs), if any: the
    Responses API's ``text.format`` or Chat Completions' ``response_format``."""
    fmt = (body.get("text") or {}).get("format") if isinstance(body.get("text"), dict) else None
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        return fmt.get("schema")
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema")
    return None


def schema_answer(number: int, schema: dict[str, Any], grade: str, topic: str) -> str:
    """A JSON answer for a schema of string lists, as a model under structured outputs writes it:
    members in the schema's order, ``minItems`` items each at least ``minLength`` long. Lists whose
    name speaks of questions (understanding, evaluate, evidence, exit, closure) get questions; the
    first item says ``Plan #N`` so a test can tell turns apart."""
    answer: dict[str, list[str]] = {}
    for key, member in (schema.get("properties") or {}).items():
        words = key.replace("_", " ")
        asks = any(w in key for w in ("understanding", "evaluate", "evidence", "exit", "closure"))
        item = member.get("items") or {}
        items = []
        for n in range(1, int(member.get("minItems", 1)) + 1):
            # Each part says what students do in its own words (an observable verb, a different one per
            # part), so the content check finds the objective measurable and no line repeated.
            action = FRAMEWORK_ACTIONS[len(answer) % len(FRAMEWORK_ACTIONS)]
            text = (f"What is one idea about {topic} from {words}, part {n}?" if asks
                    else f"Students {action} {topic} in {words}, step {n}.")
            if number and not answer and n == 1:
                text = f"Plan #{number} — grade band {grade}: {text}"
            items.append(text.ljust(int(item.get("minLength", 0)), "."))
        answer[key] = items
    return json.dumps(answer, ensure_ascii=False, indent=1)


def split_deltas(text: str) -> list[str]:
    """Word-sized pieces, roughly as a tokenizer would stream them."""
    return re.findall(r"\s*\S+|\s+$", text) or ([text] if text else [])


def approx_tokens(text: str) -> int:
    return max(1, len(text) // 4)


# --------------------------------------------------------------------------------------------
# Event builders (pure: they return dicts, the handler writes them)
# --------------------------------------------------------------------------------------------


class Event:
    """One SSE event to write, tagged so cut/hang steps know where the deltas are."""

    def __init__(self, payload: dict[str, Any] | str, role: str = "other") -> None:
        self.payload = payload  # a dict is written as JSON; a str (like "[DONE]") as is
        self.role = role  # "delta", "end_of_text" (first event after the deltas) or "other"


class ResponsesStream:
    """Builds the Responses API stream for one request, the way api.openai.com sends it."""

    def __init__(self, number: int, body: dict[str, Any], llama: bool = False) -> None:
        self.number = number
        self.body = body
        self.llama = llama
        self.sequence = 0
        self.response_id = f"resp_fake{number:06d}"
        self.reasoning_id = f"rs_fake{number:06d}"
        self.message_id = f"msg_fake{number:06d}"
        self.model = str(body.get("model") or DEFAULT_MODEL)
        self.input_tokens = approx_tokens(json.dumps(body.get("input"), ensure_ascii=False))
        self.reasoning_tokens = 0 if llama else 64

    def _event(self, payload: dict[str, Any], role: str = "other") -> Event:
        if self.llama:
            for key in ("sequence_number", "output_index", "content_index"):
                payload.pop(key, None)
        else:
            # OpenAI puts the sequence number right after the type.
            payload = {"type": payload["type"], "sequence_number": self.sequence, **payload}
            self.sequence += 1
        return Event(payload, role)

    def response_object(self, status: str, output: list[Any], usage: dict[str, Any] | None,
                        error: dict[str, Any] | None = None,
                        incomplete_reason: str | None = None) -> dict[str, Any]:
        body = self.body
        return {
            "id": self.response_id,
            "object": "response",
            "created_at": int(time.time()),
            "status": status,
            "background": False,
            "error": error,
            "incomplete_details": {"reason": incomplete_reason} if incomplete_reason else None,
            "instructions": body.get("instructions"),
            "max_output_tokens": body.get("max_output_tokens"),
            "model": self.model,
            "output": output,
            "parallel_tool_calls": True,
            "previous_response_id": body.get("previous_response_id"),
            "reasoning": {"effort": "medium", "summary": None},
            "store": body.get("store", True),
            "temperature": 1.0,
            "text": {"format": {"type": "text"}, "verbosity": "medium"},
            "tool_choice": "auto",
            "tools": [],
            "top_p": 1.0,
            "truncation": "disabled",
            "usage": usage,
            "user": None,
            "metadata": {},
        }

    def usage(self, text: str) -> dict[str, Any]:
        output_tokens = approx_tokens(text) + self.reasoning_tokens
        return {
            "input_tokens": self.input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": self.reasoning_tokens},
            "total_tokens": self.input_tokens + output_tokens,
        }

    def reasoning_item(self) -> dict[str, Any]:
        return {"id": self.reasoning_id, "type": "reasoning", "summary": []}

    def message_item(self, status: str, part: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "id": self.message_id,
            "type": "message",
            "status": status,
            "content": [part] if part else [],
            "role": "assistant",
        }

    def events(self, text: str, *, refusal: bool = False, ending: str = "completed",
               reason: str | None = None, error: dict[str, Any] | None = None,
               summary: str | None = None) -> Iterator[Event]:
        """The whole stream; ``ending`` is completed, incomplete, failed or error_event."""
        yield self._event({"type": "response.created",
                           "response": self.response_object("in_progress", [], None)})
        yield self._event({"type": "response.in_progress",
                           "response": self.response_object("in_progress", [], None)})

        output: list[dict[str, Any]] = []
        message_index = 0
        if not self.llama:
            # Reasoning models put a reasoning item first; its summary is never answer text.
            reasoning = self.reasoning_item()
            yield self._event({"type": "response.output_item.added", "output_index": 0, "item": reasoning})
            if summary:
                part = {"type": "summary_text", "text": ""}
                common = {"item_id": self.reasoning_id, "output_index": 0, "summary_index": 0}
                yield self._event({"type": "response.reasoning_summary_part.added", **common, "part": part})
                for piece in split_deltas(summary):
                    yield self._event({"type": "response.reasoning_summary_text.delta", **common, "delta": piece})
                yield self._event({"type": "response.reasoning_summary_text.done", **common, "text": summary})
                done_part = {"type": "summary_text", "text": summary}
                yield self._event({"type": "response.reasoning_summary_part.done", **common, "part": done_part})
                reasoning = {**reasoning, "summary": [done_part]}
            yield self._event({"type": "response.output_item.done", "output_index": 0, "item": reasoning})
            output.append(reasoning)
            message_index = 1

        kind = "refusal" if refusal else "output_text"
        empty_part = {"type": "refusal", "refusal": ""} if refusal else \
            {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
        common = {"item_id": self.message_id, "output_index": message_index, "content_index": 0}
        yield self._event({"type": "response.output_item.added", "output_index": message_index,
                           "item": self.message_item("in_progress", None)})
        yield self._event({"type": "response.content_part.added", **common, "part": empty_part})

        if ending in ("failed", "error_event"):
            # These endings interrupt the text: only the deltas before the failure are sent.
            for piece in split_deltas(text):
                yield self._event({"type": f"response.{kind}.delta", **common, "delta": piece,
                                   **({} if refusal else {"logprobs": []})}, role="delta")
            if ending == "failed":
                failed = self.response_object("failed", output, self.usage(text), error=error)
                yield self._event({"type": "response.failed", "response": failed}, role="end_of_text")
            else:
                assert error is not None
                yield self._event({"type": "error", "code": error.get("code"), "message": error.get("message"),
                                   "param": None}, role="end_of_text")
            return

        for piece in split_deltas(text):
            yield self._event({"type": f"response.{kind}.delta", **common, "delta": piece,
                               **({} if refusal else {"logprobs": []})}, role="delta")

        if refusal:
            full_part = {"type": "refusal", "refusal": text}
            yield self._event({"type": "response.refusal.done", **common, "refusal": text}, role="end_of_text")
        else:
            full_part = {"type": "output_text", "annotations": [], "logprobs": [], "text": text}
            yield self._event({"type": "response.output_text.done", **common, "text": text, "logprobs": []},
                              role="end_of_text")
        yield self._event({"type": "response.content_part.done", **common, "part": full_part})
        item_status = "incomplete" if ending == "incomplete" else "completed"
        message = self.message_item(item_status, full_part)
        yield self._event({"type": "response.output_item.done", "output_index": message_index, "item": message})
        output.append(message)

        usage = self.usage(text)
        if ending == "incomplete":
            response = self.response_object("incomplete", output, usage, incomplete_reason=reason)
            yield self._event({"type": "response.incomplete", "response": response})
        else:
            final: dict[str, Any] = {"type": "response.completed",
                                     "response": self.response_object("completed", output, usage)}
            if self.llama:
                final["timings"] = llama_timings(self.input_tokens, approx_tokens(text))
            yield self._event(final)


class ChatStream:
    """Builds the Chat Completions stream for one request."""

    def __init__(self, number: int, body: dict[str, Any], llama: bool = False) -> None:
        self.id = f"chatcmpl-fake{number:06d}"
        self.model = str(body.get("model") or DEFAULT_MODEL)
        self.llama = llama
        self.prompt_tokens = approx_tokens(json.dumps(body.get("messages"), ensure_ascii=False))

    def chunk(self, choices: list[Any], **extra: Any) -> dict[str, Any]:
        payload = {"id": self.id, "object": "chat.completion.chunk", "created": int(time.time()),
                   "model": self.model, "choices": choices, **extra}
        if not self.llama:
            payload["system_fingerprint"] = "fp_fake"
        return payload

    def usage(self, text: str) -> dict[str, Any]:
        completion = approx_tokens(text)
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": completion,
                "total_tokens": self.prompt_tokens + completion,
                "completion_tokens_details": {"reasoning_tokens": 0}}

    def events(self, text: str, *, refusal: bool = False, finish_reason: str = "stop",
               error: dict[str, Any] | None = None) -> Iterator[Event]:
        field = "refusal" if refusal else "content"
        yield Event(self.chunk([{"index": 0, "delta": {"role": "assistant", "content": "", "refusal": None},
                                 "logprobs": None, "finish_reason": None}]))
        for piece in split_deltas(text):
            yield Event(self.chunk([{"index": 0, "delta": {field: piece}, "logprobs": None,
                                     "finish_reason": None}]), role="delta")
        if error is not None:
            yield Event({"error": error}, role="end_of_text")
            return
        yield Event(self.chunk([{"index": 0, "delta": {}, "logprobs": None, "finish_reason": finish_reason}]),
                    role="end_of_text")
        extra: dict[str, Any] = {"usage": self.usage(text)}
        if self.llama:
            extra["timings"] = llama_timings(self.prompt_tokens, approx_tokens(text))
        yield Event(self.chunk([], **extra))
        yield Event("[DONE]")


def llama_timings(prompt_n: int, predicted_n: int) -> dict[str, Any]:
    return {"prompt_n": prompt_n, "prompt_ms": 12.5, "prompt_per_token_ms": 12.5 / prompt_n,
            "prompt_per_second": prompt_n / 0.0125, "predicted_n": predicted_n, "predicted_ms": 250.0,
            "predicted_per_token_ms": 250.0 / predicted_n, "predicted_per_second": predicted_n / 0.25}


def openai_error(status: int, model: str, message: str | None = None, type_: str | None = None,
                 code: str | None = None) -> dict[str, Any]:
    """OpenAI's error body for a status, with the wording the real service uses."""
    defaults: dict[int, tuple[str, str, str | None]] = {
        400: ("Invalid request.", "invalid_request_error", None),
        401: ("Incorrect API key provided: sk-fake***. You can find your API key at "
              "https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key"),
        403: ("You are not allowed to sample from this model.", "invalid_request_error", None),
        404: (f"The model `{model}` does not exist or you do not have access to it.",
              "invalid_request_error", "model_not_found"),
        429: (f"Rate limit reached for {model} on requests per min (RPM): Limit 3, Used 3, Requested 1. "
              "Please try again in 1s.", "requests", "rate_limit_exceeded"),
        500: ("The server had an error while processing your request. Sorry about that!", "server_error", None),
        503: ("The engine is currently overloaded, please try again later.", "server_error", None),
    }
    default_message, default_type, default_code = defaults.get(status, (f"HTTP {status}", "server_error", None))
    return {"error": {"message": message or default_message, "type": type_ or default_type,
                      "param": None, "code": code if code is not None else default_code}}


def html_page(status: int) -> str:
    reason = {502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Time-out"}.get(status, "Error")
    return (f"<html>\r\n<head><title>{status} {reason}</title></head>\r\n<body>\r\n"
            f"<center><h1>{status} {reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")


# --------------------------------------------------------------------------------------------
# Writing bodies
# --------------------------------------------------------------------------------------------


def utf8_split_points(data: bytes) -> list[int]:
    """Offsets that fall inside a multi-byte UTF-8 character (just after its first byte)."""
    return [i + 1 for i, byte in enumerate(data) if byte >= 0xC0]


class BodyWriter:
    """Writes a streamed body, chunked or close-delimited, flushing every piece."""

    def __init__(self, handler: BaseHTTPRequestHandler, framing: str) -> None:
        self.handler = handler
        self.chunked = framing != "close"

    def write(self, data: bytes) -> None:
        if not data:
            return
        out = self.handler.wfile
        if self.chunked:
            out.write(b"%x\r\n" % len(data) + data + b"\r\n")
        else:
            out.write(data)
        out.flush()

    def write_split(self, data: bytes) -> None:
        """Writes ``data`` in pieces, cutting every multi-byte character in two.

        Only the first few cuts of an event pause, so long events (the final text repeated in
        ``response.completed``) do not slow every test down.
        """
        start = 0
        for index, point in enumerate(utf8_split_points(data)):
            self.write(data[start:point])
            if index < 2:
                time.sleep(SPLIT_PAUSE_SECONDS)
            start = point
        # Cut the remainder once more at an arbitrary place, so lines also arrive in halves.
        rest = data[start:]
        middle = len(rest) // 2
        self.write(rest[:middle])
        self.write(rest[middle:])

    def finish(self) -> None:
        if self.chunked:
            self.handler.wfile.write(b"0\r\n\r\n")
            self.handler.wfile.flush()


def sse_bytes(event: Event, event_lines: bool) -> bytes:
    if isinstance(event.payload, str):
        return f"data: {event.payload}\n\n".encode()
    data = json.dumps(event.payload, ensure_ascii=False, separators=(",", ":"))
    name = event.payload.get("type")
    prefix = f"event: {name}\n" if event_lines and isinstance(name, str) else ""
    return f"{prefix}data: {data}\n\n".encode()


# --------------------------------------------------------------------------------------------
# The HTTP handler
# --------------------------------------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "FakeServer"

    def version_string(self) -> str:
        return "fake-openai/1.0"

    # -- plumbing ---------------------------------------------------------------------------

    def setup(self) -> None:
        super().setup()
        # Small writes must leave at once, or the kernel would glue the split pieces together.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        if self.server.verbose:
            sys.stderr.write("fake_openai: " + (format % args) + "\n")

    def read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self.send_bytes(status, json.dumps(payload, ensure_ascii=False).encode(), "application/json", headers)

    def send_bytes(self, status: int, data: bytes, content_type: str,
                   headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def start_stream(self, content_type: str, framing: str, status: int = 200,
                     headers: dict[str, str] | None = None) -> BodyWriter:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if framing == "close":
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Transfer-Encoding", "chunked")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.flush()
        return BodyWriter(self, framing)

    def drop_connection(self, reset: bool = False) -> None:
        """Ends the connection without finishing the response (clean FIN, or RST with reset)."""
        self.close_connection = True
        try:
            self.wfile.flush()
            if reset:
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                # The file objects hold references to the socket, so close() would not really close
                # it; swap them for harmless stand-ins that the base class may still flush.
                self.rfile.close()
                self.wfile.close()
                self.rfile, self.wfile = io.BytesIO(), io.BytesIO()
                self.connection.close()
            else:
                self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def wait_quietly(self, seconds: float) -> None:
        """Sends nothing for ``seconds``, returning early when the client gives up."""
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.connection], [], [], min(remaining, 0.1))
            if readable:
                try:
                    closed = not self.connection.recv(1, socket.MSG_PEEK)
                except OSError:
                    closed = True
                if closed:
                    self.note_client_closed()
                    return
                time.sleep(0.05)  # it sent more bytes (a pipelined request); keep ignoring it

    def note_client_closed(self) -> None:
        """Marks the request being answered as abandoned by the client (cancelled, timed out)."""
        entry = getattr(self, "entry", None)
        if entry is not None:
            self.server.state.note_client_closed(entry)

    def model_headers(self, number: int) -> dict[str, str]:
        return {"x-request-id": f"req_fake{number:06d}", "openai-processing-ms": "42",
                "openai-version": "2020-10-01"}

    # -- routing ----------------------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 (stdlib naming)
        self.route()

    def do_POST(self) -> None:  # noqa: N802
        self.route()

    def do_PUT(self) -> None:  # noqa: N802
        self.route()

    def do_DELETE(self) -> None:  # noqa: N802
        self.route()

    def route(self) -> None:
        self.entry: dict[str, Any] | None = None
        try:
            raw = self.read_body()
            path = self.path.split("?", 1)[0]
            if path.startswith("/__"):
                self.control(path, raw)
            elif self.command == "POST" and (path.endswith("/responses") or path == "/lessonplan"):
                self.model_request(path, raw, api="responses")
            elif self.command == "POST" and path.endswith("/chat/completions"):
                self.model_request(path, raw, api="chat")
            else:
                self.server.state.record_without_step(self.log_entry(path, raw))
                self.send_json(404, {"error": {"message": f"Invalid URL ({self.command} {path})",
                                               "type": "invalid_request_error", "param": None, "code": None}})
        except ConnectionError:
            # The client went away mid-response (cancelled, timed out): nothing left to do.
            self.note_client_closed()
            self.close_connection = True

    def control(self, path: str, raw: bytes) -> None:
        state = self.server.state
        if path == "/__health":
            self.send_json(200, {"ok": True})
        elif path == "/__requests" and self.command == "GET":
            self.send_json(200, state.requests())
        elif path == "/__reset" and self.command == "POST":
            state.reset()
            self.send_json(200, {"ok": True})
        elif path == "/__release" and self.command == "POST":
            state.released.set()
            self.send_json(200, {"ok": True})
        elif path == "/__script" and self.command == "POST":
            try:
                parsed = json.loads(raw or b"[]")
                steps = parsed.get("steps") if isinstance(parsed, dict) else parsed
                if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
                    raise ValueError("expected a JSON list of step objects")
                unknown = [s.get("kind") for s in steps if s.get("kind", "plan") not in STEP_KINDS]
                if unknown:
                    raise ValueError(f"unknown step kind(s) {unknown}; known: {sorted(STEP_KINDS)}")
            except ValueError as error:
                self.send_json(400, {"error": str(error)})
                return
            self.send_json(200, {"queued": state.enqueue(steps)})
        else:
            self.send_json(404, {"error": f"no control endpoint {self.command} {path}"})

    def log_entry(self, path: str, raw: bytes) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "method": self.command,
            "path": path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            # Every header line as sent, repeats included: what the dict above would merge.
            "raw_headers": [[name, value] for name, value in self.headers.items()],
            "body": None,
        }
        try:
            entry["body"] = json.loads(raw) if raw else None
        except ValueError:
            entry["raw_body"] = raw.decode("utf-8", errors="replace")
        return entry

    # -- model endpoints --------------------------------------------------------------------

    def model_request(self, path: str, raw: bytes, api: str) -> None:
        entry = self.log_entry(path, raw)
        body = entry["body"]
        # Requests the real service would reject never reach a step.
        problem = None
        if not isinstance(body, dict):
            problem = ("We could not parse the JSON body of your request. (HINT: This likely means you aren't "
                       "using your HTTP library correctly.)", None)
        elif not body.get("model") and path != "/lessonplan":
            problem = ("Missing required parameter: 'model'.", "model")
        elif api == "responses" and not body.get("input"):
            problem = ("Missing required parameter: 'input'.", "input")
        elif api == "chat" and not body.get("messages"):
            problem = ("Missing required parameter: 'messages'.", "messages")
        if problem:
            number = self.server.state.record_without_step(entry)
            message, param = problem
            self.send_json(400, {"error": {"message": message, "type": "invalid_request_error", "param": param,
                                           "code": None if param is None else "missing_required_parameter"}},
                           self.model_headers(number))
            return

        number, step = self.server.state.record(entry)
        self.entry = entry
        self.answer(number, body, step, api)

    def answer(self, number: int, body: dict[str, Any], step: dict[str, Any], api: str) -> None:
        kind = step.get("kind", "plan")
        model = str(body.get("model") or DEFAULT_MODEL)
        headers = self.model_headers(number)

        if kind == "drop":
            self.drop_connection()
            return
        if kind == "hang" and "after_deltas" not in step:
            self.wait_quietly(float(step.get("seconds", 30)))
            self.drop_connection()
            return
        if kind == "error":
            status = int(step.get("status", 500))
            headers.update(step.get("headers") or {})
            error_body = step.get("body")
            if isinstance(error_body, str):
                self.send_bytes(status, error_body.encode(), "application/json", headers)
            else:
                self.send_json(status, error_body if error_body is not None else openai_error(
                    status, model, step.get("message"), step.get("type"), step.get("code")), headers)
            return
        if kind == "html":
            status = int(step.get("status", 502))
            self.send_bytes(status, html_page(status).encode(), "text/html")
            return
        if kind == "raw":
            self.answer_raw(step)
            return
        if kind == "endless":
            self.answer_endless(number, body, step)
            return
        if kind == "endless_line":
            writer = self.start_stream("text/event-stream; charset=utf-8", "chunked", headers=headers)
            writer.write(b'data: {"type":"response.output_text.delta","delta":"')
            block = b"a" * 65536
            while True:
                writer.write(block)
        if kind == "huge_headers":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            total = int(step.get("total_bytes", 200_000))
            line = int(step.get("line_bytes", 100))
            for index in range(max(1, total // line)):
                self.send_header(f"X-Pad-{index}", "a" * max(1, line - 12))
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.wfile.flush()
            return

        prompt = request_text(body)
        grade, minutes = find_grade_band(prompt), find_minutes(prompt)
        assessment = (quiz_text(prompt, find_topic(prompt)) or rubric_text(prompt, find_topic(prompt))
                      or review_text(prompt) or overview_text(prompt, find_topic(prompt)))
        schema = requested_schema(body)
        redone = accommodation_text(prompt, number) or section_redo_text(prompt, number) or quiz_item_text(prompt, number) or rubric_row_text(prompt, number)
        if redone is not None:
            plan = redone
        elif "Turn it into student handouts" in prompt:
            plan = handouts_text(number, grade, find_topic(prompt))
        elif assessment is not None:
            plan = assessment
        elif schema is not None:
            plan = schema_answer(number, schema, grade, find_topic(prompt))
        else:
            # A unit's lesson states the objective its overview gave it.
            objective = re.search(r"^Its objective: ([^\n]+)$", prompt, re.MULTILINE)
            plan = plan_text(number, grade, minutes, find_topic(prompt), find_headings(prompt),
                             find_standards(prompt), roles=find_roles(prompt),
                             objective=objective.group(1) if objective else None)
        text = str(step.get("text", plan))
        stream = bool(body.get("stream"))
        llama = kind == "llama"

        if api == "responses":
            builder = ResponsesStream(number, body, llama=llama)
            summary = None if llama or step.get("reasoning_summary") is False else \
                f"**Planning the lesson**\n\nPacing {minutes} minutes for grade band {grade}."
            if kind == "refusal":
                events = builder.events(str(step.get("text", "I’m sorry, but I can’t help with that.")),
                                        refusal=True, summary=summary)
            elif kind == "incomplete":
                events = builder.events(text, ending="incomplete", summary=summary,
                                        reason=str(step.get("reason", "max_output_tokens")))
            elif kind in ("failed", "error_event"):
                error = {"code": step.get("code", "server_error"),
                         "message": step.get("message", "The model failed to generate a response.")}
                partial = "".join(split_deltas(text)[: int(step.get("after_deltas", 0))])
                events = builder.events(partial, ending=kind, error=error, summary=summary)
            else:
                events = builder.events(text, summary=summary)
        else:
            chat = ChatStream(number, body, llama=llama)
            if kind == "refusal":
                events = chat.events(str(step.get("text", "I’m sorry, but I can’t help with that.")), refusal=True)
            elif kind == "incomplete":
                events = chat.events(text, finish_reason="length")
            elif kind in ("failed", "error_event"):
                partial = "".join(split_deltas(text)[: int(step.get("after_deltas", 0))])
                events = chat.events(partial, error={
                    "message": step.get("message", "The model failed to generate a response."),
                    "type": "server_error", "param": None, "code": step.get("code", "server_error")})
            else:
                events = chat.events(text)

        if stream:
            self.stream_events(events, step, headers)
            return
        status, payload = self.whole_answer(list(events), api)
        data = json.dumps(payload, ensure_ascii=False).encode()
        if kind not in ("cut", "hang"):
            self.send_bytes(status, data, "application/json", headers)
            return
        # Without streaming, cut and hang stop halfway through the promised body.
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        if kind == "hang":
            self.wait_quietly(float(step.get("seconds", 30)))
        self.drop_connection(reset=bool(step.get("reset")))

    def stream_events(self, events: Iterator[Event], step: dict[str, Any], headers: dict[str, str]) -> None:
        """Writes an SSE stream, applying the step's delays, cut or hang at the right delta."""
        kind = step.get("kind", "plan")
        default_delay = 200 if kind == "slow" else 0
        delay = float(step.get("delay_ms", default_delay)) / 1000
        stop_after = int(step.get("after_deltas", 3)) if kind in ("cut", "hang") else None
        event_lines = step.get("event_lines", True) is not False
        writer = self.start_stream("text/event-stream; charset=utf-8", step.get("framing", "chunked"),
                                   headers=headers)
        deltas = 0
        for event in events:
            if stop_after is not None and event.role in ("delta", "end_of_text") and deltas >= stop_after:
                if kind == "cut":
                    self.drop_connection(reset=bool(step.get("reset")))
                else:
                    self.wait_quietly(float(step.get("seconds", 30)))
                    self.drop_connection()
                return
            if event.role == "delta":
                if delay:
                    time.sleep(delay)
                deltas += 1
            writer.write_split(sse_bytes(event, event_lines))
        writer.finish()
        if not writer.chunked:
            self.drop_connection()

    def whole_answer(self, events: list[Event], api: str) -> tuple[int, dict[str, Any]]:
        """A non-streaming answer: the status and object the stream would have ended with."""
        payloads = [e.payload for e in events if isinstance(e.payload, dict)]
        if api == "responses":
            errors = [p for p in payloads if p.get("type") == "error"]
            if errors:
                return 500, {"error": {"message": errors[0]["message"], "type": "server_error",
                                       "param": None, "code": errors[0]["code"]}}
            final = next(p for p in reversed(payloads) if "response" in p)
            return 200, final["response"]
        # Chat Completions: fold the chunks back into one message.
        errors = [p["error"] for p in payloads if "error" in p]
        if errors:
            return 500, {"error": errors[0]}
        first = payloads[0]
        choices = [c["choices"][0] for c in payloads if c.get("choices")]
        content = "".join(str(c["delta"].get("content") or "") for c in choices)
        refusal = "".join(str(c["delta"].get("refusal") or "") for c in choices)
        finish = next((c["finish_reason"] for c in choices if c.get("finish_reason")), "stop")
        usage = next((c["usage"] for c in payloads if "usage" in c), None)
        message = {"role": "assistant", "content": content or None, "refusal": refusal or None}
        return 200, {"id": first["id"], "object": "chat.completion", "created": first["created"],
                     "model": first["model"],
                     "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
                     "usage": usage}

    def answer_endless(self, number: int, body: dict[str, Any], step: dict[str, Any]) -> None:
        """Text deltas until the client hangs up; never a ``response.completed``."""
        builder = ResponsesStream(number, body)
        writer = self.start_stream("text/event-stream; charset=utf-8", "chunked",
                                   headers=self.model_headers(number))
        writer.write(sse_bytes(builder._event({"type": "response.created",
                                               "response": builder.response_object("in_progress", [], None)}), True))
        words = "The tide rises and falls twice a day. "
        size = int(step.get("delta_bytes", 4096))
        delta = (words * (size // len(words) + 1))[:size]
        event = {"type": "response.output_text.delta", "item_id": "msg_endless", "output_index": 0,
                 "content_index": 0, "delta": delta}
        block = (f"event: response.output_text.delta\ndata: {json.dumps(event)}\n\n" * 16).encode()
        while True:
            writer.write(block)

    def answer_raw(self, step: dict[str, Any]) -> None:
        if "body_base64" in step:
            data = base64.b64decode(str(step["body_base64"]))
        else:
            data = str(step.get("body", "")).encode()
        size = int(step.get("chunk_size") or len(data) or 1)
        delay = float(step.get("delay_ms", 0)) / 1000
        writer = self.start_stream(str(step.get("content_type", "text/event-stream; charset=utf-8")),
                                   step.get("framing", "chunked"), status=int(step.get("status", 200)),
                                   headers=step.get("headers") or {})
        hold = step.get("hold_after")
        if hold is not None:
            writer.write(data[:int(hold)])
            # Up to a minute, so a test that never releases cannot hang the run.
            self.server.state.released.wait(60)
            data = data[int(hold):]
        for start in range(0, len(data), size):
            if start and delay:
                time.sleep(delay)
            writer.write(data[start:start + size])
        writer.finish()
        if not writer.chunked:
            self.drop_connection()


class FakeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], verbose: bool) -> None:
        super().__init__(address, Handler)
        self.state = ServerState()
        self.verbose = verbose


def exit_when_stdin_closes() -> None:
    """Ends the process once the parent's end of stdin closes (the parent exited or died)."""
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: ephemeral)")
    parser.add_argument("--verbose", action="store_true", help="log each request on stderr")
    parser.add_argument("--exit-with-stdin", action="store_true", help="exit when stdin reaches EOF")
    args = parser.parse_args()

    server = FakeServer(("127.0.0.1", args.port), verbose=args.verbose)
    print(f"PORT {server.server_address[1]}", flush=True)
    if args.exit_with_stdin:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
