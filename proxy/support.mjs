// Shared by the proxy's tests: a real upstream on 127.0.0.1, teacher tokens, and a log catcher.
// (Not a test file itself: `node --test proxy/` runs only *.test.mjs.)

import { createHash, webcrypto } from "node:crypto";
import http from "node:http";

import worker from "./worker.js";

// Workers (and Node 20) have Web Crypto as the global `crypto`; Debian 12's Node 18 does not.
if (!globalThis.crypto) globalThis.crypto = webcrypto;

/** Hex SHA-256 computed with node:crypto, independently of the worker's Web Crypto code. */
export function sha256(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Starts an HTTP server on 127.0.0.1 (port chosen by the system) that records every request
 * and answers with `respond(req, res, record)`.
 */
export async function startUpstream(respond) {
  const received = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const record = { method: req.method, url: req.url, headers: req.headers, text, body };
      received.push(record);
      Promise.resolve(respond(req, res, record)).catch((error) => {
        res.destroy(error);
      });
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1/responses`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A whole (non-streamed) Responses API answer whose text is `text`. */
export function wholeAnswer(text, usage = { input_tokens: 11, output_tokens: 22, total_tokens: 33 }) {
  return {
    id: "resp_test",
    object: "response",
    status: "completed",
    output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }],
    usage,
  };
}

/** Answers every request with a JSON body and status. */
export function jsonResponder(status, body, headers = {}) {
  return (req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Calls the worker's fetch handler with a real Request. */
export async function callWorker(env, { path = "/v1/responses", method = "POST", token, body, headers = {} } = {}) {
  const allHeaders = new Headers(headers);
  if (token !== undefined) allHeaders.set("authorization", `Bearer ${token}`);
  const init = { method, headers: allHeaders };
  if (body !== undefined && method !== "GET" && method !== "HEAD") {
    init.body = typeof body === "string" || body instanceof ReadableStream ? body : JSON.stringify(body);
    if (body instanceof ReadableStream) init.duplex = "half";
    if (!allHeaders.has("content-type")) allHeaders.set("content-type", "application/json");
  }
  const waited = [];
  const ctx = { waitUntil: (promise) => waited.push(promise), passThroughOnException() {} };
  return worker.fetch(new Request(`https://proxy.example${path}`, init), env, ctx);
}

/** Replaces console.log with a collector until `restore()`: the worker's log lines, one string per call. */
export function collectLogs() {
  const lines = [];
  const original = console.log;
  console.log = (...args) => lines.push(args.map(String).join(" "));
  return {
    lines,
    restore() {
      console.log = original;
    },
  };
}
