import assert from "node:assert/strict";
import { createJose } from "../../src/jose/factory.ts";
import { memoryStore } from "../../src/store/memory.ts";
import { encodeBase32 } from "../../src/two_factor/base32.ts";
import { TwoFactorError } from "../../src/two_factor/errors.ts";
import {
  consumeBackupCode,
  consumeTotpStep,
  countCodeAttempt,
  finishPendingSignIn,
  MAX_CODE_ATTEMPTS,
  openPendingEnrollment,
  openPendingSignIn,
  PENDING_ENROLLMENT_CTY,
  PENDING_SIGN_IN_CTY,
  sealPendingEnrollment,
  sealPendingSignIn,
  type TwoFactorStore,
} from "../../src/two_factor/pending.ts";
import { FACTOR_CTY, sealFactor } from "../../src/two_factor/factor.ts";
import { generateTotpSecret } from "../../src/two_factor/totp.ts";

const SECRET = "a-test-secret-of-at-least-thirty-two-bytes";
const sealer = createJose(SECRET, { purpose: "two-factor", mode: "encrypted" });
const NOW = 1_700_000_000;
const INPUT = {
  sub: "user-1",
  provider: "credentials",
  user: { sub: "user-1", name: "Ada" },
  redirectTo: "/account",
};

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof TwoFactorError, `expected a TwoFactorError, got ${error}`);
  return error.code;
}

/** A store that records the keys it is asked about. */
function recordingStore(): TwoFactorStore & { keys: string[]; ttls: number[] } {
  const inner = memoryStore();
  const keys: string[] = [];
  const ttls: number[] = [];
  return {
    keys,
    ttls,
    hit(key, window) {
      keys.push(key);
      ttls.push(window);
      return inner.hit(key, window);
    },
    consume(key, ttl) {
      keys.push(key);
      ttls.push(ttl);
      return inner.consume(key, ttl);
    },
    hits(key) {
      keys.push(key);
      return inner.hits(key);
    },
  };
}

Deno.test("a pending sign-in opens with its user, provider, redirect, id and five-minute expiry", async () => {
  const { value, pending } = await sealPendingSignIn(sealer, INPUT, { now: NOW + 0.7 });
  assert.equal(pending.exp, NOW + 300);
  assert.match(pending.id, /^[A-Za-z0-9_-]{22}$/);
  assert.deepEqual(await openPendingSignIn(sealer, value, { now: NOW + 299 }), {
    ...INPUT,
    id: pending.id,
    exp: NOW + 300,
  });
});

Deno.test("a pending sign-in without redirectTo opens without it", async () => {
  const { sub, provider, user } = INPUT;
  const { value } = await sealPendingSignIn(sealer, { sub, provider, user }, { now: NOW });
  const opened = await openPendingSignIn(sealer, value, { now: NOW });
  assert.ok(!("redirectTo" in opened));
});

Deno.test("each pending sign-in gets its own id", async () => {
  const a = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  const b = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  assert.notEqual(a.pending.id, b.pending.id);
});

Deno.test("a pending sign-in is refused from its fifth minute on", async () => {
  const { value } = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  assert.equal(
    await refusal(openPendingSignIn(sealer, value, { now: NOW + 300 })),
    "ERR_TWO_FACTOR_PENDING_EXPIRED",
  );
  assert.equal(
    await refusal(openPendingSignIn(sealer, value, { now: NOW + 86_400 })),
    "ERR_TWO_FACTOR_PENDING_EXPIRED",
  );
});

Deno.test("the pending sign-in hides the user inside the cookie", async () => {
  const { value } = await sealPendingSignIn(sealer, { ...INPUT, sub: "ada@example.com" });
  const text = value.split(".").map((part) => {
    try {
      return atob(part.replaceAll("-", "+").replaceAll("_", "/"));
    } catch {
      return "";
    }
  }).join();
  assert.ok(!text.includes("ada@example.com"));
  assert.ok(!text.includes("/account"));
});

