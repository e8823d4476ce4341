// LessonPlanBuilder's proxy for schools: one OpenAI key on Cloudflare's edge, many teachers.
//
// Routes: POST /v1/responses (what `lessonplan --endpoint https://<worker>/v1/responses` posts)
// and POST /lessonplan (the same, for clients of the original demo's path). Anything else is a
// 404 or 405 with an OpenAI-shaped JSON error.
//
// Environment (wrangler.toml `[vars]`, `wrangler secret put`, bindings):
//   OPENAI_API_KEY        secret. The school's key; only this worker ever sees it.
//   UPSTREAM_URL          optional. Where requests go; default https://api.openai.com/v1/responses.
//   TEACHER_TOKEN_SHA256  secret. Lowercase or uppercase hex SHA-256 hashes of teacher tokens on
//                         one line (what `wrangler secret put`'s prompt takes), separated by commas
//                         or spaces; newlines work too. The tokens themselves are never stored.
//                         `node proxy/teacher-token.mjs` makes a token and its hash.
//   TEACHERS              optional KV binding whose keys are such hashes (any value). Either source
//                         grants access; revoking a teacher is deleting the hash from where it is.
//   TEACHER_TOKEN_HEADER  optional. A header name (e.g. X-Teacher-Token) whose whole value is the
//                         token (the tool's `token_header`). It is tried first: when it is sent,
//                         `Authorization` is ignored (it may carry a teacher's personal OpenAI key,
//                         which is never used, forwarded or logged). Without it, or when it is
//                         absent, `Authorization: Bearer <token>` is accepted.
//   ALLOWED_MODELS        comma list of models teachers may use; the first is used when the body
//                         names none. Unset or empty: every request fails with a 500 that says so.
//   MAX_OUTPUT_TOKENS     cap on max_output_tokens (default 8192); a body without one gets the cap.
//   MAX_BODY_BYTES        largest accepted request body (default 65536); larger is a 413.
//   RATE_LIMITER          optional Workers rate-limiting binding, keyed by the teacher's token hash.
//                         A refusal is a 429 with `retry-after: RATE_LIMIT_PERIOD`. Cloudflare counts
//                         per location (data centre), approximately: a teacher whose requests reach
//                         two locations gets the limit in each.
//   RATE_LIMIT_PERIOD     optional, seconds for retry-after (default 60); match the binding's period.
//
// Body fields accepted: model, instructions, input, max_output_tokens, stream, reasoning, text,
// and store (which the tool sends; its value is ignored, store is always false). Any other field
// is refused with a 400 that names it, so a client never silently gets something other than what
// it asked for, and nothing that costs more (tools, background runs) can pass. Within them:
//   input      a string, or messages ({role, content}) whose content is a string or text parts
//              (input_text, output_text): never files, images, URLs or references to stored
//              objects (input_file, input_image, file_id, item_reference, …), which would have the
//              provider fetch, read or bill things on the school's account.
//   text       {format: {type: "json_schema", name, schema, strict, description}} (what the tool's
//              --structured sends), {format: {type: "text" | "json_object"}}, and verbosity.
//   reasoning  {effort, summary}, each a word.
// A body nested deeper than MAX_DEPTH levels is refused with a 400 before anything else.
//
// Upstream answers pass through (a stream as it arrives), except: the provider refusing the
// school's key becomes a 502 for the administrator; a 429 becomes the proxy's own sentence (the
// provider's names the school's organisation and its quota), keeping retry-after; and any other
// error body has organisation and project ids masked.
//
// Logging: one JSON line per request with the first 8 hex digits of the teacher's token hash,
// path, status, model, whether it streamed, token usage and duration. Never prompt or plan text
// (plans may describe real students), never the token, never the key.

