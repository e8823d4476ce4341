// LessonPlanBuilder's proxy for schools: one OpenAI key on Cloudflare's edge, many teachers.
//
// Routes: POST /v1/responses (what `lessonplan --endpoint https://<worker>/v1/responses` posts)
// and POST /lessonplan (the same, for clients of the original demo's path). Anything else is a
// 404 or 405 with an OpenAI-shaped JSON error.
//
// Environment (wrangler.toml `[vars]`, `wrangler secret put`, bindings):
//   OPENAI_API_KEY        secret. The school's key; only this worker ever sees it.
//   UPSTREAM_URL          optional. Where requests go; default https://api.openai.com/v1/responses.
//   TEACHER_TOKEN_SHA256  secret. Lowercase or uppercase hex SHA-256 hashes of teacher tokens,
//                         separated by commas, spaces or newlines. The tokens themselves are never
//                         stored. `node proxy/teacher-token.mjs` makes a token and its hash.
//   TEACHERS              optional KV binding whose keys are such hashes (any value). Either source
//                         grants access; revoking a teacher is deleting the hash from where it is.
//   TEACHER_TOKEN_HEADER  optional. A header name (e.g. X-Teacher-Token) whose whole value is also
//                         accepted as the token, for schools whose clients send `--header`.
//                         `Authorization: Bearer <token>` is always accepted.
//   ALLOWED_MODELS        comma list of models teachers may use; the first is used when the body
//                         names none. Unset or empty: every request fails with a 500 that says so.
//   MAX_OUTPUT_TOKENS     cap on max_output_tokens (default 8192); a body without one gets the cap.
//   MAX_BODY_BYTES        largest accepted request body (default 65536); larger is a 413.
//   RATE_LIMITER          optional Workers rate-limiting binding, keyed by the teacher's token hash.
//                         A refusal is a 429 with `retry-after: RATE_LIMIT_PERIOD`.
//   RATE_LIMIT_PERIOD     optional, seconds for retry-after (default 60); match the binding's period.
//
// Body fields accepted: model, instructions, input, max_output_tokens, stream, reasoning, and
// store (which the tool sends; its value is ignored, store is always false). Any other field is
// refused with a 400 that names it, so a client never silently gets something other than what
// it asked for, and nothing that costs more (tools, background runs) can pass.
//
// Logging: one JSON line per request with the first 8 hex digits of the teacher's token hash,
// path, status, model, whether it streamed, token usage and duration. Never prompt or plan text
// (plans may describe real students), never the token, never the key.

const DEFAULT_UPSTREAM_URL = "https://api.openai.com/v1/responses";
const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
const DEFAULT_MAX_BODY_BYTES = 65536;
const DEFAULT_RATE_LIMIT_PERIOD = 60;
const ROUTES = new Set(["/v1/responses", "/lessonplan"]);
const ACCEPTED_FIELDS = ["model", "instructions", "input", "max_output_tokens", "stream", "reasoning", "store"];
// The final event of a streamed answer carries usage; one larger than this is not parsed for it.
const MAX_WATCHED_EVENT_CHARS = 4 * 1024 * 1024;
// On a 5xx that trying again cannot fix: OpenAI's clients, and the tool, then do not retry.
const NO_RETRY = { "x-should-retry": "false" };

export default {
  async fetch(request, env, ctx) {
    const path = pathOf(request.url);
    const record = {
      // Only a known route is logged by name: a stray path could carry anything.
      path: ROUTES.has(path) ? path : "other",
      method: request.method,
      teacher: null,
      status: 0,
    };
    const started = Date.now();
    const finish = (extra) => {
      Object.assign(record, extra, { ms: Date.now() - started });
      console.log(JSON.stringify(record));
    };
    let outcome;
    try {
      outcome = await handle(request, path, env ?? {}, ctx, record);
    } catch (error) {
      outcome = {
        response: errorResponse(
          500,
          "The school's proxy failed unexpectedly; try again, and tell the school's administrator if it keeps happening.",
          "server_error",
          "proxy_error",
        ),
      };
      record.failure = error instanceof Error ? error.name : "unknown";
    }
    record.status = outcome.response.status;
    if (outcome.deferLog) {
      // A stream logs when it ends, with the usage its last event reported.
      outcome.deferLog(finish);
    } else {
      finish({});
    }
    return outcome.response;
  },
};

