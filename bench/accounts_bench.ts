/**
 * `api.getAccessToken` for a token that needs no refresh, against its floor:
 * one store read (`getAccount` of the same `memoryStore`) plus one unseal of
 * the record's tokens (one AES-GCM decryption with the same key). The issue
 * allows at most 1.2x of that floor.
 *
 * `deno bench -A bench/accounts_bench.ts` runs both in one group;
 * `deno run -A bench/accounts_bench.ts [calls]` alternates them call by call
 * (a busy machine slows both alike) and prints the medians and their ratio.
 *
 * @module
 */

import { type AuthConfig, createAuth, memoryStore } from "../mod.ts";
import { createMockProvider } from "../testing.ts";
import { contextOf } from "../src/create_auth.ts";

const SECRET = "accounts-bench-secret-0123456789-abcdefghijkl";

async function setup() {
  const mock = createMockProvider({ users: [{ sub: "gh-1", name: "Ada" }] });
  const store = memoryStore();
  const auth = createAuth({
    oauth: [mock.provider],
    secret: SECRET,
    logger: false,
    fetch: mock.fetch,
    accounts: { store },
  } as AuthConfig);
  // A real sign-in, so the record holds real sealed tokens.
  const start = await auth.handlers.ALL(new Request("http://localhost:8000/auth/signIn/mock"));
  const cookie = start.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const callback = await mock.fetch(start.headers.get("Location")!);
  await auth.handlers.ALL(
    new Request(
      callback.headers.get("Location")!.replace(/^http:\/\/[^/]+/, "http://localhost:8000"),
      {
        headers: { Cookie: cookie },
      },
    ),
  );
  const account = await store.getAccount("mock", "gh-1");
  if (account === null) throw new Error("the sign-in linked no account");
  const jose = contextOf(auth).accounts!.jose;
  const sub = account.sub;
  const floor = async () => {
    const read = await store.getAccount("mock", "gh-1");
    return await jose.decryptJWE(read!.tokens, { cty: "provider-tokens" });
  };
  const byId = () => auth.api.getAccessToken({ sub }, "mock", { providerAccountId: "gh-1" });
  const latest = () => auth.api.getAccessToken({ sub }, "mock");
  if ((await byId())?.accessToken === undefined) throw new Error("no access token");
  return { floor, byId, latest };
}

const app = await setup();

Deno.bench({
  name: "floor: store read + one unseal",
  group: "getAccessToken",
  baseline: true,
  fn: async () => void await app.floor(),
});
Deno.bench({
  name: "api.getAccessToken (providerAccountId)",
  group: "getAccessToken",
  fn: async () => void await app.byId(),
});
Deno.bench({
  name: "api.getAccessToken (the account updated last)",
  group: "getAccessToken",
  fn: async () => void await app.latest(),
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (import.meta.main) {
  const calls = Number(Deno.args[0] ?? 5000);
  const times = { floor: [] as number[], byId: [] as number[], latest: [] as number[] };
  for (let i = 0; i < calls + 500; i++) {
    for (const name of ["floor", "byId", "latest"] as const) {
      const start = performance.now();
      await app[name]();
      if (i >= 500) times[name].push(performance.now() - start);
    }
  }
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  const [floor, byId, latest] = [median(times.floor), median(times.byId), median(times.latest)];
  console.log(
    `floor ${us(floor)}, getAccessToken by id ${us(byId)} (${(byId / floor).toFixed(2)}x), ` +
      `latest ${us(latest)} (${
        (latest / floor).toFixed(2)
      }x); medians of ${calls} alternated calls`,
  );
}
