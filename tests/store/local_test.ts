// The per-process pieces: hit counters and one-time marks (what memoryStore is built on), and the
// small store the core uses without session.store: bounded per kind, fewest hits evicted first,
// dropped marks leave their expiry as a floor, every expiry on the given clock.
import assert from "node:assert/strict";
import { hitCounters, localStore, oneTimeMarks } from "../../src/store/_local.ts";
import { prng } from "../_prng.ts";
import { assertMarksSurviveFlood, manualClock } from "./_flood.ts";

// Hit counters

Deno.test("local: counters match a plain model over random hits, resets and time", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const random = prng(seed);
    const pick = (n: number) => Math.floor(random() * n);
    const max = 5;
    let nowMs = Date.UTC(2026, 0, 1);
    const counters = hitCounters(max, () => {});
    // The model: live counters with their count, the step at which they reached it, their end.
    const model = new Map<string, { count: number; step: number; endsAtMs: number }>();
    for (let step = 0; step < 3_000; step++) {
      // At least a second a step, so that a full set may always sweep its expired counters first.
      nowMs += 1_000 + pick(4) * 1_000;
      for (const [key, counter] of model) if (counter.endsAtMs <= nowMs) model.delete(key);
      const key = `k${pick(9)}`;
      if (pick(5) === 0) {
        counters.reset(key);
        model.delete(key);
      } else {
        const windowMs = (5 + pick(40)) * 1_000 + pick(1_000);
        const got = counters.hit(key, windowMs, nowMs);
        let counter = model.get(key);
        if (counter !== undefined) {
          counter.count++;
          counter.step = step;
        } else {
          if (model.size >= max) {
            const [fewest] = [...model].sort(([, a], [, b]) =>
              a.count - b.count || a.step - b.step
            );
            model.delete(fewest[0]);
          }
          model.set(key, counter = { count: 1, step, endsAtMs: nowMs + windowMs });
        }
        const resetIn = Math.max(1, Math.ceil((counter.endsAtMs - nowMs) / 1000));
        assert.deepEqual(got, { count: counter.count, resetIn }, `seed ${seed}, step ${step}`);
      }
      for (let i = 0; i < 9; i++) {
        const counter = model.get(`k${i}`);
        const expected = counter === undefined ? null : {
          count: counter.count,
          resetIn: Math.max(1, Math.ceil((counter.endsAtMs - nowMs) / 1000)),
        };
        assert.deepEqual(
          counters.hits(`k${i}`, nowMs),
          expected,
          `seed ${seed}, step ${step}: k${i}`,
        );
      }
    }
  }
});

Deno.test("local: a full set of counters drops the fewest hits first, the oldest among equals", () => {
  const counters = hitCounters(3, () => {});
  const nowMs = Date.UTC(2026, 0, 1);
  counters.hit("one-old", 60_000, nowMs);
  counters.hit("two", 60_000, nowMs);
  counters.hit("two", 60_000, nowMs);
  counters.hit("one-new", 60_000, nowMs);
  counters.hit("fourth", 60_000, nowMs);
  assert.equal(counters.hits("one-old", nowMs), null);
  assert.equal(counters.hits("one-new", nowMs)?.count, 1);
  assert.equal(counters.hits("two", nowMs)?.count, 2);
});

Deno.test("local: expired counters free their room before a live one is dropped", () => {
  const counters = hitCounters(2, () => {});
  let nowMs = Date.UTC(2026, 0, 1);
  counters.hit("short", 1_000, nowMs);
  for (let i = 0; i < 3; i++) counters.hit("locked", 60_000, nowMs);
  nowMs += 2_000;
  counters.hit("new", 60_000, nowMs);
  counters.hit("newer", 60_000, nowMs);
  assert.equal(counters.hits("locked", nowMs)?.count, 3);
  assert.equal(counters.hits("new", nowMs), null);
  assert.equal(counters.hits("newer", nowMs)?.count, 1);
});