/** The request's path without the query string. */
function pathOf(url) {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

/** Runs one request through the checks in order and returns the response (and, for a stream, when to log). */
async function handle(request, path, env, ctx, record) {
  if (!ROUTES.has(path)) {
    return {
      response: errorResponse(404, "Not found: this proxy answers POST /v1/responses (and /lessonplan) only.", "invalid_request_error", "not_found"),
    };
  }
  if (request.method !== "POST") {
    return {
      response: errorResponse(405, `Method ${request.method} is not allowed here; send POST.`, "invalid_request_error", "method_not_allowed", {
        allow: "POST",
      }),
    };
  }

  const token = teacherToken(request, env);
  if (!token) {
    return {
      response: errorResponse(
        401,
        "No teacher token was sent; send the token the school gave you as `Authorization: Bearer <token>`.",
        "invalid_request_error",
        "invalid_teacher_token",
      ),
    };
  }
  const hash = await sha256Hex(token);
  record.teacher = hash.slice(0, 8);
  if (!(await isKnownTeacher(hash, env))) {
    return {
      response: errorResponse(
        401,
        "This teacher token is not recognised by the school's proxy; check it, or ask the school for a new one.",
        "invalid_request_error",
        "invalid_teacher_token",
      ),
    };
  }

  if (env.RATE_LIMITER && typeof env.RATE_LIMITER.limit === "function") {
    const { success } = await env.RATE_LIMITER.limit({ key: hash });
    if (!success) {
      const period = positiveInteger(env.RATE_LIMIT_PERIOD, DEFAULT_RATE_LIMIT_PERIOD);
      return {
        response: errorResponse(
          429,
          `You have sent more requests than the school allows per ${period} seconds; wait a minute, then try again.`,
          "rate_limit_error",
          "rate_limit_exceeded",
          { "retry-after": String(period) },
        ),
      };
    }
  }

  const models = listOf(env.ALLOWED_MODELS);
  if (models.length === 0) {
    return {
      response: errorResponse(
        500,
        "The school's proxy has no ALLOWED_MODELS setting; the administrator must add it to wrangler.toml.",
        "server_error",
        "proxy_misconfigured",
        NO_RETRY,
      ),
    };
  }
  if (!env.OPENAI_API_KEY) {
    return {
      response: errorResponse(
        500,
        "The school's proxy has no OPENAI_API_KEY secret; the administrator must run `wrangler secret put OPENAI_API_KEY`.",
        "server_error",
        "proxy_misconfigured",
        NO_RETRY,
      ),
    };
  }

  const maxBodyBytes = positiveInteger(env.MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES);
  const bytes = await readLimited(request, maxBodyBytes);
  if (bytes === null) {
    return {
      response: errorResponse(
        413,
        `The request is larger than the ${maxBodyBytes} bytes the school's proxy accepts; shorten the plan or the request.`,
        "invalid_request_error",
        "request_too_large",
      ),
    };
  }
  let body;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return { response: errorResponse(400, "The request body is not a JSON object; send the Responses API's JSON.", "invalid_request_error", "invalid_json") };
  }

  const checked = checkBody(body, models, positiveInteger(env.MAX_OUTPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS));
  if (checked.error) {
    return { response: errorResponse(400, checked.error, "invalid_request_error", checked.code, {}, checked.param) };
  }
  const forwarded = checked.body;
  record.model = forwarded.model;
  record.stream = forwarded.stream === true;
  record.max_output_tokens = forwarded.max_output_tokens;

  let upstream;
  try {
    upstream = await fetch(env.UPSTREAM_URL || DEFAULT_UPSTREAM_URL, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: record.stream ? "text/event-stream" : "application/json",
        authorization: `Bearer ${env.OPENAI_API_KEY}`,
      },
      body: JSON.stringify(forwarded),
    });
  } catch {
    return {
      response: errorResponse(
        502,
        "The school's proxy could not reach the model provider; wait a moment, then try again.",
        "server_error",
        "upstream_unreachable",
      ),
    };
  }
  record.upstream_status = upstream.status;

  if (upstream.status === 401 || upstream.status === 403) {
    // The school's key was refused. Passing that on would tell the teacher their token is wrong,
    // and OpenAI's message names the end of the key.
    await upstream.body?.cancel();
    return {
      response: errorResponse(
        502,
        "The model provider refused the school's API key; tell the school's administrator.",
        "server_error",
        "upstream_key_rejected",
        NO_RETRY,
      ),
    };
  }

  const headers = passedHeaders(upstream.headers);
  const contentType = upstream.headers.get("content-type") || "";
  if (upstream.ok && record.stream && upstream.body && contentType.toLowerCase().startsWith("text/event-stream")) {
    headers.set("content-type", contentType);
    headers.set("cache-control", "no-cache");
    const watcher = usageWatcher();
    // pipeThrough, spelled out so that a stream broken off by either side is still logged.
    const piping = upstream.body.pipeTo(watcher.stream.writable).catch(() => watcher.broken());
    ctx?.waitUntil?.(piping);
    return {
      response: new Response(watcher.stream.readable, { status: upstream.status, headers }),
      deferLog: (finish) => watcher.onEnd((summary) => finish(summary)),
    };
  }

  // A whole answer or an error: small enough to read, and read for its usage.
  const text = await upstream.text();
  headers.set("content-type", contentType || "application/json");
  const summary = summarize(parseJSON(text));
  return { response: new Response(text, { status: upstream.status, headers }), deferLog: (finish) => finish(summary) };
}

