// What memoryStore and the store-less default share: a manual clock, and the flood of one-time
// marks past their default bound that must never let a mark be used twice.
import assert from "node:assert/strict";

/** A controllable clock, in milliseconds. */
export function manualClock(start = Date.UTC(2026, 0, 1)): { now: number; fn: () => number } {
  const clock = { now: start, fn: () => clock.now };
  return clock;
}

/**
 * Issues 100,500 values, one every 4 ms, each expiring 600 s after it was
 * issued and consumed once; then checks that every value still valid, kept
 * or dropped, is refused a second time (a little later too), and that a new
 * value is accepted once.
 */
export async function assertMarksSurviveFlood(
  store: { consume(key: string, ttlSeconds: number): Promise<boolean> },
  clock: { now: number },
): Promise<void> {
  const issuedAt = new Map<string, number>();
  const consumeAt = (key: string) =>
    store.consume(key, (issuedAt.get(key)! + 600_000 - clock.now) / 1000);
  for (let i = 0; i < 100_500; i++) {
    const key = `state-${i}`;
    issuedAt.set(key, clock.now);
    if (!await consumeAt(key)) assert.fail(`${key} is new`);
    clock.now += 4;
  }
  for (const offset of [0, 200, 50_000]) {
    clock.now += offset;
    for (const [key, issued] of issuedAt) {
      if (issued + 600_000 > clock.now && await consumeAt(key)) assert.fail(`${key} twice`);
    }
  }
  issuedAt.set("new", clock.now);
  assert.equal(await consumeAt("new"), true);
  assert.equal(await consumeAt("new"), false);
}