Deno.test("anything but a pending sign-in sealed with this key is refused", async () => {
  const { value } = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  const otherKey = createJose("another-secret-of-at-least-thirty-two-bytes", {
    purpose: "two-factor",
    mode: "encrypted",
  });
  const enrollment = await sealPendingEnrollment(sealer, {
    sub: "user-1",
    secret: generateTotpSecret(),
  });
  const factor = await sealFactor(sealer, {
    sub: "user-1",
    secret: generateTotpSecret(),
    backupCodeHashes: [],
    createdAt: 0,
  });
  const candidates: unknown[] = [
    (await sealPendingSignIn(otherKey, INPUT, { now: NOW })).value,
    (await sealPendingSignIn(
      createJose(SECRET, { purpose: "oauth-flow", mode: "encrypted" }),
      INPUT,
    ))
      .value,
    enrollment,
    factor,
    await createJose(SECRET).encodeJWT({ sub: "user-1" }),
    value.slice(0, -2) + (value.at(-2) === "A" ? "B" : "A") + value.at(-1),
    "",
    "x",
    undefined,
    null,
    42,
  ];
  for (const candidate of candidates) {
    assert.equal(
      await refusal(openPendingSignIn(sealer, candidate as string, { now: NOW })),
      "ERR_TWO_FACTOR_PENDING_INVALID",
      String(candidate).slice(0, 40),
    );
  }
});

Deno.test("a sealed pending payload with a wrong shape is refused", async () => {
  const base = { v: 1, id: "A".repeat(22), ...INPUT, exp: NOW + 300 };
  const variants: unknown[] = [
    { ...base, v: 2 },
    { ...base, id: "short" },
    { ...base, sub: "" },
    { ...base, sub: 7 },
    { ...base, provider: 1 },
    { ...base, user: "ada" },
    { ...base, user: [] },
    { ...base, redirectTo: 5 },
    { ...base, exp: "soon" },
    { ...base, exp: null },
    { ...base, extra: 1 },
    { v: 1, id: base.id, sub: "user-1", provider: "credentials", exp: NOW + 300 },
    [],
    "text",
  ];
  for (const variant of variants) {
    const value = await sealer.encryptJWE(JSON.stringify(variant), { cty: PENDING_SIGN_IN_CTY });
    assert.equal(
      await refusal(openPendingSignIn(sealer, value, { now: NOW })),
      "ERR_TWO_FACTOR_PENDING_INVALID",
      JSON.stringify(variant),
    );
  }
  const value = await sealer.encryptJWE(JSON.stringify(base), { cty: PENDING_SIGN_IN_CTY });
  assert.equal((await openPendingSignIn(sealer, value, { now: NOW })).sub, "user-1");
});

Deno.test("sealPendingSignIn refuses a malformed input", async () => {
  const bad: unknown[] = [
    { ...INPUT, sub: "" },
    { ...INPUT, provider: "" },
    { ...INPUT, user: null },
    { ...INPUT, redirectTo: 1 },
    null,
  ];
  for (const input of bad) {
    await assert.rejects(() => sealPendingSignIn(sealer, input as typeof INPUT), TypeError);
  }
});

Deno.test("five code tries are allowed per pending sign-in, the sixth is refused", async () => {
  const store = memoryStore();
  const { pending } = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  for (let i = 1; i <= MAX_CODE_ATTEMPTS; i++) {
    assert.equal(await countCodeAttempt(store, pending, { now: NOW + i }), true, `try ${i}`);
  }
  assert.equal(await countCodeAttempt(store, pending, { now: NOW + 6 }), false);
  assert.equal(await countCodeAttempt(store, pending, { now: NOW + 7 }), false);
});

Deno.test("replaying the pending cookie does not reset its tries", async () => {
  const store = memoryStore();
  const { value } = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
    // Every request opens the same cookie again.
    const pending = await openPendingSignIn(sealer, value, { now: NOW });
    assert.equal(await countCodeAttempt(store, pending, { now: NOW }), true);
  }
  const replayed = await openPendingSignIn(sealer, value, { now: NOW });
  assert.equal(await countCodeAttempt(store, replayed, { now: NOW }), false);
});

