import assert from "node:assert/strict";
import { createJose } from "../../src/jose/factory.ts";
import { generateBackupCodes, verifyBackupCode } from "../../src/two_factor/backup_codes.ts";
import { encodeBase32 } from "../../src/two_factor/base32.ts";
import { TwoFactorError } from "../../src/two_factor/errors.ts";
import {
  FACTOR_CTY,
  openFactor,
  removeBackupCode,
  sealFactor,
  type TwoFactorFactor,
} from "../../src/two_factor/factor.ts";
import { generateTotpSecret } from "../../src/two_factor/totp.ts";
import { countSubtle } from "../jose/_subtle.ts";

const SECRET = "a-test-secret-of-at-least-thirty-two-bytes";
const sealer = createJose(SECRET, { purpose: "two-factor", mode: "encrypted" });

function newFactor(sub = "user-1"): { factor: TwoFactorFactor; codes: string[] } {
  const { codes, hashes } = generateBackupCodes();
  return {
    factor: {
      sub,
      secret: generateTotpSecret(),
      backupCodeHashes: hashes,
      createdAt: 1_700_000_000,
    },
    codes,
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof TwoFactorError, `expected a TwoFactorError, got ${error}`);
  return error.code;
}

Deno.test("a sealed factor opens for its user with the same secret, hashes and time", async () => {
  const { factor } = newFactor();
  const sealed = await sealFactor(sealer, factor);
  assert.deepEqual(await openFactor(sealer, { sub: "user-1", sealed }), factor);
});

Deno.test("a sealed factor shows neither the TOTP secret nor the backup code hashes nor the sub", async () => {
  const { factor, codes } = newFactor("ada@example.com");
  const sealed = await sealFactor(sealer, factor);
  assert.ok(!sealed.includes(encodeBase32(factor.secret)));
  for (const hash of factor.backupCodeHashes) assert.ok(!sealed.includes(hash));
  for (const code of codes) assert.ok(!sealed.includes(code));
  const decoded = sealed.split(".").map((part) => {
    try {
      return atob(part.replaceAll("-", "+").replaceAll("_", "/"));
    } catch {
      return "";
    }
  }).join();
  assert.ok(!decoded.includes("ada@example.com"));
  assert.ok(!decoded.includes(encodeBase32(factor.secret)));
});

Deno.test("a factor sealed for one user is refused for another", async () => {
  const { factor } = newFactor("user-a");
  const sealed = await sealFactor(sealer, factor);
  assert.equal(
    await refusal(openFactor(sealer, { sub: "user-b", sealed })),
    "ERR_TWO_FACTOR_FACTOR_INVALID",
  );
  assert.equal(
    await refusal(openFactor(sealer, { sub: "user-a ", sealed })),
    "ERR_TWO_FACTOR_FACTOR_INVALID",
  );
});

Deno.test("a factor sealed with another key or purpose is refused", async () => {
  const { factor } = newFactor();
  const others = [
    createJose("another-secret-of-at-least-thirty-two-bytes", {
      purpose: "two-factor",
      mode: "encrypted",
    }),
    createJose(SECRET, { purpose: "oauth-flow", mode: "encrypted" }),
    createJose(SECRET, { purpose: "session", mode: "encrypted" }),
  ];
  for (const other of others) {
    const sealed = await sealFactor(other, factor);
    assert.equal(
      await refusal(openFactor(sealer, { sub: "user-1", sealed })),
      "ERR_TWO_FACTOR_FACTOR_INVALID",
    );
  }
});

Deno.test("anything the app or an attacker stored instead of a sealed factor is refused, never 'off'", async () => {
  const { factor } = newFactor();
  const sealed = await sealFactor(sealer, factor);
  const session = await createJose(SECRET).encodeJWT({ sub: "user-1" });
  const wrongKind = await sealer.encryptJWE(
    JSON.stringify({ v: 1, sub: "user-1", secret: encodeBase32(factor.secret) }),
    { cty: "2fa-pending" },
  );
  const flipped = sealed.slice(0, -3) + (sealed.at(-3) === "A" ? "B" : "A") + sealed.slice(-2);
  const candidates: unknown[] = [
    "",
    "off",
    "false",
    "null",
    "{}",
    JSON.stringify({ secret: encodeBase32(factor.secret) }),
    encodeBase32(factor.secret),
    session,
    wrongKind,
    flipped,
    sealed + "x",
    sealed.split(".").slice(0, 4).join("."),
    "x".repeat(20_000),
    null,
    undefined,
    42,
    { sealed },
  ];
  for (const candidate of candidates) {
    assert.equal(
      await refusal(openFactor(sealer, { sub: "user-1", sealed: candidate as string })),
      "ERR_TWO_FACTOR_FACTOR_INVALID",
      String(candidate).slice(0, 40),
    );
  }
});