/** The token from `Authorization: Bearer …`, else from the school's own header when one is configured. */
function teacherToken(request, env) {
  const authorization = request.headers.get("authorization") || "";
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match) return match[1];
  if (env.TEACHER_TOKEN_HEADER) {
    const value = (request.headers.get(String(env.TEACHER_TOKEN_HEADER)) || "").trim();
    if (value) return value;
  }
  return "";
}

/** Lowercase hex SHA-256 of the token's UTF-8 bytes (what teacher-token.mjs prints). */
export async function sha256Hex(text) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether the hash is one of the school's. Every stored hash is compared in full, so the time
 * taken says nothing about how close a guess came or which entry matched; the KV lookup is by
 * hash, which reveals nothing a guesser could use without a preimage.
 */
async function isKnownTeacher(hash, env) {
  const candidate = hexBytes(hash);
  let found = 0;
  for (const stored of listOf(env.TEACHER_TOKEN_SHA256)) {
    const bytes = hexBytes(stored.toLowerCase());
    if (bytes.length !== 32) continue; // a malformed entry can never match
    let difference = 0;
    for (let index = 0; index < 32; index++) difference |= bytes[index] ^ candidate[index];
    found |= difference === 0 ? 1 : 0;
  }
  if (found === 1) return true;
  if (env.TEACHERS && typeof env.TEACHERS.get === "function") {
    return (await env.TEACHERS.get(hash)) !== null;
  }
  return false;
}

/** Bytes of a hex string; an odd length or a non-hex character gives an empty array. */
function hexBytes(hex) {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) return new Uint8Array(0);
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/** Entries of a setting separated by commas or whitespace (newlines included). */
function listOf(value) {
  return String(value ?? "")
    .split(/[\s,]+/)
    .filter((entry) => entry.length > 0);
}

