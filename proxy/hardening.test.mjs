// What a token holder (or a hostile provider answer) must not get through the worker: files and
// references in `input`, a personal key taken for the token, a nesting bomb treated as a network
// failure, the school's account details in a 429. And what the tool's --structured needs.

import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";

import { callWorker, collectLogs, jsonResponder, sha256, startUpstream, wholeAnswer } from "./support.mjs";

const TOKEN = "lpt_teacher-hardening-0123456789";
const SERVER_KEY = "server-key-for-tests-abcdef";
const PERSONAL_KEY = "sk-proj-PERSONAL-teacher-key-987654321";
const ORG = "org-AbCdEf1234567890";

let logs;
before(() => {
  logs = collectLogs();
});
after(() => logs.restore());
beforeEach(() => {
  logs.lines.length = 0;
});

function env(upstream, extra = {}) {
  return {
    OPENAI_API_KEY: SERVER_KEY,
    UPSTREAM_URL: upstream.url,
    TEACHER_TOKEN_SHA256: sha256(TOKEN),
    ALLOWED_MODELS: "gpt-5.2",
    MAX_BODY_BYTES: "65536",
    ...extra,
  };
}

const body = (extra = {}) => ({ model: "gpt-5.2", instructions: "Write a lesson plan.", input: "Tides, grade 4", stream: false, store: false, ...extra });

async function errorOf(response) {
  assert.equal(response.headers.get("content-type"), "application/json");
  const parsed = await response.json();
  assert.equal(typeof parsed.error?.message, "string");
  return parsed.error;
}

/** The schema-bearing body the tool's --structured sends (ResponseSchema.added(to:api: .responses)). */
function structuredBody() {
  const list = { type: "array", items: { type: "string" }, minItems: 1, maxItems: 4 };
  return body({
    stream: true,
    text: {
      format: {
        type: "json_schema",
        name: "lesson_plan",
        strict: true,
        schema: {
          type: "object",
          properties: { learning_objective: list, materials: list, exit_ticket: { ...list, minItems: 3, maxItems: 3 } },
          required: ["learning_objective", "materials", "exit_ticket"],
          additionalProperties: false,
        },
      },
    },
  });
}

describe("input is text only", () => {
  let upstream;
  before(async () => {
    upstream = await startUpstream(jsonResponder(200, wholeAnswer("plan")));
  });
  after(() => upstream.close());
  beforeEach(() => {
    upstream.received.length = 0;
  });

  test("a string, or messages of text, pass unchanged", async () => {
    const inputs = [
      "A lesson on fractions",
      [{ role: "user", content: "A lesson on fractions" }],
      [
        { type: "message", role: "developer", content: [{ type: "input_text", text: "Be brief." }] },
        { role: "user", content: [{ type: "input_text", text: "Fractions" }, { type: "input_text", text: "grade 4" }] },
        { role: "assistant", content: [{ type: "output_text", text: "## Learning Objective" }] },
      ],
    ];
    for (const input of inputs) {
      const response = await callWorker(env(upstream), { token: TOKEN, body: body({ input }) });
      assert.equal(response.status, 200, JSON.stringify(input));
      await response.text();
    }
    assert.deepEqual(
      upstream.received.map((request) => request.body.input),
      inputs,
    );
  });

  test("files, images, URLs, stored objects and other items are a 400 that says input must be text", async () => {
    const refused = {
      file_url: [{ role: "user", content: [{ type: "input_file", file_url: "https://example.com/100-pages.pdf" }] }],
      file_id: [{ role: "user", content: [{ type: "input_file", file_id: "file-abc123" }] }],
      file_data: [{ role: "user", content: [{ type: "input_file", filename: "a.pdf", file_data: "data:application/pdf;base64,AAAA" }] }],
      image: [{ role: "user", content: [{ type: "input_image", image_url: "https://example.com/a.png" }] }],
      image_file_id: [{ role: "user", content: [{ type: "input_image", file_id: "file-abc123" }] }],
      audio: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] }],
      item_reference: [{ type: "item_reference", id: "msg_abc123" }],
      bare_reference: [{ id: "msg_abc123" }],
      message_id: [{ role: "user", id: "msg_abc123", content: "hi" }],
      text_with_file: [{ role: "user", content: [{ type: "input_text", text: "hi", file_id: "file-abc123" }] }],
      function_output: [{ type: "function_call_output", call_id: "c1", output: "x" }],
      tool_role: [{ role: "tool", content: "x" }],
      not_an_object: ["A lesson on fractions"],
      nested_list: [[{ role: "user", content: "x" }]],
      empty_content: [{ role: "user", content: [] }],
      text_not_string: [{ role: "user", content: [{ type: "input_text", text: 5 }] }],
    };
    for (const [name, input] of Object.entries(refused)) {
      const response = await callWorker(env(upstream), { token: TOKEN, body: body({ input }) });
      assert.equal(response.status, 400, name);
      const error = await errorOf(response);
      assert.equal(error.code, "input_not_text", name);
      assert.match(error.param, /^input\[0\]/, name);
      assert.match(error.message, /accepts `input` only as text/, name);
      assert.match(error.message, /\.$/, `${name}: one sentence`);
    }
    assert.equal(upstream.received.length, 0, "nothing refused reaches the provider");
  });
});