Deno.test("tries on one pending sign-in do not count against another", async () => {
  const store = memoryStore();
  const first = (await sealPendingSignIn(sealer, INPUT, { now: NOW })).pending;
  const second = (await sealPendingSignIn(sealer, INPUT, { now: NOW })).pending;
  for (let i = 0; i < 6; i++) await countCodeAttempt(store, first, { now: NOW });
  assert.equal(await countCodeAttempt(store, second, { now: NOW }), true);
});

Deno.test("parallel tries cannot get past the limit", async () => {
  const store = memoryStore();
  const { pending } = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  const results = await Promise.all(
    Array.from({ length: 20 }, () => countCodeAttempt(store, pending, { now: NOW })),
  );
  assert.equal(results.filter(Boolean).length, MAX_CODE_ATTEMPTS);
});

Deno.test("the try counter's window outlasts the pending sign-in", async () => {
  const store = recordingStore();
  const { pending } = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  await countCodeAttempt(store, pending, { now: NOW + 10 });
  assert.deepEqual(store.keys, [`2fa-pending:${pending.id}`]);
  assert.ok(store.ttls[0] >= 290, `window ${store.ttls[0]}`);
  // Near the end it still covers the rest of the pending sign-in.
  await countCodeAttempt(store, pending, { now: NOW + 299.5 });
  assert.ok(store.ttls[1] >= 1);
});

Deno.test("a pending sign-in finishes once: a replayed cookie cannot make a second session", async () => {
  const store = memoryStore();
  const { pending } = await sealPendingSignIn(sealer, INPUT, { now: NOW });
  assert.equal(await finishPendingSignIn(store, pending, { now: NOW }), true);
  assert.equal(await finishPendingSignIn(store, pending, { now: NOW + 1 }), false);
  const other = (await sealPendingSignIn(sealer, INPUT, { now: NOW })).pending;
  assert.equal(await finishPendingSignIn(store, other, { now: NOW }), true);
});

Deno.test("a TOTP step is used at most once per user", async () => {
  const store = memoryStore();
  assert.equal(await consumeTotpStep(store, { sub: "user-1", step: 56_666_666 }), true);
  assert.equal(await consumeTotpStep(store, { sub: "user-1", step: 56_666_666 }), false);
  assert.equal(await consumeTotpStep(store, { sub: "user-1", step: 56_666_667 }), true);
  assert.equal(await consumeTotpStep(store, { sub: "user-2", step: 56_666_666 }), true);
});

Deno.test("a used step stays marked while any clock still accepts it", async () => {
  const store = recordingStore();
  await consumeTotpStep(store, { sub: "user-1", step: 1 });
  assert.deepEqual(store.keys, ["totp:1:user-1"]);
  // Accepted until two steps later: 90 seconds at most from its first use.
  assert.ok(store.ttls[0] >= 90);
});

Deno.test("store keys stay within 256 characters for the longest subs, and never collide", async () => {
  const store = recordingStore();
  const long = "u".repeat(256);
  const hash = "h".repeat(43);
  assert.equal(await consumeTotpStep(store, { sub: long, step: 99_999_999_999 }), true);
  assert.equal(await consumeTotpStep(store, { sub: long, step: 99_999_999_999 }), false);
  assert.equal(await consumeTotpStep(store, { sub: long, step: 99_999_999_998 }), true);
  assert.equal(await consumeBackupCode(store, { sub: long, hash }), true);
  assert.equal(await consumeBackupCode(store, { sub: long, hash }), false);
  // Another long sub gets another key.
  assert.equal(await consumeTotpStep(store, { sub: "v".repeat(256), step: 99_999_999_999 }), true);
  for (const key of store.keys) assert.ok(key.length <= 256, key);
});