/** A positive integer setting, or the default when it is unset or not one. */
function positiveInteger(value, fallback) {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

/** The body's bytes, or null as soon as it is known to exceed the limit (header or bytes read). */
async function readLimited(request, limit) {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Checks the body against the accepted fields and settings; returns the body to forward or the sentence why not. */
export function checkBody(body, models, maxOutputTokens) {
  const unknown = Object.keys(body).filter((key) => !ACCEPTED_FIELDS.includes(key));
  if (unknown.length > 0) {
    return {
      error: `The school's proxy does not accept the field “${unknown[0]}”; it accepts only ${ACCEPTED_FIELDS.join(", ")}.`,
      code: "unknown_parameter",
      param: unknown[0],
    };
  }
  const model = body.model === undefined || body.model === null || body.model === "" ? models[0] : body.model;
  if (typeof model !== "string" || !models.includes(model)) {
    return {
      error: `The model “${String(model)}” is not allowed by the school's proxy; use one of: ${models.join(", ")}.`,
      code: "model_not_allowed",
      param: "model",
    };
  }
  const input = body.input;
  const hasInput = (typeof input === "string" && input.trim() !== "") || (Array.isArray(input) && input.length > 0);
  if (!hasInput) {
    return { error: "The request has no input; send the lesson request as `input`.", code: "missing_input", param: "input" };
  }
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== "string") {
    return { error: "The field “instructions” must be text.", code: "invalid_type", param: "instructions" };
  }
  if (body.stream !== undefined && typeof body.stream !== "boolean") {
    return { error: "The field “stream” must be true or false.", code: "invalid_type", param: "stream" };
  }
  if (body.reasoning !== undefined && (body.reasoning === null || typeof body.reasoning !== "object" || Array.isArray(body.reasoning))) {
    return { error: "The field “reasoning” must be an object such as {\"effort\": \"low\"}.", code: "invalid_type", param: "reasoning" };
  }
  let limit = maxOutputTokens;
  if (body.max_output_tokens !== undefined && body.max_output_tokens !== null) {
    if (!Number.isInteger(body.max_output_tokens) || body.max_output_tokens < 1) {
      return { error: "The field “max_output_tokens” must be a whole number above 0.", code: "invalid_type", param: "max_output_tokens" };
    }
    limit = Math.min(body.max_output_tokens, maxOutputTokens);
  }
  const forwarded = { model, input, max_output_tokens: limit, store: false };
  if (typeof body.instructions === "string") forwarded.instructions = body.instructions;
  if (body.stream === true) forwarded.stream = true;
  if (body.reasoning !== undefined) forwarded.reasoning = body.reasoning;
  return { body: forwarded };
}

/** The upstream headers a client may use: retry hints and the request id for support. */
function passedHeaders(upstreamHeaders) {
  const headers = new Headers();
  for (const name of ["retry-after", "retry-after-ms", "x-request-id"]) {
    const value = upstreamHeaders.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the log keeps of a response object: its status and token counts, nothing it says. */
function summarize(response) {
  if (!response || typeof response !== "object") return {};
  const summary = {};
  if (typeof response.status === "string") summary.outcome = response.status;
  const usage = response.usage;
  if (usage && typeof usage === "object") {
    summary.usage = {};
    for (const name of ["input_tokens", "output_tokens", "total_tokens"]) {
      if (Number.isFinite(usage[name])) summary.usage[name] = usage[name];
    }
    const reasoning = usage.output_tokens_details?.reasoning_tokens;
    if (Number.isFinite(reasoning)) summary.usage.reasoning_tokens = reasoning;
    const cached = usage.input_tokens_details?.cached_tokens;
    if (Number.isFinite(cached)) summary.usage.cached_tokens = cached;
  }
  if (response.error && typeof response.error === "object" && typeof response.error.code === "string") {
    summary.error_code = response.error.code;
  }
  return summary;
}

/**
 * A TransformStream that passes every chunk on the moment it arrives and, on the side, reads the
 * SSE events for the final one (response.completed, .incomplete or .failed) to learn the usage.
 */
function usageWatcher() {
  const decoder = new TextDecoder();
  let pending = ""; // text of the event being received, up to a blank line
  let skipping = false; // the current event grew too large to parse; wait for its end
  let summary = {};
  let ended = false;
  let listener = null;
  const end = (extra) => {
    if (ended) return;
    ended = true;
    Object.assign(summary, extra);
    if (listener) listener(summary);
  };
  let scanFrom = 0; // where to look for the next blank line: text before it was already searched
  const boundaries = /\r\n\r\n|\n\n|\r\r/g;
  const consume = (text) => {
    pending += text;
    for (;;) {
      boundaries.lastIndex = scanFrom;
      const boundary = boundaries.exec(pending);
      if (!boundary) {
        scanFrom = Math.max(0, pending.length - 3);
        break;
      }
      const event = pending.slice(0, boundary.index);
      pending = pending.slice(boundary.index + boundary[0].length);
      scanFrom = 0;
      if (skipping) {
        skipping = false;
        continue;
      }
      inspect(event);
    }
    if (pending.length > MAX_WATCHED_EVENT_CHARS) {
      pending = "";
      scanFrom = 0;
      skipping = true;
    }
  };
  const inspect = (event) => {
    // Cheap screen first: text deltas are most of a stream and never carry usage.
    if (!event.includes('"usage"') && !event.includes('"response.failed"')) return;
    const data = event
      .split(/\r\n|\n|\r/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
      .join("\n");
    const parsed = parseJSON(data);
    if (!parsed || typeof parsed !== "object") return;
    if (["response.completed", "response.incomplete", "response.failed"].includes(parsed.type)) {
      summary = { event: parsed.type, ...summarize(parsed.response) };
    }
  };
  const stream = new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      consume(decoder.decode(chunk, { stream: true }));
    },
    flush() {
      consume(decoder.decode() + "\n\n");
      end({});
    },
  });
  return {
    stream,
    /** The upstream broke off or the client went away before the end. */
    broken() {
      end({ stream_broken: true });
    },
    onEnd(callback) {
      listener = callback;
      if (ended) callback(summary);
    },
  };
}

/** An OpenAI-shaped JSON error, which the tool turns into its usual sentence. */
function errorResponse(status, message, type, code, extraHeaders = {}, param = null) {
  return new Response(JSON.stringify({ error: { message, type, param, code } }), {
    status,
    headers: { "content-type": "application/json", ...extraHeaders },
  });
}
