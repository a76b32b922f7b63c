/**
 * `toNodeHandler` called in process with stand-ins for Node's request and
 * response (it is typed structurally, so any object of that shape serves):
 * the cases a loopback HTTP/1.1 test cannot reach, such as TLS sockets,
 * HTTP/2 pseudo-headers and failures after the answer has started.
 *
 * @module
 */

import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { type NodeServerResponse, toNodeHandler } from "../../node.ts";

// Node's own request and response types (those Deno bundles) fit the structural ones: checked
// by `deno check` when the test task type-checks tests/.
void (toNodeHandler(() => new Response()) satisfies (
  req: IncomingMessage,
  res: ServerResponse,
) => Promise<void>);

/** A Node request stand-in: a readable of `body` with the request's fields. */
function fakeRequest(
  fields: { method?: string; url?: string; headers: Record<string, string>; encrypted?: boolean },
  body: string[] = [],
) {
  const stream = Readable.from(body.map((chunk) => new TextEncoder().encode(chunk)));
  return Object.assign(stream, {
    method: fields.method ?? "GET",
    url: fields.url ?? "/",
    headers: fields.headers,
    socket: { encrypted: fields.encrypted },
  });
}

/** A Node response stand-in that records what was written. */
class FakeResponse extends EventEmitter implements NodeServerResponse {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  headers = new Map<string, string | readonly string[]>();
  chunks: string[] = [];
  setHeader(name: string, value: string | readonly string[]): void {
    this.headers.set(name.toLowerCase(), value);
  }
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
  get body(): string {
    return this.chunks.join("");
  }
}

Deno.test("a request on a TLS socket gets an https: URL", async () => {
  let seen = "";
  const handler = toNodeHandler((request) => {
    seen = request.url;
    return new Response("ok");
  });
  const res = new FakeResponse();
  await handler(
    fakeRequest({ url: "/auth/session?x=1", headers: { host: "example.com" }, encrypted: true }),
    res,
  );
  assert.equal(seen, "https://example.com/auth/session?x=1");
  assert.equal(res.body, "ok");
});

Deno.test("HTTP/2 :authority gives the host and pseudo-headers are not passed on", async () => {
  let seen: Request | undefined;
  const handler = toNodeHandler((request) => {
    seen = request;
    return new Response(null, { status: 204 });
  });
  await handler(
    fakeRequest({ url: "/x", headers: { ":authority": "example.com:8443", ":path": "/x" } }),
    new FakeResponse(),
  );
  assert.equal(seen?.url, "http://example.com:8443/x");
  assert.deepEqual([...seen!.headers.keys()], []);
});

Deno.test("a request body streamed in chunks reaches the handler whole", async () => {
  let body = "";
  const handler = toNodeHandler(async (request) => {
    body = await request.text();
    return new Response(null, { status: 204 });
  });
  await handler(
    fakeRequest({ method: "POST", headers: { host: "example.com" } }, ["a", "b", "c"]),
    new FakeResponse(),
  );
  assert.equal(body, "abc");
});

Deno.test("a target that is neither a path nor an http URL is a 400", async () => {
  let called = false;
  const handler = toNodeHandler(() => {
    called = true;
    return new Response("ok");
  });
  for (const url of ["*", "evil.example/x", "ftp://evil.example/x"]) {
    const res = new FakeResponse();
    await handler(fakeRequest({ url, headers: { host: "example.com" } }), res);
    assert.equal(res.statusCode, 400, url);
    assert.equal(JSON.parse(res.body).error, "invalid_request", url);
  }
  assert.equal(called, false);
});

Deno.test("a failure after the answer started cuts the connection instead of ending cleanly", async () => {
  const errors: unknown[] = [];
  const handler = toNodeHandler(() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("partial"));
      },
      pull(controller) {
        controller.error(new Error("gone"));
      },
    });
    return new Response(body);
  }, { onError: (error) => errors.push(error) });
  const res = new FakeResponse();
  await handler(fakeRequest({ headers: { host: "example.com" } }), res);
  assert.equal(res.destroyed, true);
  assert.equal(res.writableEnded, false);
  assert.equal((errors[0] as Error).message, "gone");
});

Deno.test("an onError that throws does not make the handler reject", async () => {
  const handler = toNodeHandler(() => {
    throw new Error("handler failed");
  }, {
    onError: () => {
      throw new Error("reporter failed");
    },
  });
  const res = new FakeResponse();
  await handler(fakeRequest({ headers: { host: "example.com" } }), res);
  assert.equal(res.statusCode, 500);
  assert.deepEqual(JSON.parse(res.body), {
    error: "server_error",
    error_description: "The server could not complete the request.",
  });
});

Deno.test("a client gone before the body is written stops reading the body", async () => {
  let pulls = 0;
  const handler = toNodeHandler(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulls++;
          controller.enqueue(new Uint8Array(10));
        },
      }),
    )
  );
  const res = new FakeResponse();
  res.write = () => {
    res.headersSent = true;
    // The socket is full, then the client goes away.
    queueMicrotask(() => res.destroy());
    return false;
  };
  await handler(fakeRequest({ headers: { host: "example.com" } }), res);
  assert.equal(res.destroyed, true);
  assert.ok(pulls < 5, `pulled ${pulls} times`);
});
