// The worker's fetch handler, driven with real Request objects against a real upstream on 127.0.0.1.

import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";

import { callWorker, collectLogs, jsonResponder, sha256, startUpstream, wholeAnswer } from "./support.mjs";

const TOKEN_A = "lpt_teacher-a-0123456789";
const TOKEN_B = "lpt_teacher-b-9876543210";
const TOKEN_KV = "lpt_teacher-kv-5555555555";
const UNKNOWN_TOKEN = "lpt_nobody-0000000000";
const SERVER_KEY = "server-key-for-tests-abcdef";
const PROMPT_MARKER = "PROMPT-MARKER Photosynthesis for Jamie in row 3";
const PLAN_MARKER = "PLAN-MARKER Jamie reads aloud";

let logs;
before(() => {
  logs = collectLogs();
});
after(() => logs.restore());
beforeEach(() => {
  logs.lines.length = 0;
});

/** The settings a school would deploy with, pointed at the test's upstream. */
function schoolEnv(upstream, extra = {}) {
  return {
    OPENAI_API_KEY: SERVER_KEY,
    UPSTREAM_URL: upstream.url,
    // An unrelated hash, then A, then B on its own line in upper case: every separator and case.
    TEACHER_TOKEN_SHA256: `${sha256("someone else")}, ${sha256(TOKEN_A)}\n  ${sha256(TOKEN_B).toUpperCase()}\n`,
    ALLOWED_MODELS: "gpt-5.2, gpt-5-mini",
    MAX_OUTPUT_TOKENS: "4000",
    MAX_BODY_BYTES: "2048",
    ...extra,
  };
}

const lessonBody = (extra = {}) => ({
  model: "gpt-5.2",
  instructions: "Write a lesson plan.",
  input: PROMPT_MARKER,
  max_output_tokens: 1000,
  ...extra,
});

async function errorOf(response) {
  assert.equal(response.headers.get("content-type"), "application/json");
  const body = await response.json();
  assert.equal(typeof body.error?.message, "string");
  assert.ok(body.error.message.length > 0);
  return body.error;
}

describe("teacher authentication", () => {
  let upstream;
  before(async () => {
    upstream = await startUpstream(jsonResponder(200, wholeAnswer(PLAN_MARKER)));
  });
  after(() => upstream.close());
  beforeEach(() => {
    upstream.received.length = 0;
  });

  test("no token is a 401 with the OpenAI-shaped error, and nothing goes upstream", async () => {
    const response = await callWorker(schoolEnv(upstream), { body: lessonBody() });
    assert.equal(response.status, 401);
    const error = await errorOf(response);
    assert.equal(error.type, "invalid_request_error");
    assert.equal(error.code, "invalid_teacher_token");
    assert.equal(upstream.received.length, 0);
  });

  test("an unknown token is a 401", async () => {
    const response = await callWorker(schoolEnv(upstream), { token: UNKNOWN_TOKEN, body: lessonBody() });
    assert.equal(response.status, 401);
    assert.equal((await errorOf(response)).code, "invalid_teacher_token");
    assert.equal(upstream.received.length, 0);
  });

  test("a token whose hash is in the list is accepted, wherever it is in the list", async () => {
    for (const token of [TOKEN_A, TOKEN_B]) {
      const response = await callWorker(schoolEnv(upstream), { token, body: lessonBody() });
      assert.equal(response.status, 200, token);
      await response.text();
    }
    assert.equal(upstream.received.length, 2);
  });

  test("a hash that differs in one digit does not match", async () => {
    const hash = sha256(TOKEN_A);
    const last = hash.at(-1) === "0" ? "1" : "0";
    const env = schoolEnv(upstream, { TEACHER_TOKEN_SHA256: hash.slice(0, -1) + last });
    const response = await callWorker(env, { token: TOKEN_A, body: lessonBody() });
    assert.equal(response.status, 401);
  });

  test("KV keys grant access, alone or beside the secret, and deleting the key revokes it", async () => {
    const store = new Map([[sha256(TOKEN_KV), "Ms Rivera, science"]]);
    const TEACHERS = { get: async (key) => (store.has(key) ? store.get(key) : null) };
    const kvOnly = schoolEnv(upstream, { TEACHER_TOKEN_SHA256: undefined, TEACHERS });
    const both = schoolEnv(upstream, { TEACHERS });

    assert.equal((await callWorker(kvOnly, { token: TOKEN_KV, body: lessonBody() })).status, 200);
    assert.equal((await callWorker(kvOnly, { token: TOKEN_A, body: lessonBody() })).status, 401);
    assert.equal((await callWorker(both, { token: TOKEN_KV, body: lessonBody() })).status, 200);
    assert.equal((await callWorker(both, { token: TOKEN_A, body: lessonBody() })).status, 200);

    store.delete(sha256(TOKEN_KV));
    assert.equal((await callWorker(both, { token: TOKEN_KV, body: lessonBody() })).status, 401);
  });

  test("no hashes anywhere means nobody gets in", async () => {
    const env = schoolEnv(upstream, { TEACHER_TOKEN_SHA256: undefined });
    assert.equal((await callWorker(env, { token: TOKEN_A, body: lessonBody() })).status, 401);
  });

  test("a school's own header carries the token when TEACHER_TOKEN_HEADER names it", async () => {
    const env = schoolEnv(upstream, { TEACHER_TOKEN_HEADER: "X-Teacher-Token" });
    const accepted = await callWorker(env, { headers: { "x-teacher-token": TOKEN_A }, body: lessonBody() });
    assert.equal(accepted.status, 200);
    const refused = await callWorker(schoolEnv(upstream), { headers: { "x-teacher-token": TOKEN_A }, body: lessonBody() });
    assert.equal(refused.status, 401);
  });
});

