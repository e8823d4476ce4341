#!/usr/bin/env node
// Runs a Cloudflare-style worker (an ES module whose default export has `fetch(request, env, ctx)`)
// on 127.0.0.1 for LessonPlanBuilder's tests, under Node 20's own fetch, Request and Response.
// Node built-ins only.
//
//   node worker_host.mjs --worker FILE | --seed FILE  [--upstream http://127.0.0.1:PORT]
//                        [--env KEY=VALUE]... [--exit-with-stdin]
//
// --worker FILE   an ES module exporting `default.fetch`.
// --seed FILE     the original demo's text file: the worker is the text from the line
//                 `// Cloudflare Worker: lesson-plan-proxy.js` to the end, taken at run time and
//                 imported from a temporary .mjs file (the project keeps no copy of it).
// --upstream URL  requests the worker sends to https://api.openai.com/... go to this origin with
//                 the same path; env.UPSTREAM_URL is set to <URL>/v1/responses for workers that read it.
// --env KEY=VALUE the worker's env object (repeatable).
// --exit-with-stdin  exit when stdin reaches EOF, so the host dies with the test that started it.
//
// The first line on stdout is `PORT <n>`. Each request becomes a real `Request`; the worker's
// `Response` body is piped back as it arrives, chunk by chunk (no buffering).

import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

const SEED_MARKER = "// Cloudflare Worker: lesson-plan-proxy.js";
const OPENAI_ORIGIN = "https://api.openai.com";
// Hop-by-hop and framing headers: Node writes its own for the body it sends.
const NOT_FORWARDED = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"]);

function fail(message) {
  process.stderr.write(`worker_host: ${message}\n`);
  process.exit(2);
}

function parseArguments(argv) {
  const options = { env: {} };
  for (let index = 0; index < argv.length; index += 1) {
    const name = argv[index];
    const value = () => {
      index += 1;
      if (index >= argv.length) fail(`${name} needs a value`);
      return argv[index];
    };
    switch (name) {
      case "--worker": options.worker = value(); break;
      case "--seed": options.seed = value(); break;
      case "--upstream": options.upstream = value(); break;
      case "--env": {
        const pair = value();
        const equals = pair.indexOf("=");
        if (equals <= 0) fail(`--env "${pair}" must look like KEY=VALUE`);
        options.env[pair.slice(0, equals)] = pair.slice(equals + 1);
        break;
      }
      case "--exit-with-stdin": options.exitWithStdin = true; break;
      default: fail(`unknown argument ${name}`);
    }
  }
  if (!options.worker === !options.seed) fail("give exactly one of --worker FILE and --seed FILE");
  return options;
}

/// The seed's worker, cut from the seed text into a temporary module; removed when the host exits.
function extractSeedWorker(seedPath) {
  const text = fs.readFileSync(seedPath, "utf8");
  const start = text.indexOf(SEED_MARKER);
  if (start < 0) fail(`${seedPath} has no line "${SEED_MARKER}"`);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "worker-host-"));
  process.on("exit", () => fs.rmSync(directory, { recursive: true, force: true }));
  const file = path.join(directory, "lesson-plan-proxy.mjs");
  fs.writeFileSync(file, text.slice(start));
  return file;
}

/// Sends the worker's calls to api.openai.com to the local upstream instead, same path and query.
function redirectOpenAI(upstream) {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const href = input instanceof Request ? input.url : String(input);
    if (!href.startsWith(`${OPENAI_ORIGIN}/`)) return realFetch(input, init);
    const original = new URL(href);
    const target = new URL(original.pathname + original.search, upstream);
    if (!(input instanceof Request)) return realFetch(target, init);
    return realFetch(target, {
      method: input.method, headers: input.headers, body: input.body, signal: input.signal,
      duplex: "half", ...init,
    });
  };
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const workerFile = options.seed ? extractSeedWorker(options.seed) : path.resolve(options.worker);
  const env = { ...options.env };
  if (options.upstream) {
    const upstream = new URL(options.upstream);
    if (upstream.hostname !== "127.0.0.1") fail("--upstream must be on 127.0.0.1");
    env.UPSTREAM_URL ??= `${upstream.origin}/v1/responses`;
    redirectOpenAI(upstream.origin);
  }
  const worker = (await import(pathToFileURL(workerFile).href)).default;
  if (!worker || typeof worker.fetch !== "function") fail(`${workerFile} exports no default.fetch`);

  const server = http.createServer(async (incoming, outgoing) => {
    incoming.socket.setNoDelay(true);
    const aborter = new AbortController();
    outgoing.on("close", () => { if (!outgoing.writableFinished) aborter.abort(); });
    try {
      const headers = new Headers();
      for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
        headers.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1]);
      }
      const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
      const request = new Request(`http://${incoming.headers.host ?? "127.0.0.1"}${incoming.url}`, {
        method: incoming.method, headers, signal: aborter.signal,
        body: hasBody ? Readable.toWeb(incoming) : undefined, duplex: "half",
      });
      const context = { waitUntil(promise) { Promise.resolve(promise).catch(() => {}); }, passThroughOnException() {} };
      const response = await worker.fetch(request, env, context);
      const answerHeaders = {};
      for (const [name, value] of response.headers) {
        if (!NOT_FORWARDED.has(name)) answerHeaders[name] = value;
      }
      outgoing.writeHead(response.status, answerHeaders);
      outgoing.flushHeaders();
      if (response.body) {
        for await (const chunk of response.body) {
          outgoing.write(chunk);
        }
      }
      outgoing.end();
    } catch (error) {
      if (aborter.signal.aborted) return;
      process.stderr.write(`worker_host: the worker threw: ${error?.stack ?? error}\n`);
      if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end("worker_host: the worker threw");
    }
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`PORT ${server.address().port}\n`);
  });
  if (options.exitWithStdin) {
    process.stdin.on("end", () => process.exit(0));
    process.stdin.on("error", () => process.exit(0));
    process.stdin.resume();
  }
}

main().catch((error) => fail(error?.stack ?? String(error)));
