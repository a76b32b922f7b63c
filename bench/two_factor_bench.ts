// Checking a TOTP code: verifyTotp (one key import, three HMACs at once)
// against the bare Web Crypto calls it is made of, the same calls one after
// the other, otpauth's validate (pure JavaScript HMAC) as a peer, and the
// other two-factor steps a sign-in takes (opening the factor, a backup code).
// Before the benches, the Web Crypto calls of each operation are counted.
import { createJose } from "../src/jose/factory.ts";
import { generateBackupCodes, verifyBackupCode } from "../src/two_factor/backup_codes.ts";
import { openFactor, sealFactor } from "../src/two_factor/factor.ts";
import {
  generateTotpSecret,
  importHotpKey,
  totpCode,
  totpStep,
  verifyTotp,
} from "../src/two_factor/totp.ts";
import { countSubtle } from "../tests/jose/_subtle.ts";
// deno-lint-ignore no-import-prefix -- dev-only peer for the benchmark.
import * as OTPAuth from "npm:otpauth@9";

const secret = generateTotpSecret() as Uint8Array<ArrayBuffer>;
const now = 1_700_000_000;
const code = await totpCode(secret, now);
const wrong = code === "000000" ? "000001" : "000000";
const key = await importHotpKey(secret);
const message = new Uint8Array(8);
const HMAC_SHA1 = { name: "HMAC", hash: "SHA-1" } as const;

const sealer = createJose("bench-secret-0123456789abcdef-0123456789abcdef", {
  purpose: "two-factor",
  mode: "encrypted",
});
const { codes, hashes } = await generateBackupCodes();
const sealed = await sealFactor(sealer, {
  sub: "user-1",
  secret,
  backupCodeHashes: hashes,
  createdAt: now,
});
await openFactor(sealer, { sub: "user-1", sealed });

const reference = new OTPAuth.TOTP({
  secret: new OTPAuth.Secret({ buffer: secret.slice().buffer }),
  algorithm: "SHA1",
  digits: 6,
  period: 30,
});

/** The same work as verifyTotp with the three HMACs awaited one by one. */
async function verifySequential(code: string): Promise<number | null> {
  const current = totpStep(now);
  const imported = await crypto.subtle.importKey("raw", secret, HMAC_SHA1, false, ["sign"]);
  let matched: number | null = null;
  for (const step of [current - 1, current, current + 1]) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(4, step);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", imported, bytes));
    const offset = mac[19] & 15;
    const value = (((mac[offset] & 127) << 24) | (mac[offset + 1] << 16) |
      (mac[offset + 2] << 8) | mac[offset + 3]) % 1_000_000;
    if ((value ^ Number(code)) === 0) matched = step;
  }
  return matched;
}

// Sanity: the variants agree, and how many Web Crypto calls each makes.
if (await verifyTotp(secret, code, now) !== totpStep(now)) throw new Error("verifyTotp broke");
if (await verifySequential(code) !== totpStep(now)) throw new Error("sequential variant broke");
if (reference.validate({ token: code, timestamp: now * 1000, window: 1 }) !== 0) {
  throw new Error("otpauth disagrees");
}
console.log("Web Crypto calls per operation:");
for (
  const [name, run] of [
    ["verifyTotp, right code", () => verifyTotp(secret, code, now)],
    ["verifyTotp, wrong code", () => verifyTotp(secret, wrong, now)],
    ["verifyTotp, malformed code", () => verifyTotp(secret, "12345a", now)],
    ["openFactor (warm key)", () => openFactor(sealer, { sub: "user-1", sealed })],
    ["verifyBackupCode", () => verifyBackupCode(hashes, codes[9])],
  ] as const
) {
  console.log(`  ${name}: ${JSON.stringify(await countSubtle(run))}`);
}

Deno.bench(
  "bare HMAC-SHA-1 sign, key imported once",
  { group: "totp", baseline: true },
  async () => {
    await crypto.subtle.sign("HMAC", key, message);
  },
);

Deno.bench("bare importKey + one HMAC-SHA-1 sign", { group: "totp" }, async () => {
  const k = await crypto.subtle.importKey("raw", secret, HMAC_SHA1, false, ["sign"]);
  await crypto.subtle.sign("HMAC", k, message);
});

Deno.bench("verifyTotp, right code (import + 3 HMACs at once)", { group: "totp" }, async () => {
  await verifyTotp(secret, code, now);
});

Deno.bench("verifyTotp, wrong code", { group: "totp" }, async () => {
  await verifyTotp(secret, wrong, now);
});

Deno.bench("the same, 3 HMACs one after the other", { group: "totp" }, async () => {
  await verifySequential(code);
});

Deno.bench("verifyTotp, malformed code (no crypto)", { group: "totp" }, async () => {
  await verifyTotp(secret, "12345a", now);
});

Deno.bench("otpauth@9 TOTP.validate, window 1 (JavaScript HMAC)", { group: "totp" }, () => {
  reference.validate({ token: code, timestamp: now * 1000, window: 1 });
});

Deno.bench("openFactor, warm key (one AES-GCM decrypt)", { group: "sign-in" }, async () => {
  await openFactor(sealer, { sub: "user-1", sealed });
});

Deno.bench("verifyBackupCode (one SHA-256, ten compares)", { group: "sign-in" }, async () => {
  await verifyBackupCode(hashes, codes[9]);
});