describe("the request body", () => {
  let upstream;
  before(async () => {
    upstream = await startUpstream(jsonResponder(200, wholeAnswer(PLAN_MARKER)));
  });
  after(() => upstream.close());
  beforeEach(() => {
    upstream.received.length = 0;
  });

  test("a declared Content-Length over the limit is a 413 before anything is read", async () => {
    const big = JSON.stringify(lessonBody({ input: "x".repeat(3000) }));
    const response = await callWorker(schoolEnv(upstream), {
      token: TOKEN_A,
      body: big,
      headers: { "content-length": String(Buffer.byteLength(big)) },
    });
    assert.equal(response.status, 413);
    assert.equal((await errorOf(response)).code, "request_too_large");
    assert.equal(upstream.received.length, 0);
  });

  test("a body with no Content-Length is counted as it is read, and too many bytes are a 413", async () => {
    const encoded = new TextEncoder().encode(JSON.stringify(lessonBody({ input: "y".repeat(3000) })));
    const stream = new ReadableStream({
      start(controller) {
        for (let offset = 0; offset < encoded.length; offset += 500) controller.enqueue(encoded.slice(offset, offset + 500));
        controller.close();
      },
    });
    const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: stream });
    assert.equal(response.status, 413);
    assert.equal(upstream.received.length, 0);
  });

  test("a body just under the limit passes", async () => {
    const body = lessonBody({ input: "z".repeat(1500) });
    assert.ok(JSON.stringify(body).length < 2048);
    const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body });
    assert.equal(response.status, 200);
  });

  test("bad JSON, or JSON that is not an object, is a 400", async () => {
    for (const text of ["{not json", "[1,2]", "null", ""]) {
      const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: text });
      assert.equal(response.status, 400, JSON.stringify(text));
      assert.equal((await errorOf(response)).code, "invalid_json");
    }
    assert.equal(upstream.received.length, 0);
  });

  test("a model outside ALLOWED_MODELS is a 400 that names the allowed ones", async () => {
    const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ model: "o1-pro" }) });
    assert.equal(response.status, 400);
    const error = await errorOf(response);
    assert.equal(error.code, "model_not_allowed");
    assert.match(error.message, /o1-pro/);
    assert.match(error.message, /gpt-5\.2, gpt-5-mini/);
    assert.equal(upstream.received.length, 0);
  });

  test("an allowed model passes, and a body without one gets the first allowed model", async () => {
    await (await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ model: "gpt-5-mini" }) })).text();
    const { model, ...withoutModel } = lessonBody();
    assert.equal(model, "gpt-5.2");
    await (await callWorker(schoolEnv(upstream, { ALLOWED_MODELS: "gpt-5-mini,gpt-5.2" }), { token: TOKEN_A, body: withoutModel })).text();
    assert.deepEqual(
      upstream.received.map((request) => request.body.model),
      ["gpt-5-mini", "gpt-5-mini"],
    );
  });

  test("an unknown field is a 400 that names it, and nothing goes upstream", async () => {
    for (const field of ["tools", "background", "previous_response_id", "temperature"]) {
      const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ [field]: 1 }) });
      assert.equal(response.status, 400, field);
      const error = await errorOf(response);
      assert.equal(error.code, "unknown_parameter");
      assert.equal(error.param, field);
      assert.match(error.message, new RegExp(field));
    }
    assert.equal(upstream.received.length, 0);
  });

  test("a body without input is a 400", async () => {
    const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ input: "  " }) });
    assert.equal(response.status, 400);
    assert.equal((await errorOf(response)).code, "missing_input");
  });

  test("max_output_tokens is capped, filled in when missing, and kept when under the cap", async () => {
    const { max_output_tokens: _, ...withoutLimit } = lessonBody();
    for (const body of [lessonBody({ max_output_tokens: 100000 }), withoutLimit, lessonBody({ max_output_tokens: 500 })]) {
      await (await callWorker(schoolEnv(upstream), { token: TOKEN_A, body })).text();
    }
    assert.deepEqual(
      upstream.received.map((request) => request.body.max_output_tokens),
      [4000, 4000, 500],
    );
  });

  test("what goes upstream: store false, the school's key, only the accepted fields", async () => {
    // The tool sends store: false; a client asking for true still gets false.
    const body = lessonBody({ store: true, stream: false, reasoning: { effort: "low" } });
    const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(upstream.received.length, 1);
    const sent = upstream.received[0];
    assert.equal(sent.method, "POST");
    assert.equal(sent.url, "/v1/responses");
    assert.equal(sent.headers.authorization, `Bearer ${SERVER_KEY}`);
    assert.ok(!sent.text.includes(TOKEN_A), "the teacher's token must not reach the provider");
    assert.deepEqual(sent.body, {
      model: "gpt-5.2",
      instructions: "Write a lesson plan.",
      input: PROMPT_MARKER,
      max_output_tokens: 1000,
      store: false,
      reasoning: { effort: "low" },
    });
  });
});

