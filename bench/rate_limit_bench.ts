// The cost of the rate limiter on the route it matters most for: POST /signIn/credentials with
// `session.store: memoryStore()`, limited (the default rule, with a max no bench reaches) against
// the same sign-in with `rateLimit: false`, from one client address given as Deno.serve gives it.
// The limited sign-in adds one `store.hit`. Measured here (2 shared cores, --ratio, three runs):
// 183.3 vs 176.6 us, 164.7 vs 158.4 us, 245.0 vs 234.1 us: ratio 1.038, 1.040, 1.046.
//
//   deno bench -A bench/rate_limit_bench.ts           both in one run (the second is the baseline)
//   deno run -A bench/rate_limit_bench.ts --ratio     alternating rounds; medians and their ratio
import { type AuthConfig, createAuth, type Handler, memoryStore } from "../mod.ts";

const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";
const ORIGIN = "http://localhost:8000";
const INFO = { remoteAddr: { hostname: "203.0.113.7" } };

function makeAuth(rateLimit: AuthConfig["rateLimit"]) {
  return createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    env: {},
    credentials: { authorize: () => ({ sub: "user-1", name: "Ada" }) },
    session: { store: memoryStore() },
    rateLimit,
  });
}

const limited = makeAuth({
  rules: { "/signIn/credentials": { max: 1_000_000_000, window: 3600 } },
});
const unlimited = makeAuth(false);

async function signInWith(handler: Handler): Promise<() => Promise<void>> {
  const response = await handler(new Request(`${ORIGIN}/auth/csrfToken`), INFO);
  const cookie = response.headers.getSetCookie()[0].split(";")[0];
  const { csrfToken } = await response.json();
  const headers = { "Content-Type": "application/json", "X-CSRF-Token": csrfToken, Cookie: cookie };
  const body = JSON.stringify({ username: "ada", password: "correct horse" });
  return async () => {
    const answer = await handler(
      new Request(`${ORIGIN}/auth/signIn/credentials`, { method: "POST", headers, body }),
      INFO,
    );
    if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
    await answer.body?.cancel();
  };
}

const withLimit = await signInWith(limited.handlers.ALL);
const withoutLimit = await signInWith(unlimited.handlers.ALL);

if (Deno.args.includes("--ratio")) {
  await ratio();
  Deno.exit(0);
}

Deno.bench({
  name: "credentials sign-in, rate limited (memoryStore)",
  group: "sign-in",
  fn: withLimit,
});
Deno.bench({
  name: "credentials sign-in, rateLimit: false (memoryStore)",
  group: "sign-in",
  baseline: true,
  fn: withoutLimit,
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Times each sign-in on its own, the two kinds alternating request by request (so both see
 * the same load on a shared machine), and prints the median of each and their ratio.
 */
async function ratio(): Promise<void> {
  const times = { limited: [] as number[], free: [] as number[] };
  for (let i = 0; i < 500; i++) {
    await withLimit();
    await withoutLimit();
  }
  for (let i = 0; i < 10_000; i++) {
    const order = i % 2 === 0
      ? [["limited", withLimit], ["free", withoutLimit]] as const
      : [["free", withoutLimit], ["limited", withLimit]] as const;
    for (const [name, run] of order) {
      const start = performance.now();
      await run();
      times[name].push((performance.now() - start) * 1000);
    }
  }
  const a = median(times.limited);
  const b = median(times.free);
  console.log(`limited sign-in: ${a.toFixed(1)} us (median of 10,000)`);
  console.log(`rateLimit: false: ${b.toFixed(1)} us`);
  console.log(`ratio: ${(a / b).toFixed(3)}`);
}
