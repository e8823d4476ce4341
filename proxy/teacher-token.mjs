#!/usr/bin/env node
// Makes a teacher token for the school's proxy, or hashes an existing one.
//
//   node proxy/teacher-token.mjs               a new token (give it to the teacher, once: it goes
//                                              in their settings file as `token = …`, or in
//                                              LESSONPLAN_TOKEN) and its SHA-256 (add it to the
//                                              comma-separated TEACHER_TOKEN_SHA256 line, or to KV)
//   node proxy/teacher-token.mjs --hash TOKEN  the SHA-256 of an existing token
//   node proxy/teacher-token.mjs --hash        the same, reading the token from standard input
//                                              (keeps it out of the shell history)
//
// The worker stores only the hash; the token itself is never written anywhere by this script.

import { createHash, randomBytes } from "node:crypto";
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Lowercase hex SHA-256 of the token's UTF-8 bytes: the same hash the worker computes. */
export function hashToken(token) {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new token: 32 random bytes, URL-safe, with a prefix that says what it is. */
export function newToken() {
  return `lpt_${randomBytes(32).toString("base64url")}`;
}

async function readStandardInput() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0].trim();
}

async function main(args) {
  if (args.length === 0) {
    const token = newToken();
    process.stdout.write(`token:  ${token}\nsha256: ${hashToken(token)}\n`);
    process.stderr.write(
      "Give the token to the teacher, once: it goes in their settings file ~/.config/lessonplan/config as `token = <token>`, " +
        "beside `endpoint = https://<worker>/v1/responses` (or in LESSONPLAN_TOKEN with --endpoint for one run). " +
        "Add the sha256 to the one-line list you paste at `wrangler secret put TEACHER_TOKEN_SHA256` " +
        "(hashes separated by commas), or to the TEACHERS KV namespace.\n",
    );
    return 0;
  }
  if (args[0] === "--hash" && args.length <= 2) {
    const token = args.length === 2 ? args[1].trim() : await readStandardInput();
    if (!token) {
      process.stderr.write("No token was given; pass it after --hash or on standard input.\n");
      return 2;
    }
    process.stdout.write(`${hashToken(token)}\n`);
    return 0;
  }
  process.stderr.write("Usage: node proxy/teacher-token.mjs [--hash [TOKEN]]; with no arguments it makes a new token.\n");
  return 2;
}

// Run only when started as a program, not when a test imports the functions.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