Deno.test("local: a new counter runs the owner's sweep first, an existing one does not", () => {
  const calls: number[] = [];
  const counters = hitCounters(10, (nowMs) => calls.push(nowMs));
  counters.hit("a", 60_000, 1);
  counters.hit("a", 60_000, 2);
  counters.hit("b", 60_000, 3);
  counters.hit("a", 60_000, 70_000); // a's window ended: a new counter
  assert.deepEqual(calls, [1, 3, 70_000]);
});

// One-time marks

Deno.test("local: marks match a plain model over random values, and no value is accepted twice", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const random = prng(seed);
    const pick = (n: number) => Math.floor(random() * n);
    const max = 4;
    let nowMs = Date.UTC(2026, 0, 1);
    const marks = oneTimeMarks(max);
    // Values as issued: each expires at a fixed time, and is consumed with its remaining lifetime.
    const values: { key: string; expiresAtMs: number }[] = [];
    const accepted = new Set<string>();
    // The model: live marks and their expiry, and the expiry of the latest mark dropped.
    const model = new Map<string, number>();
    let floorMs = -Infinity;
    for (let step = 0; step < 3_000; step++) {
      nowMs += pick(3) * pick(2_000);
      const live = values.filter((value) => value.expiresAtMs > nowMs);
      if (live.length === 0 || pick(3) === 0) {
        // Distinct expiries, so that the soonest mark is never a tie.
        const taken = new Set(values.map((value) => value.expiresAtMs));
        let expiresAtMs = nowMs + 1 + pick(30_000);
        while (taken.has(expiresAtMs)) expiresAtMs++;
        values.push({ key: `v${values.length}`, expiresAtMs });
        continue;
      }
      const { key, expiresAtMs } = live[pick(live.length)];
      const got = marks.consume(key, expiresAtMs - nowMs, nowMs);
      for (const [marked, end] of model) if (end <= nowMs) model.delete(marked);
      let expected = !model.has(key) && expiresAtMs > floorMs + 1_000;
      if (expected && model.size >= max) {
        const [soonest, soonestEnd] = [...model].sort(([, a], [, b]) => a - b)[0];
        if (expiresAtMs <= soonestEnd) {
          expected = false;
        } else {
          model.delete(soonest);
          floorMs = Math.max(floorMs, soonestEnd);
        }
      }
      if (expected) model.set(key, expiresAtMs);
      assert.equal(got, expected, `seed ${seed}, step ${step}: ${key}`);
      if (got && accepted.has(key)) assert.fail(`seed ${seed}, step ${step}: ${key} twice`);
      if (got) accepted.add(key);
    }
    assert.ok(accepted.size > 100, `seed ${seed}: only ${accepted.size} values accepted`);
  }
});

Deno.test("local: a full set of marks drops the mark that expires soonest and refuses older values", () => {
  const marks = oneTimeMarks(2);
  const nowMs = Date.UTC(2026, 0, 1);
  assert.equal(marks.consume("long", 600_000, nowMs), true);
  assert.equal(marks.consume("short", 60_000, nowMs), true);
  assert.equal(marks.consume("middle", 300_000, nowMs), true);
  // "short" was dropped: its expiry is a floor, never a second acceptance.
  assert.equal(marks.consume("short", 60_000, nowMs), false);
  assert.equal(marks.consume("other-short", 30_000, nowMs), false);
  // Within a second above the floor counts as the dropped value too.
  assert.equal(marks.consume("near", 60_900, nowMs), false);
  assert.equal(marks.consume("long", 600_000, nowMs), false);
  assert.equal(marks.consume("longer", 900_000, nowMs), true);
});

Deno.test("local: a new mark that would expire first is refused, not accepted twice", () => {
  const marks = oneTimeMarks(2);
  assert.equal(marks.consume("a", 600_000, 0), true);
  assert.equal(marks.consume("b", 600_000, 0), true);
  assert.equal(marks.consume("old", 10_000, 0), false);
  assert.equal(marks.consume("a", 600_000, 0), false);
});