Deno.test("a sealed payload that is not exactly a version-1 factor is refused", async () => {
  const { factor } = newFactor();
  const base = {
    v: 1,
    sub: "user-1",
    secret: encodeBase32(factor.secret),
    backupCodeHashes: factor.backupCodeHashes,
    createdAt: 1,
  };
  const variants: Record<string, unknown>[] = [
    { ...base, v: 2 },
    { ...base, v: "1" },
    { ...base, extra: true },
    { ...base, secret: encodeBase32(factor.secret.subarray(0, 19)) },
    { ...base, secret: encodeBase32(factor.secret) + "AA" },
    { ...base, secret: encodeBase32(factor.secret) + "=" },
    { ...base, secret: 12 },
    { ...base, backupCodeHashes: [...factor.backupCodeHashes, factor.backupCodeHashes[0]] },
    { ...base, backupCodeHashes: ["short"] },
    { ...base, backupCodeHashes: "x" },
    { ...base, createdAt: -1 },
    { ...base, createdAt: 1.5 },
    { ...base, createdAt: "1" },
    { ...base, sub: undefined },
  ];
  for (const variant of variants) {
    const sealed = await sealer.encryptJWE(JSON.stringify(variant), { cty: FACTOR_CTY });
    assert.equal(
      await refusal(openFactor(sealer, { sub: "user-1", sealed })),
      "ERR_TWO_FACTOR_FACTOR_INVALID",
      JSON.stringify(variant).slice(0, 80),
    );
  }
  for (const text of ["[]", "null", "1", "not json"]) {
    const sealed = await sealer.encryptJWE(text, { cty: FACTOR_CTY });
    assert.equal(
      await refusal(openFactor(sealer, { sub: "user-1", sealed })),
      "ERR_TWO_FACTOR_FACTOR_INVALID",
    );
  }
  // The well-formed payload opens: the variants fail for their one change.
  const sealed = await sealer.encryptJWE(JSON.stringify(base), { cty: FACTOR_CTY });
  assert.equal((await openFactor(sealer, { sub: "user-1", sealed })).createdAt, 1);
});

Deno.test("a factor sealed before a key rotation still opens with the new key list", async () => {
  const { factor } = newFactor();
  const sealed = await sealFactor(sealer, factor);
  const rotated = createJose(["a-brand-new-secret-of-at-least-32-bytes!!", SECRET], {
    purpose: "two-factor",
    mode: "encrypted",
  });
  assert.deepEqual(await openFactor(rotated, { sub: "user-1", sealed }), factor);
});

Deno.test("opening a factor costs one AES-GCM decryption once the key is ready", async () => {
  const { factor } = newFactor();
  const sealed = await sealFactor(sealer, factor);
  await openFactor(sealer, { sub: "user-1", sealed });
  const counts = await countSubtle(() => openFactor(sealer, { sub: "user-1", sealed }));
  assert.deepEqual(counts, { decrypt: 1 });
});

Deno.test("sealFactor refuses malformed factors", async () => {
  const { factor } = newFactor();
  const bad: unknown[] = [
    { ...factor, sub: "" },
    { ...factor, sub: "x".repeat(257) },
    { ...factor, secret: new Uint8Array(16) },
    { ...factor, secret: encodeBase32(factor.secret) },
    { ...factor, backupCodeHashes: [...factor.backupCodeHashes, factor.backupCodeHashes[0]] },
    { ...factor, backupCodeHashes: ["not a hash"] },
    { ...factor, createdAt: NaN },
    null,
  ];
  for (const value of bad) {
    await assert.rejects(() => sealFactor(sealer, value as TwoFactorFactor), TypeError);
  }
});

Deno.test("openFactor refuses a missing sub with a TypeError (a wiring mistake, not a bad value)", async () => {
  const { factor } = newFactor();
  const sealed = await sealFactor(sealer, factor);
  await assert.rejects(() => openFactor(sealer, { sub: "", sealed }), TypeError);
  await assert.rejects(
    () => openFactor(sealer, { sub: undefined as unknown as string, sealed }),
    TypeError,
  );
});

Deno.test("removeBackupCode drops the used code so that it no longer verifies", async () => {
  const { factor, codes } = newFactor();
  const index = verifyBackupCode(factor.backupCodeHashes, codes[4]);
  assert.equal(index, 4);
  const after = removeBackupCode(factor, index!);
  assert.equal(after.backupCodeHashes.length, 9);
  assert.equal(factor.backupCodeHashes.length, 10, "the factor passed in is unchanged");
  assert.equal(verifyBackupCode(after.backupCodeHashes, codes[4]), null);
  for (const i of [0, 1, 2, 3, 5, 6, 7, 8, 9]) {
    assert.notEqual(verifyBackupCode(after.backupCodeHashes, codes[i]), null);
  }
  // Saved and opened again, the code stays spent.
  const sealed = await sealFactor(sealer, after);
  const reopened = await openFactor(sealer, { sub: "user-1", sealed });
  assert.equal(verifyBackupCode(reopened.backupCodeHashes, codes[4]), null);
});

Deno.test("removeBackupCode refuses an index outside the list", () => {
  const { factor } = newFactor();
  for (const index of [-1, 10, 1.5, NaN]) {
    assert.throws(() => removeBackupCode(factor, index), RangeError);
  }
});