Deno.test("consumeTotpStep and consumeBackupCode refuse malformed input", async () => {
  const store = memoryStore();
  for (const used of [{ sub: "", step: 1 }, { sub: "u", step: -1 }, { sub: "u", step: 1.5 }]) {
    await assert.rejects(() => consumeTotpStep(store, used), TypeError);
  }
  for (const used of [{ sub: "", hash: "h".repeat(43) }, { sub: "u", hash: "short" }]) {
    await assert.rejects(() => consumeBackupCode(store, used), TypeError);
  }
});

Deno.test("a backup code is used at most once per user, even by parallel requests", async () => {
  const store = memoryStore();
  const hash = "q".repeat(43);
  const results = await Promise.all(
    Array.from({ length: 5 }, () => consumeBackupCode(store, { sub: "user-1", hash })),
  );
  assert.equal(results.filter(Boolean).length, 1);
  assert.equal(await consumeBackupCode(store, { sub: "user-2", hash }), true);
  assert.equal(await consumeBackupCode(store, { sub: "user-1", hash: "r".repeat(43) }), true);
});

Deno.test("a pending enrollment opens for its user with its secret", async () => {
  const secret = generateTotpSecret();
  const value = await sealPendingEnrollment(sealer, { sub: "user-1", secret }, { now: NOW });
  const opened = await openPendingEnrollment(sealer, { sub: "user-1", value }, { now: NOW + 599 });
  assert.deepEqual(opened, { sub: "user-1", secret, exp: NOW + 600 });
});

Deno.test("a pending enrollment is refused for another user, after ten minutes, or as another kind", async () => {
  const secret = generateTotpSecret();
  const value = await sealPendingEnrollment(sealer, { sub: "user-1", secret }, { now: NOW });
  assert.equal(
    await refusal(openPendingEnrollment(sealer, { sub: "user-2", value }, { now: NOW })),
    "ERR_TWO_FACTOR_PENDING_INVALID",
  );
  assert.equal(
    await refusal(openPendingEnrollment(sealer, { sub: "user-1", value }, { now: NOW + 600 })),
    "ERR_TWO_FACTOR_PENDING_EXPIRED",
  );
  const signIn = (await sealPendingSignIn(sealer, INPUT, { now: NOW })).value;
  assert.equal(
    await refusal(openPendingEnrollment(sealer, { sub: "user-1", value: signIn }, { now: NOW })),
    "ERR_TWO_FACTOR_PENDING_INVALID",
  );
  const asFactor = await sealer.encryptJWE(
    JSON.stringify({ v: 1, sub: "user-1", secret: encodeBase32(secret), exp: NOW + 600 }),
    { cty: FACTOR_CTY },
  );
  assert.equal(
    await refusal(openPendingEnrollment(sealer, { sub: "user-1", value: asFactor }, { now: NOW })),
    "ERR_TWO_FACTOR_PENDING_INVALID",
  );
  for (
    const payload of [
      { v: 1, sub: "user-1", secret: encodeBase32(secret.subarray(1)), exp: NOW + 600 },
      { v: 1, sub: "user-1", secret: "not base32!", exp: NOW + 600 },
      { v: 1, sub: "user-1", secret: encodeBase32(secret), exp: NOW + 600, extra: 1 },
    ]
  ) {
    const forged = await sealer.encryptJWE(JSON.stringify(payload), {
      cty: PENDING_ENROLLMENT_CTY,
    });
    assert.equal(
      await refusal(openPendingEnrollment(sealer, { sub: "user-1", value: forged }, { now: NOW })),
      "ERR_TWO_FACTOR_PENDING_INVALID",
    );
  }
});

Deno.test("sealPendingEnrollment refuses a secret that is not 20 bytes", async () => {
  for (const secret of [new Uint8Array(16), "ABC" as unknown as Uint8Array]) {
    await assert.rejects(() => sealPendingEnrollment(sealer, { sub: "u", secret }), TypeError);
  }
});

Deno.test("the time option must be a finite non-negative number", async () => {
  for (const now of [NaN, -1, Infinity]) {
    await assert.rejects(() => sealPendingSignIn(sealer, INPUT, { now }), TypeError);
  }
});