const DEFAULT_UPSTREAM_URL = "https://api.openai.com/v1/responses";
const DEFAULT_MAX_OUTPUT_TOKENS = 8192;
const DEFAULT_MAX_BODY_BYTES = 65536;
const DEFAULT_RATE_LIMIT_PERIOD = 60;
const ROUTES = new Set(["/v1/responses", "/lessonplan"]);
const ACCEPTED_FIELDS = ["model", "instructions", "input", "max_output_tokens", "stream", "reasoning", "text", "store"];
// Deeper than any request the tool sends (its schemas are a few levels); far below a stack's limit.
const MAX_DEPTH = 32;
const MESSAGE_ROLES = ["user", "assistant", "system", "developer"];
const TEXT_PART_TYPES = ["input_text", "output_text"];
// Methods logged by name; anything else is logged as "other".
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
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
      method: KNOWN_METHODS.has(request.method) ? request.method : "other",
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
        "No teacher token was sent; set LESSONPLAN_TOKEN (or `token` in the settings file) to the token the school gave you.",
        "invalid_request_error",
        "invalid_teacher_token",
      ),
    };
  }
  if (looksLikeProviderKey(token)) {
    // A teacher's own OpenAI key, sent where the token belongs: not hashed, not logged, not used.
    record.refused = "provider_key";
    return {
      response: errorResponse(
        401,
        "That is an OpenAI API key, not a teacher token; the school's proxy does not take keys. Set LESSONPLAN_TOKEN (or `token` in the settings file) to the token the school gave you.",
        "invalid_request_error",
        "invalid_teacher_token",
        NO_RETRY,
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
  if (depthExceeds(body, MAX_DEPTH)) {
    return {
      response: errorResponse(
        400,
        `The request is nested more than ${MAX_DEPTH} levels deep, which no lesson request needs; the school's proxy refuses it.`,
        "invalid_request_error",
        "nesting_too_deep",
      ),
    };
  }

  const checked = checkBody(body, models, positiveInteger(env.MAX_OUTPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS));
  if (checked.error) {
    return { response: errorResponse(400, checked.error, "invalid_request_error", checked.code, {}, checked.param) };
  }
  const forwarded = checked.body;
  record.model = forwarded.model;
  record.stream = forwarded.stream === true;
  record.max_output_tokens = forwarded.max_output_tokens;
  if (forwarded.text?.format?.type) record.format = forwarded.text.format.type;

  let serialized;
  try {
    serialized = JSON.stringify(forwarded);
  } catch {
    // Sending the same body again cannot help: a 400, never a retryable 5xx.
    return {
      response: errorResponse(400, "The school's proxy could not re-encode the request; send plain Responses API JSON.", "invalid_request_error", "invalid_json"),
    };
  }

  let upstream;
  try {
    upstream = await fetch(env.UPSTREAM_URL || DEFAULT_UPSTREAM_URL, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: record.stream ? "text/event-stream" : "application/json",
        authorization: `Bearer ${env.OPENAI_API_KEY}`,
      },
      body: serialized,
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

  if (upstream.status === 429) {
    // The provider's sentence names the school's organisation, its limits and its usage: the
    // teacher gets the proxy's own, with the provider's retry-after, and the log its code.
    const said = parseJSON(await upstream.text());
    const code = typeof said?.error?.code === "string" ? said.error.code : null;
    if (code) record.error_code = code.slice(0, 64);
    return { response: providerLimit(said, upstream.headers) };
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
  let text = await upstream.text();
  if (!upstream.ok) text = maskAccountIds(text);
  headers.set("content-type", contentType || "application/json");
  const summary = summarize(parseJSON(text));
  return { response: new Response(text, { status: upstream.status, headers }), deferLog: (finish) => finish(summary) };
}

/**
 * The token from the school's own header when one is configured and sent, else from
 * `Authorization: Bearer …`. The school's header comes first: a client that sends it may also
 * send a personal key as `Authorization`, which must not be taken for the token.
 */
function teacherToken(request, env) {
  const name = String(env.TEACHER_TOKEN_HEADER ?? "").trim();
  if (name) {
    let value = "";
    try {
      value = (request.headers.get(name) || "").trim();
    } catch {
      value = ""; // not a valid header name: as if unset
    }
    if (value) return value;
  }
  const authorization = request.headers.get("authorization") || "";
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1] : "";
}

/** Whether a credential has the shape of an OpenAI API key (`sk-…`) rather than a teacher token. */
function looksLikeProviderKey(token) {
  return /^sk-/i.test(token);
}

/**
 * Whether a parsed JSON value is nested deeper than `limit` arrays and objects. Walks with its
 * own stack, so a nesting bomb cannot exhaust the call stack here.
 */
export function depthExceeds(value, limit) {
  const stack = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop();
    if (item === null || typeof item !== "object") continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The proxy's own answer to an upstream 429, from the provider's error (which is not passed on). */
function providerLimit(said, upstreamHeaders) {
  const error = said?.error && typeof said.error === "object" ? said.error : {};
  const code = typeof error.code === "string" ? error.code : "";
  const message = typeof error.message === "string" ? error.message : "";
  const headers = passedHeaders(upstreamHeaders);
  const extra = Object.fromEntries(headers);
  if (code === "insufficient_quota") {
    return errorResponse(
      429,
      "The school's account with the model provider has run out of credit; tell the school's administrator (trying again will not help).",
      "insufficient_quota",
      "insufficient_quota",
      { ...extra, ...NO_RETRY },
    );
  }
  if (/request too large/i.test(message)) {
    return errorResponse(
      429,
      "This request is larger than the school's account with the model provider allows in one minute; shorten the plan or the request.",
      "invalid_request_error",
      "request_too_large",
      { ...extra, ...NO_RETRY },
    );
  }
  return errorResponse(
    429,
    "The model provider is limiting the school's requests just now; wait a minute, then try again.",
    "rate_limit_error",
    "rate_limit_exceeded",
    extra,
  );
}

/** An error body with OpenAI organisation and project ids masked (they name the school's account). */
function maskAccountIds(text) {
  return text.replace(/\b(org|proj)[-_][A-Za-z0-9]{4,}/g, "$1-…");
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
  const inputProblem = Array.isArray(input) ? checkInputItems(input) : null;
  if (inputProblem) return { ...inputProblem, code: "input_not_text" };
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== "string") {
    return { error: "The field “instructions” must be text.", code: "invalid_type", param: "instructions" };
  }
  if (body.stream !== undefined && typeof body.stream !== "boolean") {
    return { error: "The field “stream” must be true or false.", code: "invalid_type", param: "stream" };
  }
  if (body.reasoning !== undefined && !isWordsObject(body.reasoning, ["effort", "summary"])) {
    return {
      error: "The field “reasoning” must be an object such as {\"effort\": \"low\"}, with only “effort” and “summary”, each a word.",
      code: "invalid_type",
      param: "reasoning",
    };
  }
  const textProblem = body.text === undefined ? null : checkText(body.text);
  if (textProblem) return { ...textProblem, code: "invalid_type" };
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
  if (body.text !== undefined) forwarded.text = body.text;
  return { body: forwarded };
}

const plainObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const onlyKeys = (object, allowed) => Object.keys(object).every((key) => allowed.includes(key));
/** A short, printable rendering of a client's value for a sentence back to that client. */
const shown = (value) => JSON.stringify(String(value).slice(0, 40).replace(/[^\x20-\x7e]/g, "?"));

/** An object whose members are among `allowed` and are each a short word (such as "low"). */
function isWordsObject(value, allowed) {
  return (
    plainObject(value) &&
    onlyKeys(value, allowed) &&
    Object.values(value).every((word) => typeof word === "string" && /^[a-z_]{1,20}$/.test(word))
  );
}

const TEXT_ONLY =
  "the school's proxy accepts `input` only as text: a string, or messages ({\"role\", \"content\"}) whose content is a string or input_text / output_text parts; files, images, URLs and references are not accepted";

/** Why a list of input items is not text-only messages, or null when it is. */
function checkInputItems(items) {
  for (const [index, item] of items.entries()) {
    const where = `input[${index}]`;
    if (!plainObject(item)) return { error: `${where} is not a message: ${TEXT_ONLY}.`, param: where };
    if (item.type !== undefined && item.type !== "message") {
      return { error: `${where} is of type ${shown(item.type)}: ${TEXT_ONLY}.`, param: where };
    }
    const extra = Object.keys(item).find((key) => !["type", "role", "content"].includes(key));
    if (extra !== undefined) return { error: `${where} has the member ${shown(extra)}: ${TEXT_ONLY}.`, param: where };
    if (!MESSAGE_ROLES.includes(item.role)) {
      return { error: `${where} has no role of ${MESSAGE_ROLES.join(", ")}: ${TEXT_ONLY}.`, param: where };
    }
    const content = item.content;
    if (typeof content === "string") continue;
    if (!Array.isArray(content) || content.length === 0) {
      return { error: `${where}.content is neither text nor a list of text parts: ${TEXT_ONLY}.`, param: `${where}.content` };
    }
    for (const [partIndex, part] of content.entries()) {
      const partWhere = `${where}.content[${partIndex}]`;
      if (!plainObject(part) || !TEXT_PART_TYPES.includes(part.type)) {
        const type = plainObject(part) && part.type !== undefined ? ` is of type ${shown(part.type)}` : " is not a text part";
        return { error: `${partWhere}${type}: ${TEXT_ONLY}.`, param: partWhere };
      }
      const extraPart = Object.keys(part).find((key) => !["type", "text"].includes(key));
      if (extraPart !== undefined) return { error: `${partWhere} has the member ${shown(extraPart)}: ${TEXT_ONLY}.`, param: partWhere };
      if (typeof part.text !== "string") return { error: `${partWhere} has no text: ${TEXT_ONLY}.`, param: partWhere };
    }
  }
  return null;
}

/**
 * Why a `text` field is not one the proxy passes, or null when it is: a JSON schema for the answer
 * (the tool's --structured), plain text or a JSON object, and verbosity.
 */
function checkText(text) {
  const refuse = (why, param = "text") => ({
    error: `The field “text” ${why}; the school's proxy accepts {"format": {"type": "json_schema", "name", "schema", "strict"}}, {"format": {"type": "text"}} or {"format": {"type": "json_object"}}, and "verbosity".`,
    param,
  });
  if (!plainObject(text)) return refuse("must be an object");
  const extra = Object.keys(text).find((key) => !["format", "verbosity"].includes(key));
  if (extra !== undefined) return refuse(`has the member ${shown(extra)}`, `text.${extra}`);
  if (text.verbosity !== undefined && !["low", "medium", "high"].includes(text.verbosity)) {
    return refuse("has a verbosity other than low, medium or high", "text.verbosity");
  }
  const format = text.format;
  if (format === undefined) return null;
  if (!plainObject(format)) return refuse("has a format that is not an object", "text.format");
  if (format.type === "text" || format.type === "json_object") {
    return onlyKeys(format, ["type"]) ? null : refuse(`has a ${format.type} format with other members`, "text.format");
  }
  if (format.type !== "json_schema") return refuse(`has a format of type ${shown(format.type)}`, "text.format.type");
  const extraFormat = Object.keys(format).find((key) => !["type", "name", "schema", "strict", "description"].includes(key));
  if (extraFormat !== undefined) return refuse(`has the format member ${shown(extraFormat)}`, `text.format.${extraFormat}`);
  if (typeof format.name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(format.name)) {
    return refuse("has a schema name that is not 1 to 64 letters, digits, _ or -", "text.format.name");
  }
  if (!plainObject(format.schema)) return refuse("has a schema that is not a JSON object", "text.format.schema");
  if (format.strict !== undefined && format.strict !== null && typeof format.strict !== "boolean") {
    return refuse("has a strict that is not true or false", "text.format.strict");
  }
  if (format.description !== undefined && typeof format.description !== "string") {
    return refuse("has a description that is not text", "text.format.description");
  }
  return null;
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
    summary.error_code = response.error.code.slice(0, 64);
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
