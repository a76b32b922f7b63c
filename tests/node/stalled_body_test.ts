/**
 * A request body that never ends, through `toNodeHandler` (a Node request
 * stand-in whose stream stays open): refused at once without a CSRF cookie,
 * answered 408 after the body deadline with one.
 *
 * @module
 */

import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { createAuth } from "../../mod.ts";
import { type NodeServerResponse, toNodeHandler } from "../../node.ts";
import { contextOf } from "../../src/create_auth.ts";
import { createHandler } from "../../src/handler.ts";

/** A Node request stand-in whose form body sends its first bytes and then never ends. */
function stalledRequest(headers: Record<string, string>) {
  const stream = new Readable({ read() {} });
  stream.push(new TextEncoder().encode("csrfToken="));
  return Object.assign(stream, {
    method: "POST",
    url: "/auth/signOut",
    headers: {
      host: "localhost:8000",
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    socket: {},
  });
}

class FakeResponse extends EventEmitter implements NodeServerResponse {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  chunks: string[] = [];
  setHeader(): void {}
  write(chunk: Uint8Array): boolean {
    this.headersSent = true;
    this.chunks.push(new TextDecoder().decode(chunk));
    return true;
  }
  end(chunk?: string): void {
    this.headersSent = true;
    if (chunk !== undefined) this.chunks.push(chunk);
    this.writableEnded = true;
    this.emit("close");
  }
  destroy(): void {
    this.destroyed = true;
    this.emit("close");
  }
}

async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("Node: a never-ending form body is 403 at once without a CSRF cookie, 408 after the deadline with one", async () => {
  const auth = createAuth({
    oauth: [],
    secret: "node-stall-secret-0123456789abcdef-0123456789",
    logger: false,
    env: {},
  });
  const handler = toNodeHandler(createHandler({ ...contextOf(auth), bodyTimeoutMs: 50 }));
  const refused = new FakeResponse();
  const first = stalledRequest({});
  await within(1_000, handler(first, refused));
  assert.equal(refused.statusCode, 403);
  assert.equal(JSON.parse(refused.chunks.join("")).error, "invalid_csrf_token");
  first.destroy();

  const csrf = await auth.handlers.ALL(new Request("http://localhost:8000/auth/csrfToken"));
  const cookie = csrf.headers.getSetCookie()[0].split(";")[0];
  const timedOut = new FakeResponse();
  const second = stalledRequest({ cookie });
  await within(1_000, handler(second, timedOut));
  assert.equal(timedOut.statusCode, 408);
  assert.equal(JSON.parse(timedOut.chunks.join("")).error, "invalid_request");
  second.destroy();
});
