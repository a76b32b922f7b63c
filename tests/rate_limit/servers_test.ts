// Rate limits through real servers: Deno.serve (its info is the handlers' second argument)
// and node:http through toNodeHandler (the socket's address), on 127.0.0.1 and ::1; 100
// concurrent requests let exactly `max` through, with and without a store.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type ClientInfo, type Handler, memoryStore } from "../../mod.ts";
import { toNodeHandler } from "../../node.ts";
import { fullAuth } from "./_helpers.ts";

const MAX = 7;

/** A running server of `handler` on `hostname`, and the origin to reach it. */
interface Served extends AsyncDisposable {
  origin: string;
}

function serveDeno(handler: Handler, hostname: string): Served {
  const server = Deno.serve({ hostname, port: 0, onListen: () => {} }, handler);
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    origin: `http://${host}:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

async function serveNode(handler: Handler, hostname: string): Promise<Served> {
  const server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, hostname, resolve));
  const { port } = server.address() as AddressInfo;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    origin: `http://${host}:${port}`,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends `count` sign-up posts at once; resolves their statuses and the last RateLimit header. */
async function burst(
  origin: string,
  count: number,
  headers: (i: number) => HeadersInit = () => ({}),
) {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetch(`${origin}/auth/signUp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers(i) },
        body: "{}",
      })),
  );
  const statuses: number[] = [];
  for (const response of responses) {
    await response.body?.cancel();
    statuses.push(response.status);
  }
  return { statuses, policy: responses[0].headers.get("RateLimit-Policy") };
}

const SERVERS = [
  ["Deno.serve", (handler: Handler, host: string) => Promise.resolve(serveDeno(handler, host))],
  ["node:http with toNodeHandler", serveNode],
] as const;

for (const [name, serve] of SERVERS) {
  for (const host of ["127.0.0.1", "::1"]) {
    for (const store of [undefined, "memoryStore"] as const) {
      Deno.test(`${name} on ${host}${store ? " with a memoryStore" : " without a store"}: 100 concurrent requests let exactly max through`, async () => {
        const auth = fullAuth({
          logger: false,
          session: store ? { store: memoryStore() } : undefined,
          rateLimit: { rules: { "/signUp": { max: MAX } } },
        });
        await using server = await serve(auth.handlers.ALL, host);
        const { statuses, policy } = await burst(server.origin, 100);
        assert.equal(policy, `"/signUp";q=${MAX};w=3600`);
        assert.equal(statuses.filter((status) => status === 403).length, MAX);
        assert.equal(statuses.filter((status) => status === 429).length, 100 - MAX);
      });
    }
  }
}

for (const [name, serve] of SERVERS) {
  Deno.test(`${name}: 100 spoofed forwarding headers from one address are still limited`, async () => {
    const auth = fullAuth({ logger: false, rateLimit: { rules: { "/signUp": { max: MAX } } } });
    await using server = await serve(auth.handlers.ALL, "127.0.0.1");
    const { statuses } = await burst(server.origin, 100, (i) => ({
      "X-Forwarded-For": `198.51.${i >> 8}.${i & 255}`,
      Forwarded: `for=203.0.${i >> 8}.${i & 255}`,
      "X-Real-IP": `192.0.2.${i & 255}`,
    }));
    assert.equal(statuses.filter((status) => status !== 429).length, MAX);
  });
}

Deno.test("toNodeHandler hands the socket's address to the handler as { remoteAddr: { hostname } }", async () => {
  const seen: (string | null | undefined)[] = [];
  const handler: Handler = (_request: Request, info?: ClientInfo) => {
    seen.push(info?.remoteAddr?.hostname);
    return Promise.resolve(new Response("ok"));
  };
  for (const host of ["127.0.0.1", "::1"]) {
    await using server = await serveNode(handler, host);
    await (await fetch(`${server.origin}/auth/session`)).body?.cancel();
  }
  assert.ok(seen[0] === "127.0.0.1" || seen[0] === "::ffff:127.0.0.1", String(seen[0]));
  assert.equal(seen[1], "::1");
});

Deno.test("two instances sharing one store hold one limit in total", async () => {
  const store = memoryStore();
  const make = () =>
    fullAuth({
      logger: false,
      session: { store },
      rateLimit: { rules: { "/signUp": { max: MAX } } },
    });
  await using one = serveDeno(make().handlers.ALL, "127.0.0.1");
  await using two = serveDeno(make().handlers.ALL, "127.0.0.1");
  const [a, b] = await Promise.all([burst(one.origin, 50), burst(two.origin, 50)]);
  const through = [...a.statuses, ...b.statuses].filter((status) => status !== 429);
  assert.equal(through.length, MAX);
});