// The store the core uses without session.store

Deno.test("local store: a flood of counters past the default bound unlocks no username", async () => {
  const store = localStore({ clock: Date.now });
  for (let i = 0; i < 6; i++) await store.hit("locked", 900);
  for (let i = 0; i < 100_100; i++) await store.hit(`flood-${i}`, 900);
  assert.equal((await store.hit("locked", 900)).count, 7);
});

Deno.test("local store: a flood of marks past the default bound never lets a mark be used twice", async () => {
  const clock = manualClock();
  await assertMarksSurviveFlood(localStore({ clock: clock.fn }), clock);
});

Deno.test("local store: each kind has its own bound; counters and marks never take each other's room", async () => {
  const store = localStore({ clock: Date.now, maxCounters: 2, maxMarks: 1 });
  assert.equal(await store.consume("state-1", 60), true);
  await store.hit("a", 60);
  await store.hit("a", 60);
  await store.hit("b", 60);
  await store.hit("c", 60); // drops b, the fewest hits
  assert.equal(await store.consume("state-1", 60), false);
  assert.equal((await store.hit("a", 60)).count, 3);
  assert.equal((await store.hit("b", 60)).count, 1);
  // One mark fits: a later one drops state-1, and state-1 stays refused (the floor).
  assert.equal(await store.consume("state-2", 120), true);
  assert.equal(await store.consume("state-1", 60), false);
});

Deno.test("local store: every expiry follows the clock option, not the real time", async () => {
  const clock = manualClock(Date.now() - 24 * 3600 * 1000);
  const store = localStore({ clock: clock.fn });
  assert.equal(await store.consume("state", 60), true);
  assert.deepEqual(await store.hit("user-1", 60), { count: 1, resetIn: 60 });
  clock.now += 30_000;
  assert.deepEqual(await store.hit("user-1", 60), { count: 2, resetIn: 30 });
  assert.equal(await store.consume("state", 60), false);
  clock.now += 31_000;
  assert.deepEqual(await store.hit("user-1", 60), { count: 1, resetIn: 60 });
  assert.equal(await store.consume("state", 60), true);
});

Deno.test("local store: once the dropped marks have expired, every value is accepted again", async () => {
  const clock = manualClock();
  const store = localStore({ clock: clock.fn, maxMarks: 1 });
  assert.equal(await store.consume("a", 60), true);
  assert.equal(await store.consume("b", 120), true);
  assert.equal(await store.consume("c", 30), false);
  clock.now += 61_000;
  assert.equal(await store.consume("c", 30), false); // "b" still holds the one place
  clock.now += 60_000;
  assert.equal(await store.consume("c", 30), true);
});

Deno.test("local store: resetHits forgets a count", async () => {
  const store = localStore({ clock: Date.now });
  await store.hit("user-1", 60);
  await store.hit("user-1", 60);
  await store.resetHits("user-1");
  assert.equal((await store.hit("user-1", 60)).count, 1);
});

Deno.test("local store: a clock with no finite number or a lifetime that is none fails the call", async () => {
  for (const time of [NaN, Infinity, "0" as unknown as number]) {
    const store = localStore({ clock: () => time });
    await assert.rejects(store.consume("state", 60), TypeError);
    await assert.rejects(store.hit("user-1", 60), TypeError);
  }
  const store = localStore({ clock: Date.now });
  for (const seconds of [0, -1, NaN, Infinity, "60" as unknown as number]) {
    await assert.rejects(store.consume("state", seconds), TypeError, "ttlSeconds");
    await assert.rejects(store.hit("user-1", seconds), TypeError, "windowSeconds");
  }
  // Nothing was marked or counted by the failed calls.
  assert.equal(await store.consume("state", 60), true);
  assert.equal((await store.hit("user-1", 60)).count, 1);
});
