import assert from "node:assert/strict";
import { AuthError } from "../../src/errors.ts";
import { createJose } from "../../src/jose/factory.ts";
import { memoryStore } from "../../src/store/memory.ts";
import { decodeBase32 } from "../../src/two_factor/base32.ts";
import { TwoFactorError } from "../../src/two_factor/errors.ts";
import { openFactor, sealFactor } from "../../src/two_factor/factor.ts";
import {
  confirmEnrollment,
  disableTwoFactor,
  startEnrollment,
  type TwoFactorDeps,
  type TwoFactorFailure,
  twoFactorFailure,
  verifySecondStep,
} from "../../src/two_factor/operations.ts";
import { sealPendingSignIn } from "../../src/two_factor/pending.ts";
import { generateTotpSecret, totpCode } from "../../src/two_factor/totp.ts";

const sealer = createJose("a-test-secret-of-at-least-thirty-two-bytes", {
  purpose: "two-factor",
  mode: "encrypted",
});
const T0 = 1_700_000_010; // 10 seconds into a step

interface World {
  deps: (now?: number) => TwoFactorDeps;
  records: Map<string, string | null>;
  saves: Array<[string, string | null]>;
}

function world(): World {
  const store = memoryStore();
  const records = new Map<string, string | null>();
  const saves: Array<[string, string | null]> = [];
  return {
    records,
    saves,
    deps: (now = T0) => ({
      sealer,
      store,
      now,
      load: (sub) => records.get(sub) ?? null,
      save: (sub, value) => {
        saves.push([sub, value]);
        records.set(sub, value);
      },
    }),
  };
}

/** A user with two-factor on: their secret and backup codes. */
async function enrolled(w: World, sub = "user-1") {
  const start = await startEnrollment(w.deps(), { sub, issuer: "Acme", account: `${sub}@x.io` });
  const secret = decodeBase32(start.secret);
  // Confirmed with the previous step's code, so that the current step stays free for the tests.
  const code = await totpCode(secret, T0 - 30);
  const confirmed = await confirmEnrollment(w.deps(), {
    sub,
    pendingValue: start.pendingValue,
    code,
  });
  assert.ok(confirmed.ok);
  return { secret, backupCodes: confirmed.backupCodes };
}

async function pendingFor(sub = "user-1", now = T0): Promise<string> {
  const input = { sub, provider: "credentials", user: { sub }, redirectTo: "/home" };
  return (await sealPendingSignIn(sealer, input, { now })).value;
}

/** A 6-digit code that is none of the window's codes. */
async function wrongCode(secret: Uint8Array, now = T0): Promise<string> {
  const window = await Promise.all([-1, 0, 1].map((o) => totpCode(secret, now + o * 30)));
  for (let n = 0;; n++) {
    const code = String(n).padStart(6, "0");
    if (!window.includes(code)) return code;
  }
}

Deno.test("enrollment: start shows a secret and URI, confirm saves a factor and shows 10 backup codes", async () => {
  const w = world();
  const start = await startEnrollment(w.deps(), {
    sub: "user-1",
    issuer: "Acme",
    account: "ada@x.io",
  });
  assert.match(start.secret, /^[A-Z2-7]{32}$/);
  assert.ok(start.uri.startsWith("otpauth://totp/Acme:ada%40x.io?secret=" + start.secret));
  assert.equal(w.saves.length, 0, "nothing saved before the first code");
  const code = await totpCode(decodeBase32(start.secret), T0);
  const result = await confirmEnrollment(w.deps(), {
    sub: "user-1",
    pendingValue: start.pendingValue,
    code,
  });
  assert.ok(result.ok);
  assert.equal(result.backupCodes.length, 10);
  assert.equal(w.saves.length, 1);
  const factor = await openFactor(sealer, { sub: "user-1", sealed: w.records.get("user-1")! });
  assert.deepEqual(factor.secret, decodeBase32(start.secret));
  assert.equal(factor.createdAt, T0);
  assert.equal(factor.backupCodeHashes.length, 10);
});