describe("the school's header comes first; a personal key is never used", () => {
  let upstream;
  before(async () => {
    upstream = await startUpstream(jsonResponder(200, wholeAnswer("plan")));
  });
  after(() => upstream.close());
  beforeEach(() => {
    upstream.received.length = 0;
  });

  const assertKeyNowhere = () => {
    for (const request of upstream.received) {
      assert.equal(request.headers.authorization, `Bearer ${SERVER_KEY}`);
      assert.ok(!JSON.stringify(request.headers).includes(PERSONAL_KEY));
      assert.ok(!request.text.includes(PERSONAL_KEY));
    }
    for (const line of logs.lines) {
      assert.ok(!line.includes(PERSONAL_KEY), line);
      assert.ok(!line.includes(sha256(PERSONAL_KEY).slice(0, 8)), `the key's hash is logged: ${line}`);
    }
  };

  test("token in the school's header and a personal key in Authorization: served with the token", async () => {
    const response = await callWorker(env(upstream, { TEACHER_TOKEN_HEADER: "X-Teacher-Token" }), {
      headers: { "x-teacher-token": TOKEN, authorization: `Bearer ${PERSONAL_KEY}` },
      body: body(),
    });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(upstream.received.length, 1);
    assert.equal(JSON.parse(logs.lines[0]).teacher, sha256(TOKEN).slice(0, 8));
    assertKeyNowhere();
  });

  test("a personal key where the token belongs is a 401 that says so, not hashed into the log", async () => {
    const cases = [
      { env: {}, headers: { authorization: `Bearer ${PERSONAL_KEY}` } },
      { env: { TEACHER_TOKEN_HEADER: "X-Teacher-Token" }, headers: { authorization: `Bearer ${PERSONAL_KEY}` } },
      { env: { TEACHER_TOKEN_HEADER: "X-Teacher-Token" }, headers: { "x-teacher-token": PERSONAL_KEY } },
    ];
    for (const item of cases) {
      const response = await callWorker(env(upstream, item.env), { headers: item.headers, body: body() });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get("x-should-retry"), "false");
      const error = await errorOf(response);
      assert.equal(error.code, "invalid_teacher_token");
      assert.match(error.message, /not a teacher token/);
      assert.match(error.message, /LESSONPLAN_TOKEN/);
      assert.ok(!error.message.includes(PERSONAL_KEY.slice(-6)));
    }
    assert.equal(upstream.received.length, 0);
    assert.equal(logs.lines.length, cases.length);
    for (const line of logs.lines) assert.equal(JSON.parse(line).teacher, null);
    assertKeyNowhere();
  });

  test("with the school's header configured but not sent, Authorization: Bearer still works", async () => {
    const response = await callWorker(env(upstream, { TEACHER_TOKEN_HEADER: "X-Teacher-Token" }), { token: TOKEN, body: body() });
    assert.equal(response.status, 200);
    await response.text();
  });

  test("a TEACHER_TOKEN_HEADER that is not a header name is as if unset, not a 500", async () => {
    const response = await callWorker(env(upstream, { TEACHER_TOKEN_HEADER: "Bad Header:" }), { token: TOKEN, body: body() });
    assert.equal(response.status, 200);
    await response.text();
  });
});