describe("routes and limits", () => {
  let upstream;
  before(async () => {
    upstream = await startUpstream(jsonResponder(200, wholeAnswer(PLAN_MARKER)));
  });
  after(() => upstream.close());

  test("another path is a 404 with a JSON error", async () => {
    const response = await callWorker(schoolEnv(upstream), { path: "/v1/chat/completions", token: TOKEN_A, body: lessonBody() });
    assert.equal(response.status, 404);
    assert.equal((await errorOf(response)).code, "not_found");
  });

  test("another method is a 405 with Allow: POST", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await callWorker(schoolEnv(upstream), { method, token: TOKEN_A, body: method === "GET" ? undefined : "{}" });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get("allow"), "POST");
      assert.equal((await errorOf(response)).code, "method_not_allowed");
    }
  });

  test("the seed's path /lessonplan is served the same way", async () => {
    const response = await callWorker(schoolEnv(upstream), { path: "/lessonplan", token: TOKEN_A, body: lessonBody() });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).output[0].content[0].text, PLAN_MARKER);
  });

  test("the rate limiter is asked with the token's hash, and its no is a 429 with retry-after", async () => {
    const asked = [];
    let allowance = 1;
    const RATE_LIMITER = {
      async limit({ key }) {
        asked.push(key);
        return { success: allowance-- > 0 };
      },
    };
    const env = schoolEnv(upstream, { RATE_LIMITER });
    assert.equal((await callWorker(env, { token: TOKEN_A, body: lessonBody() })).status, 200);
    const refused = await callWorker(env, { token: TOKEN_A, body: lessonBody() });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "60");
    const error = await errorOf(refused);
    assert.equal(error.code, "rate_limit_exceeded");
    assert.deepEqual(asked, [sha256(TOKEN_A), sha256(TOKEN_A)]);

    const tenSeconds = await callWorker(schoolEnv(upstream, { RATE_LIMITER, RATE_LIMIT_PERIOD: "10" }), { token: TOKEN_A, body: lessonBody() });
    assert.equal(tenSeconds.headers.get("retry-after"), "10");
  });

  test("an unknown token is refused before the rate limiter counts it", async () => {
    const asked = [];
    const RATE_LIMITER = { limit: async ({ key }) => (asked.push(key), { success: true }) };
    const response = await callWorker(schoolEnv(upstream, { RATE_LIMITER }), { token: UNKNOWN_TOKEN, body: lessonBody() });
    assert.equal(response.status, 401);
    assert.deepEqual(asked, []);
  });

  test("missing settings are a 500 that tells the administrator what to set", async () => {
    const noModels = await callWorker(schoolEnv(upstream, { ALLOWED_MODELS: " " }), { token: TOKEN_A, body: lessonBody() });
    assert.equal(noModels.status, 500);
    assert.equal(noModels.headers.get("x-should-retry"), "false", "retrying cannot fix a setting");
    assert.match((await errorOf(noModels)).message, /ALLOWED_MODELS/);
    const noKey = await callWorker(schoolEnv(upstream, { OPENAI_API_KEY: undefined }), { token: TOKEN_A, body: lessonBody() });
    assert.equal(noKey.status, 500);
    assert.equal(noKey.headers.get("x-should-retry"), "false");
    assert.match((await errorOf(noKey)).message, /OPENAI_API_KEY/);
  });
});