Deno.test("enrollment: a wrong or reused code, another user's cookie or an old cookie saves nothing", async () => {
  const w = world();
  const start = await startEnrollment(w.deps(), { sub: "user-1", issuer: "A", account: "a" });
  const secret = decodeBase32(start.secret);
  const confirm = (input: { sub?: string; code: unknown; now?: number }) =>
    confirmEnrollment(w.deps(input.now), {
      sub: input.sub ?? "user-1",
      pendingValue: start.pendingValue,
      code: input.code,
    });
  assert.deepEqual(await confirm({ code: await wrongCode(secret) }), {
    ok: false,
    reason: "wrong-code",
  });
  assert.deepEqual(await confirm({ code: 123456 }), { ok: false, reason: "invalid-request" });
  const code = await totpCode(secret, T0);
  assert.deepEqual(await confirm({ sub: "user-2", code }), {
    ok: false,
    reason: "pending-invalid",
  });
  assert.deepEqual(await confirm({ code, now: T0 + 600 }), {
    ok: false,
    reason: "pending-expired",
  });
  assert.equal(w.saves.length, 0);
  assert.equal((await confirm({ code })).ok, true);
  assert.deepEqual(await confirm({ code }), { ok: false, reason: "code-used" }, "step reused");
  assert.equal(w.saves.length, 1);
});

Deno.test("second step: the current code finishes the pending sign-in", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  const result = await verifySecondStep(w.deps(), {
    pendingValue: await pendingFor(),
    answer: { code: await totpCode(secret, T0) },
  });
  assert.ok(result.ok);
  assert.equal(result.method, "totp");
  assert.equal(result.pending.sub, "user-1");
  assert.equal(result.pending.redirectTo, "/home");
});

Deno.test("second step: a code works once per user, even on a new pending sign-in", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  const code = await totpCode(secret, T0);
  const first = await verifySecondStep(w.deps(), {
    pendingValue: await pendingFor(),
    answer: { code },
  });
  assert.equal(first.ok, true);
  const again = await verifySecondStep(w.deps(T0 + 5), {
    pendingValue: await pendingFor(),
    answer: { code },
  });
  assert.deepEqual(again, { ok: false, reason: "code-used" });
});

Deno.test("second step: the cookie of a finished sign-in cannot make a second session", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  const pendingValue = await pendingFor();
  const first = await verifySecondStep(w.deps(), {
    pendingValue,
    answer: { code: await totpCode(secret, T0) },
  });
  assert.equal(first.ok, true);
  const replay = await verifySecondStep(w.deps(T0 + 30), {
    pendingValue,
    answer: { code: await totpCode(secret, T0 + 30) },
  });
  assert.deepEqual(replay, { ok: false, reason: "already-finished" });
});

Deno.test("second step: five wrong codes end the pending sign-in, even for the right code after", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  const pendingValue = await pendingFor();
  const wrong = await wrongCode(secret);
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(
      await verifySecondStep(w.deps(), { pendingValue, answer: { code: wrong } }),
      { ok: false, reason: "wrong-code" },
    );
  }
  assert.deepEqual(
    await verifySecondStep(w.deps(), {
      pendingValue,
      answer: { code: await totpCode(secret, T0) },
    }),
    { ok: false, reason: "too-many-attempts" },
  );
  // A new first factor starts a new count.
  const fresh = await verifySecondStep(w.deps(), {
    pendingValue: await pendingFor(),
    answer: { code: await totpCode(secret, T0) },
  });
  assert.equal(fresh.ok, true);
});