describe("bodies that cannot be re-sent", () => {
  let upstream;
  before(async () => {
    upstream = await startUpstream(jsonResponder(200, wholeAnswer("plan")));
  });
  after(() => upstream.close());
  beforeEach(() => {
    upstream.received.length = 0;
  });

  const nested = (depth) => "[".repeat(depth) + "]".repeat(depth);

  test("a nesting bomb (30,000 nested arrays in 60 KB) is a 400, not a retryable 502", async () => {
    const bomb = nested(30000);
    const bodies = {
      input: `{"model":"gpt-5.2","input":${bomb}}`,
      reasoning: `{"model":"gpt-5.2","input":"x","reasoning":{"effort":${bomb}}}`,
      schema: `{"model":"gpt-5.2","input":"x","text":{"format":{"type":"json_schema","name":"n","schema":{"a":${bomb}}}}}`,
    };
    for (const [where, text] of Object.entries(bodies)) {
      assert.ok(text.length > 60000 && text.length < 65536, where);
      const response = await callWorker(env(upstream), { token: TOKEN, body: text });
      assert.equal(response.status, 400, where);
      assert.equal(response.headers.get("x-should-retry"), null);
      const error = await errorOf(response);
      assert.equal(error.code, "nesting_too_deep", where);
      assert.match(error.message, /nested more than 32 levels/);
    }
    assert.equal(upstream.received.length, 0);
  });

  test("a schema 32 levels deep passes; 33 is refused", async () => {
    const schemaOfDepth = (levels) => {
      // body › text › format › schema is 4 levels; each further object adds one.
      let schema = { type: "string" };
      for (let level = 4; level < levels; level++) schema = { type: "array", items: schema };
      return schema;
    };
    const withSchema = (schema) => body({ text: { format: { type: "json_schema", name: "deep", strict: true, schema } } });
    const passed = await callWorker(env(upstream), { token: TOKEN, body: withSchema(schemaOfDepth(32)) });
    assert.equal(passed.status, 200);
    await passed.text();
    const refused = await callWorker(env(upstream), { token: TOKEN, body: withSchema(schemaOfDepth(33)) });
    assert.equal(refused.status, 400);
    assert.equal((await errorOf(refused)).code, "nesting_too_deep");
    assert.equal(upstream.received.length, 1);
  });
});

describe("upstream 429s and account ids", () => {
  const rateLimited = {
    error: {
      message: `Rate limit reached for gpt-5.2 in organization ${ORG} on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.`,
      type: "requests",
      param: null,
      code: "rate_limit_exceeded",
    },
  };
  const quota = {
    error: {
      message: `You exceeded your current quota, please check your plan and billing details. Organization ${ORG}, monthly limit $120.00.`,
      type: "insufficient_quota",
      param: null,
      code: "insufficient_quota",
    },
  };
  const tooLarge = {
    error: {
      message: `Request too large for gpt-5.2 in organization ${ORG} on tokens per min (TPM): Limit 30000, Requested 48213. The input or output tokens must be reduced in order to run successfully.`,
      type: "tokens",
      param: null,
      code: "rate_limit_exceeded",
    },
  };
  const limitHeaders = {
    "retry-after": "7",
    "retry-after-ms": "6500",
    "x-ratelimit-limit-requests": "500",
    "x-ratelimit-remaining-tokens": "29000",
    "openai-organization": ORG,
    "x-request-id": "req_429",
  };

  for (const [name, answer, expected] of [
    ["a rate limit", rateLimited, { code: "rate_limit_exceeded", retry: null, sentence: /wait a minute, then try again/ }],
    ["a spent quota", quota, { code: "insufficient_quota", retry: "false", sentence: /run out of credit/ }],
    ["a request too large for the minute", tooLarge, { code: "request_too_large", retry: "false", sentence: /shorten the plan/ }],
  ]) {
    test(`${name} is the proxy's own sentence with retry-after, and no account details`, async () => {
      const upstream = await startUpstream(jsonResponder(429, answer, limitHeaders));
      try {
        for (const stream of [false, true]) {
          const response = await callWorker(env(upstream), { token: TOKEN, body: body({ stream }) });
          assert.equal(response.status, 429);
          assert.equal(response.headers.get("retry-after"), "7");
          assert.equal(response.headers.get("retry-after-ms"), "6500");
          assert.equal(response.headers.get("x-request-id"), "req_429");
          assert.equal(response.headers.get("x-should-retry"), expected.retry);
          for (const header of ["x-ratelimit-limit-requests", "x-ratelimit-remaining-tokens", "openai-organization"]) {
            assert.equal(response.headers.get(header), null, header);
          }
          const text = await response.clone().text();
          for (const detail of [ORG, "AbCdEf", "500", "30000", "48213", "120", "organization", "Organization"]) {
            assert.ok(!text.includes(detail), `the answer contains “${detail}”: ${text}`);
          }
          const error = await errorOf(response);
          assert.equal(error.code, expected.code);
          assert.match(error.message, expected.sentence);
        }
        const entry = JSON.parse(logs.lines.at(-1));
        assert.equal(entry.upstream_status, 429);
        assert.equal(entry.error_code, answer.error.code);
        assert.ok(!logs.lines.join("\n").includes(ORG));
      } finally {
        await upstream.close();
      }
    });
  }

  test("other error bodies pass with organisation and project ids masked", async () => {
    const said = { error: { message: `Project proj_Zy98Xw76 in ${ORG} cannot use this model.`, type: "invalid_request_error", code: "model_not_found" } };
    const upstream = await startUpstream(jsonResponder(404, said));
    try {
      const response = await callWorker(env(upstream), { token: TOKEN, body: body() });
      assert.equal(response.status, 404);
      const error = await errorOf(response);
      assert.equal(error.code, "model_not_found");
      assert.equal(error.message, "Project proj-… in org-… cannot use this model.");
    } finally {
      await upstream.close();
    }
  });
});