describe("answers from upstream", () => {
  test("a whole JSON answer is passed through unchanged", async () => {
    const answer = wholeAnswer(PLAN_MARKER);
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_123" });
      res.end(JSON.stringify(answer, null, 1));
    });
    try {
      const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody() });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/json");
      assert.equal(response.headers.get("x-request-id"), "req_123");
      assert.equal(await response.text(), JSON.stringify(answer, null, 1));
    } finally {
      await upstream.close();
    }
  });

  test("upstream errors other than 429 keep their status, JSON body and retry-after", async () => {
    const cases = [
      { status: 400, body: { error: { message: "Invalid value for reasoning.effort", type: "invalid_request_error", code: "invalid_value" } } },
      { status: 503, body: { error: { message: "Slow down", type: "server_error", code: null } }, headers: { "retry-after": "7" } },
      { status: 500, body: { error: { message: "The server had an error", type: "server_error", code: null } } },
    ];
    for (const item of cases) {
      const upstream = await startUpstream(jsonResponder(item.status, item.body, item.headers));
      try {
        for (const stream of [false, true]) {
          const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ stream }) });
          assert.equal(response.status, item.status);
          assert.equal(response.headers.get("content-type"), "application/json");
          assert.deepEqual(await response.json(), item.body);
          assert.equal(response.headers.get("retry-after"), item.headers?.["retry-after"] ?? null);
        }
      } finally {
        await upstream.close();
      }
    }
  });

  test("the provider refusing the school's key is a 502 for the administrator, not a 401 for the teacher", async () => {
    const upstream = await startUpstream(
      jsonResponder(401, { error: { message: `Incorrect API key provided: ${SERVER_KEY}`, type: "invalid_request_error", code: "invalid_api_key" } }),
    );
    try {
      const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody() });
      assert.equal(response.status, 502);
      assert.equal(response.headers.get("x-should-retry"), "false");
      const error = await errorOf(response);
      assert.equal(error.code, "upstream_key_rejected");
      assert.ok(!error.message.includes(SERVER_KEY.slice(-6)));
    } finally {
      await upstream.close();
    }
  });

  test("an upstream that cannot be reached is a 502", async () => {
    const upstream = await startUpstream(jsonResponder(200, {}));
    await upstream.close(); // the port is now closed
    const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody() });
    assert.equal(response.status, 502);
    assert.equal(response.headers.get("x-should-retry"), null, "an unreachable upstream is worth retrying");
    assert.equal((await errorOf(response)).code, "upstream_unreachable");
  });
});