Deno.test("second step: wrong backup codes count against the same five tries", async () => {
  const w = world();
  await enrolled(w);
  const pendingValue = await pendingFor();
  for (let i = 0; i < 5; i++) {
    const result = await verifySecondStep(w.deps(), {
      pendingValue,
      answer: { backupCode: "00000-00000" },
    });
    assert.deepEqual(result, { ok: false, reason: "wrong-code" });
  }
  const sixth = await verifySecondStep(w.deps(), {
    pendingValue,
    answer: { backupCode: "00000-00000" },
  });
  assert.deepEqual(sixth, { ok: false, reason: "too-many-attempts" });
});

Deno.test("second step: a backup code works once and is removed from the saved factor", async () => {
  const w = world();
  const { backupCodes } = await enrolled(w);
  const savesBefore = w.saves.length;
  const result = await verifySecondStep(w.deps(), {
    pendingValue: await pendingFor(),
    answer: { backupCode: backupCodes[2].toUpperCase() },
  });
  assert.ok(result.ok);
  assert.equal(result.method, "backup-code");
  assert.equal(result.backupCodesLeft, 9);
  assert.equal(w.saves.length, savesBefore + 1);
  const factor = await openFactor(sealer, { sub: "user-1", sealed: w.records.get("user-1")! });
  assert.equal(factor.backupCodeHashes.length, 9);
  const again = await verifySecondStep(w.deps(T0 + 1000), {
    pendingValue: await pendingFor("user-1", T0 + 1000),
    answer: { backupCode: backupCodes[2] },
  });
  assert.deepEqual(again, { ok: false, reason: "wrong-code" });
  // The other codes still work.
  const other = await verifySecondStep(w.deps(), {
    pendingValue: await pendingFor(),
    answer: { backupCode: backupCodes[3] },
  });
  assert.equal(other.ok, true);
});

Deno.test("second step: one backup code used by parallel requests signs in once", async () => {
  const w = world();
  const { backupCodes } = await enrolled(w);
  const pendings = await Promise.all([pendingFor(), pendingFor(), pendingFor()]);
  const results = await Promise.all(
    pendings.map((pendingValue) =>
      verifySecondStep(w.deps(), { pendingValue, answer: { backupCode: backupCodes[0] } })
    ),
  );
  assert.equal(results.filter((r) => r.ok).length, 1);
});

Deno.test("second step: another user's code does not finish this user's sign-in", async () => {
  const w = world();
  await enrolled(w, "user-1");
  const other = await enrolled(w, "user-2");
  const result = await verifySecondStep(w.deps(), {
    pendingValue: await pendingFor("user-1"),
    answer: { code: await totpCode(other.secret, T0) },
  });
  // One chance in 10^6 x 3 that user-1's window holds the same code.
  assert.equal(result.ok, false);
});

Deno.test("second step: a stored factor that does not open throws, never reads as 'off'", async () => {
  const w = world();
  await enrolled(w, "user-2");
  const candidates = [
    w.records.get("user-2")!, // another user's factor in this user's record
    "garbage",
    await sealFactor(
      createJose("another-secret-of-at-least-thirty-two-bytes", {
        purpose: "two-factor",
        mode: "encrypted",
      }),
      { sub: "user-1", secret: generateTotpSecret(), backupCodeHashes: [], createdAt: 0 },
    ),
  ];
  for (const stored of candidates) {
    w.records.set("user-1", stored);
    const error = await verifySecondStep(w.deps(), {
      pendingValue: await pendingFor("user-1"),
      answer: { code: "123456" },
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof TwoFactorError);
    assert.equal(error.code, "ERR_TWO_FACTOR_FACTOR_INVALID");
  }
});

Deno.test("second step: a user who turned two-factor off meanwhile must start again", async () => {
  const w = world();
  const result = await verifySecondStep(w.deps(), {
    pendingValue: await pendingFor(),
    answer: { code: "123456" },
  });
  assert.deepEqual(result, { ok: false, reason: "not-enrolled" });
});

Deno.test("second step: a missing, forged or expired cookie is refused before anything else", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  const code = await totpCode(secret, T0);
  for (const pendingValue of ["", "x.y.z.w.v", undefined as unknown as string]) {
    assert.deepEqual(
      await verifySecondStep(w.deps(), { pendingValue, answer: { code } }),
      { ok: false, reason: "pending-invalid" },
    );
  }
  assert.deepEqual(
    await verifySecondStep(w.deps(T0 + 300), {
      pendingValue: await pendingFor(),
      answer: { code },
    }),
    { ok: false, reason: "pending-expired" },
  );
});

