// teacher-token.mjs run as a program, and its token accepted by the worker.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";

import { callWorker, collectLogs, jsonResponder, sha256, startUpstream, wholeAnswer } from "./support.mjs";

const SCRIPT = fileURLToPath(new URL("./teacher-token.mjs", import.meta.url));

/** Runs the script with arguments (and optional standard input); resolves with its output and exit code. */
function run(args, input) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [SCRIPT, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
    child.stdin.end(input ?? "");
  });
}

function parseNew(stdout) {
  const token = /^token:\s+(\S+)$/m.exec(stdout)?.[1];
  const hash = /^sha256:\s+([0-9a-f]{64})$/m.exec(stdout)?.[1];
  assert.ok(token && hash, `unexpected output: ${stdout}`);
  return { token, hash };
}

let logs;
before(() => {
  logs = collectLogs();
});
after(() => logs.restore());

test("a new token comes with its SHA-256, and each run makes a different token", async () => {
  const first = await run([]);
  const second = await run([]);
  assert.equal(first.code, 0);
  const a = parseNew(first.stdout);
  const b = parseNew(second.stdout);
  assert.equal(a.hash, sha256(a.token));
  assert.notEqual(a.token, b.token);
  assert.match(a.token, /^lpt_[A-Za-z0-9_-]{43}$/);
  assert.match(first.stderr, /TEACHER_TOKEN_SHA256/);
  // Where the tool reads a school token; never the provider key's variable, which goes to OpenAI
  // whenever --endpoint is forgotten.
  assert.match(first.stderr, /`token = <token>`/);
  assert.match(first.stderr, /LESSONPLAN_TOKEN/);
  assert.doesNotMatch(first.stderr, /OPENAI_API_KEY/);
  assert.match(first.stderr, /one-line list/);
});

test("--hash prints the hash of a token given as an argument or on standard input", async () => {
  const fromArgument = await run(["--hash", "lpt_existing"]);
  assert.equal(fromArgument.code, 0);
  assert.equal(fromArgument.stdout, `${sha256("lpt_existing")}\n`);
  const fromInput = await run(["--hash"], "lpt_existing\n");
  assert.equal(fromInput.stdout, `${sha256("lpt_existing")}\n`);
});

test("a wrong use says how to use it and exits 2", async () => {
  const wrong = await run(["--bogus"]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /Usage/);
  const empty = await run(["--hash"], "");
  assert.equal(empty.code, 2);
  assert.equal(empty.stdout, "");
});

test("the worker accepts the token with the hash the script printed, and only that token", async () => {
  const { token, hash } = parseNew((await run([])).stdout);
  const upstream = await startUpstream(jsonResponder(200, wholeAnswer("plan")));
  try {
    const env = {
      OPENAI_API_KEY: "server-key-for-tests",
      UPSTREAM_URL: upstream.url,
      TEACHER_TOKEN_SHA256: hash,
      ALLOWED_MODELS: "gpt-5.2",
    };
    const body = { input: "A lesson on fractions", stream: false };
    const accepted = await callWorker(env, { token, body });
    assert.equal(accepted.status, 200);
    await accepted.text();
    const refused = await callWorker(env, { token: `${token}x`, body });
    assert.equal(refused.status, 401);
    await refused.text();
  } finally {
    await upstream.close();
  }
});