/** A Responses API SSE event as OpenAI frames it. */
function sse(event) {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

describe("streaming", () => {
  test("the first delta reaches the client while the upstream is still waiting to send the rest", { timeout: 20000 }, async () => {
    let release;
    const released = new Promise((resolve) => {
      release = resolve;
    });
    let upstreamFinished = false;
    const first = sse({ type: "response.output_text.delta", sequence_number: 1, delta: "## Learning Objective" });
    const rest = [
      sse({ type: "response.output_text.delta", sequence_number: 2, delta: ` ${PLAN_MARKER}` }),
      sse({
        type: "response.completed",
        sequence_number: 3,
        response: { id: "resp_s", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: PLAN_MARKER }] }], usage: { input_tokens: 40, output_tokens: 50, total_tokens: 90, output_tokens_details: { reasoning_tokens: 7 } } },
      }),
    ];
    const upstream = await startUpstream(async (req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
      res.write(first);
      await released; // nothing more until the test has seen the first delta through the worker
      // Split the rest mid-event (and mid-JSON) to check boundaries mean nothing.
      const tail = rest.join("");
      res.write(tail.slice(0, 37));
      res.write(tail.slice(37));
      upstreamFinished = true;
      res.end();
    });
    try {
      const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ stream: true, store: false }) });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
      assert.equal(upstream.received[0].body.stream, true);

      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let seen = "";
      while (!seen.includes("## Learning Objective")) {
        const { done, value } = await reader.read();
        assert.ok(!done, "the stream ended before the first delta arrived");
        seen += decoder.decode(value, { stream: true });
      }
      assert.equal(upstreamFinished, false, "the first delta must arrive before the upstream has finished");
      assert.equal(logs.lines.length, 0, "a stream is logged when it ends, with its usage");

      release();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += decoder.decode(value, { stream: true });
      }
      assert.equal(upstreamFinished, true);
      assert.equal(seen, first + rest.join(""), "the stream is passed through byte for byte");

      assert.equal(logs.lines.length, 1);
      const entry = JSON.parse(logs.lines[0]);
      assert.equal(entry.status, 200);
      assert.equal(entry.stream, true);
      assert.equal(entry.event, "response.completed");
      assert.deepEqual(entry.usage, { input_tokens: 40, output_tokens: 50, total_tokens: 90, reasoning_tokens: 7 });
    } finally {
      release();
      await upstream.close();
    }
  });

  test("an incomplete answer's usage is logged from response.incomplete", async () => {
    const events = [
      sse({ type: "response.output_text.delta", delta: "part" }),
      sse({ type: "response.incomplete", response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, usage: { input_tokens: 5, output_tokens: 4000, total_tokens: 4005 } } }),
    ].join("").replaceAll("\n", "\r\n"); // CRLF framing is still SSE
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(events);
    });
    try {
      const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ stream: true }) });
      assert.equal(await response.text(), events);
      const entry = JSON.parse(logs.lines.at(-1));
      assert.equal(entry.event, "response.incomplete");
      assert.equal(entry.outcome, "incomplete");
      assert.deepEqual(entry.usage, { input_tokens: 5, output_tokens: 4000, total_tokens: 4005 });
    } finally {
      await upstream.close();
    }
  });
  test("a stream the upstream breaks off is still logged once, as broken", { timeout: 20000 }, async () => {
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(sse({ type: "response.output_text.delta", delta: "## Learning" }), () => res.destroy());
    });
    try {
      const response = await callWorker(schoolEnv(upstream), { token: TOKEN_A, body: lessonBody({ stream: true }) });
      assert.equal(response.status, 200);
      const reader = response.body.getReader();
      let ended = false;
      while (!ended) {
        try {
          ended = (await reader.read()).done;
        } catch {
          ended = true; // the break reaches the client as an error: it must not look complete
        }
      }
      while (logs.lines.length === 0) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(logs.lines.length, 1);
      const entry = JSON.parse(logs.lines[0]);
      assert.equal(entry.stream_broken, true);
      assert.equal(entry.usage, undefined);
    } finally {
      await upstream.close();
    }
  });
});

describe("logging", () => {
  test("one line per request: hash prefix, status and usage; never the prompt, the plan, the token or the key", async () => {
    const upstream = await startUpstream((req, res, record) => {
      if (record.body?.stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(sse({ type: "response.output_text.delta", delta: PLAN_MARKER }));
        res.end(sse({ type: "response.completed", response: { status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: PLAN_MARKER }] }], usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } } }));
      } else {
        jsonResponder(200, wholeAnswer(PLAN_MARKER))(req, res);
      }
    });
    try {
      const calls = [
        { token: TOKEN_A, body: lessonBody() },
        { token: TOKEN_A, body: lessonBody({ stream: true }) },
        { token: UNKNOWN_TOKEN, body: lessonBody() },
        { token: TOKEN_A, body: lessonBody({ model: PROMPT_MARKER }) },
        { token: TOKEN_A, body: lessonBody({ [PROMPT_MARKER]: 1 }) },
        { token: TOKEN_A, body: `{"input": "${PROMPT_MARKER}"` },
        { path: `/v1/responses/${PROMPT_MARKER}`, token: TOKEN_A, body: lessonBody() },
      ];
      for (const call of calls) await (await callWorker(schoolEnv(upstream), call)).text();

      assert.equal(logs.lines.length, calls.length, "one log line per request");
      for (const line of logs.lines) {
        for (const secret of ["PROMPT-MARKER", "Jamie", "PLAN-MARKER", TOKEN_A, UNKNOWN_TOKEN, SERVER_KEY, "Write a lesson plan"]) {
          assert.ok(!line.includes(secret), `a log line contains “${secret}”: ${line}`);
        }
      }
      const entries = logs.lines.map((line) => JSON.parse(line));
      assert.deepEqual(
        entries.map((entry) => entry.status),
        [200, 200, 401, 400, 400, 400, 404],
      );
      assert.equal(entries[0].teacher, sha256(TOKEN_A).slice(0, 8));
      assert.equal(entries[2].teacher, sha256(UNKNOWN_TOKEN).slice(0, 8));
      assert.equal(entries[6].teacher, null);
      assert.deepEqual(entries[0].usage, { input_tokens: 11, output_tokens: 22, total_tokens: 33 });
      assert.deepEqual(entries[1].usage, { input_tokens: 1, output_tokens: 2, total_tokens: 3 });
    } finally {
      await upstream.close();
    }
  });
});