Deno.test("second step: the answer must be exactly one of code and backupCode, as a string", async () => {
  const w = world();
  const { secret, backupCodes } = await enrolled(w);
  const code = await totpCode(secret, T0);
  const answers: unknown[] = [
    {},
    { code: 123456 },
    { backupCode: ["x"] },
    { code, backupCode: backupCodes[0] },
    null,
    "123456",
  ];
  for (const answer of answers) {
    assert.deepEqual(
      await verifySecondStep(w.deps(), {
        pendingValue: await pendingFor(),
        answer: answer as { code: string },
      }),
      { ok: false, reason: "invalid-request" },
      JSON.stringify(answer),
    );
  }
});

Deno.test("disable: a current code turns two-factor off, a wrong one does not", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  assert.deepEqual(
    await disableTwoFactor(w.deps(), { sub: "user-1", code: await wrongCode(secret) }),
    { ok: false, reason: "wrong-code" },
  );
  assert.notEqual(w.records.get("user-1"), null);
  assert.deepEqual(
    await disableTwoFactor(w.deps(), { sub: "user-1", code: await totpCode(secret, T0) }),
    { ok: true },
  );
  assert.equal(w.records.get("user-1"), null);
  assert.deepEqual(
    await disableTwoFactor(w.deps(), { sub: "user-1", code: "123456" }),
    { ok: false, reason: "not-enrolled" },
  );
});

Deno.test("disable: the sixth try within five minutes is refused, even with the right code", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  const wrong = await wrongCode(secret);
  for (let i = 0; i < 5; i++) {
    assert.equal(
      (await disableTwoFactor(w.deps(), { sub: "user-1", code: wrong })).ok,
      false,
    );
  }
  assert.deepEqual(
    await disableTwoFactor(w.deps(), { sub: "user-1", code: await totpCode(secret, T0) }),
    { ok: false, reason: "too-many-attempts" },
  );
  assert.notEqual(w.records.get("user-1"), null);
});

Deno.test("disable: a code already used to sign in cannot turn two-factor off", async () => {
  const w = world();
  const { secret } = await enrolled(w);
  const code = await totpCode(secret, T0);
  assert.equal(
    (await verifySecondStep(w.deps(), { pendingValue: await pendingFor(), answer: { code } })).ok,
    true,
  );
  assert.deepEqual(await disableTwoFactor(w.deps(), { sub: "user-1", code }), {
    ok: false,
    reason: "code-used",
  });
});

Deno.test("every refusal maps to a 4xx AuthError with a plain sentence, and says whether to clear the cookie", () => {
  const reasons: TwoFactorFailure[] = [
    "invalid-request",
    "pending-invalid",
    "pending-expired",
    "too-many-attempts",
    "wrong-code",
    "code-used",
    "already-finished",
    "not-enrolled",
  ];
  for (const reason of reasons) {
    const { error, over } = twoFactorFailure(reason);
    assert.ok(error instanceof AuthError);
    assert.ok(error.status >= 400 && error.status < 500, reason);
    assert.ok(!error.description.includes("expected"), reason);
    assert.equal(typeof over, "boolean");
  }
  assert.equal(twoFactorFailure("wrong-code").over, false);
  assert.equal(twoFactorFailure("too-many-attempts").over, true);
  assert.deepEqual(twoFactorFailure("wrong-code").error.toJSON(), {
    error: "invalid_grant",
    error_description: "That code is not right. Please try again.",
  });
});
