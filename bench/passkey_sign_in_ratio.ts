/**
 * `POST /passkey/signIn` in-process against two minimal handlers, alternated
 * call by call so that a busy machine slows all of them alike, reported as
 * medians of per-call times and their ratios:
 *
 * - bare: read the JSON, one SHA-256 of clientDataJSON and one signature
 *   verify (the Web Crypto work a passkey sign-in cannot avoid);
 * - bare with a session: the same plus one AES-GCM seal of a session claim
 *   set and its Set-Cookie (what any sign-in must add).
 *
 * Each sign-in starts signed out, as a real one does. Run with
 * `deno run -A bench/passkey_sign_in_ratio.ts [calls]`.
 *
 * @module
 */

import { ALG_NAMES } from "../tests/webauthn/_authenticator.ts";
import { passkeyBenchApp } from "./_passkey_app.ts";

const CALLS = Number(Deno.args[0] ?? 2000);
const WARMUP = 200;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

for (const alg of [-7, -8] as const) {
  const { handler, prepared, bare } = await passkeyBenchApp(alg);
  const times = { bare: [] as number[], session: [] as number[], ours: [] as number[] };
  const time = async (list: number[], run: () => Promise<Response>) => {
    const start = performance.now();
    const response = await run();
    list.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  };
  for (let i = 0; i < CALLS + WARMUP; i++) {
    // Made outside the timed part: a fresh challenge and signature each.
    const [a, b, c] = [
      await prepared({ signedOut: true }),
      await prepared({ signedOut: true }),
      await prepared({ signedOut: true }),
    ];
    const into = i < WARMUP ? { bare: [], session: [], ours: [] } : times;
    await time(into.bare, () => bare(a));
    await time(into.session, () => bare(b, { session: true }));
    await time(into.ours, () => handler(c));
  }
  const [bareMs, sessionMs, oursMs] = [
    median(times.bare),
    median(times.session),
    median(times.ours),
  ];
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  console.log(
    `${ALG_NAMES[alg]}: bare ${us(bareMs)}, bare + session ${us(sessionMs)}, ours ${us(oursMs)}: ${
      (oursMs / bareMs).toFixed(2)
    }x bare, ${
      (oursMs / sessionMs).toFixed(2)
    }x bare + session (medians of ${CALLS} alternated calls)`,
  );
}