describe("text: what --structured sends", () => {
  let upstream;
  before(async () => {
    upstream = await startUpstream(jsonResponder(200, wholeAnswer('{"learning_objective":["x"]}')));
  });
  after(() => upstream.close());
  beforeEach(() => {
    upstream.received.length = 0;
  });

  test("a strict JSON schema in text.format is forwarded unchanged", async () => {
    const sent = structuredBody();
    const response = await callWorker(env(upstream), { token: TOKEN, body: sent });
    assert.equal(response.status, 200);
    await response.text();
    assert.deepEqual(upstream.received[0].body.text, sent.text);
    assert.equal(upstream.received[0].body.store, false);
    assert.equal(JSON.parse(logs.lines[0]).format, "json_schema");
  });

  test("plain text, a JSON object and verbosity pass", async () => {
    for (const text of [{ format: { type: "text" } }, { format: { type: "json_object" } }, { verbosity: "low" }, { format: { type: "text" }, verbosity: "high" }]) {
      const response = await callWorker(env(upstream), { token: TOKEN, body: body({ text }) });
      assert.equal(response.status, 200, JSON.stringify(text));
      await response.text();
    }
    assert.equal(upstream.received.length, 4);
  });

  test("other text shapes are a 400 naming what is wrong", async () => {
    const format = structuredBody().text.format;
    const refused = {
      "text.format.type": { format: { ...format, type: "grammar" } },
      "text.format.extra": { format: { ...format, extra: 1 } },
      "text.format.name": { format: { ...format, name: "has spaces" } },
      "text.format.schema": { format: { ...format, schema: "a string" } },
      "text.format.strict": { format: { ...format, strict: "yes" } },
      "text.format": { format: { type: "text", schema: {} } },
      "text.verbosity": { verbosity: "maximal" },
      "text.tools": { tools: [] },
      text: "json",
    };
    for (const [param, text] of Object.entries(refused)) {
      const response = await callWorker(env(upstream), { token: TOKEN, body: body({ text }) });
      assert.equal(response.status, 400, param);
      const error = await errorOf(response);
      assert.equal(error.param, param);
      assert.match(error.message, /^The field “text” /);
    }
    assert.equal(upstream.received.length, 0);
  });

  test("reasoning takes only effort and summary, each a word", async () => {
    const ok = await callWorker(env(upstream), { token: TOKEN, body: body({ reasoning: { effort: "minimal", summary: "auto" } }) });
    assert.equal(ok.status, 200);
    await ok.text();
    for (const reasoning of [{ effort: { nested: 1 } }, { effort: "low", generate_summary: "x" }, [], null, "low"]) {
      const response = await callWorker(env(upstream), { token: TOKEN, body: body({ reasoning }) });
      assert.equal(response.status, 400, JSON.stringify(reasoning));
      assert.equal((await errorOf(response)).param, "reasoning");
    }
  });
});

describe("the one-line hash list and the log's method", () => {
  test("hashes on one line, separated by spaces or commas, all grant access", async () => {
    const upstream = await startUpstream(jsonResponder(200, wholeAnswer("plan")));
    try {
      const other = "lpt_another-teacher-000111222";
      for (const list of [`${sha256(TOKEN)} ${sha256(other)}`, `${sha256(TOKEN)},${sha256(other)}`, `sha256: ${sha256(other)}, ${sha256(TOKEN)}`]) {
        for (const token of [TOKEN, other]) {
          const response = await callWorker(env(upstream, { TEACHER_TOKEN_SHA256: list }), { token, body: body() });
          assert.equal(response.status, 200, `${list} / ${token}`);
          await response.text();
        }
      }
    } finally {
      await upstream.close();
    }
  });

  test("an unusual method is logged as other, not by its name", async () => {
    const upstream = await startUpstream(jsonResponder(200, {}));
    try {
      const response = await callWorker(env(upstream), { method: "JAMIEROW3", token: TOKEN, body: "{}" });
      assert.equal(response.status, 405);
      assert.equal(JSON.parse(logs.lines.at(-1)).method, "other");
    } finally {
      await upstream.close();
    }
  });
});
