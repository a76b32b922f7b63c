// Checking a TOTP code: verifyTotp (three HMAC-SHA-1 in JavaScript)
// against the bare Web Crypto calls it is made of, the same calls one after
// the other, otpauth's validate (pure JavaScript HMAC) as a peer, and the
// other two-factor steps a sign-in takes (opening the factor, a backup code).
// Before the benches, the Web Crypto calls of each operation are counted. The "http" group
// times the routes: POST /twoFactor/verify and the credentials sign-in with and without the gate.
import { createAuth } from "../mod.ts";
import { createJose } from "../src/jose/factory.ts";
import { decodeBase32 } from "../src/two_factor/base32.ts";
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
const { codes, hashes } = generateBackupCodes();
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
if (verifyTotp(secret, code, now) !== totpStep(now)) throw new Error("verifyTotp broke");
if (await verifySequential(code) !== totpStep(now)) throw new Error("sequential variant broke");
if (reference.validate({ token: code, timestamp: now * 1000, window: 1 }) !== 0) {
  throw new Error("otpauth disagrees");
}
console.log("Web Crypto calls per operation:");
for (
  const [name, run] of [
    ["verifyTotp, right code", () => Promise.resolve(verifyTotp(secret, code, now))],
    ["verifyTotp, wrong code", () => Promise.resolve(verifyTotp(secret, wrong, now))],
    ["verifyTotp, malformed code", () => Promise.resolve(verifyTotp(secret, "12345a", now))],
    ["openFactor (warm key)", () => openFactor(sealer, { sub: "user-1", sealed })],
    ["verifyBackupCode", () => Promise.resolve(verifyBackupCode(hashes, codes[9]))],
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

Deno.bench("verifyTotp, right code (3 HMAC-SHA-1 in JavaScript)", { group: "totp" }, () => {
  verifyTotp(secret, code, now);
});

Deno.bench("verifyTotp, wrong code", { group: "totp" }, () => {
  verifyTotp(secret, wrong, now);
});

Deno.bench("the same, 3 HMACs one after the other", { group: "totp" }, async () => {
  await verifySequential(code);
});

Deno.bench("verifyTotp, malformed code (no crypto)", { group: "totp" }, () => {
  verifyTotp(secret, "12345a", now);
});

Deno.bench("otpauth@9 TOTP.validate, window 1 (JavaScript HMAC)", { group: "totp" }, () => {
  reference.validate({ token: code, timestamp: now * 1000, window: 1 });
});

Deno.bench("openFactor, warm key (one AES-GCM decrypt)", { group: "sign-in" }, async () => {
  await openFactor(sealer, { sub: "user-1", sealed });
});

Deno.bench("verifyBackupCode (one SHA-256, ten compares)", { group: "sign-in" }, () => {
  verifyBackupCode(hashes, codes[9]);
});

// The routes in-process: POST /twoFactor/verify with a code (CSRF, pending cookie, factor, TOTP,
// then the session) and the credentials sign-in of an enrolled user (the gate) beside one of a
// user without two-factor. Setup per iteration (sign-in, CSRF token, code) is outside b.start().
const ORIGIN = "http://localhost:8000";
const clock = { now: Math.floor(Date.now() / 30_000) * 30_000 + 5_000 };
let factor: string | null = null;
const auth = createAuth({
  oauth: [],
  secret: "bench-secret-0123456789abcdef-0123456789abcdef",
  logger: false,
  env: {},
  clock: () => clock.now,
  credentials: {
    throttle: false,
    authorize: ({ username }) => ({ sub: username, name: "Ada", email: "ada@example.com" }),
  },
  twoFactor: {
    load: (sub) => (sub === "ada" ? factor : null),
    save: (sub, value) => {
      if (sub === "ada") factor = value;
    },
  },
});
const handler = auth.handlers.ALL;

function cookiesOf(response: Response, into: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const index = pair.indexOf("=");
    const value = pair.slice(index + 1);
    if (value === "" || /max-age=0/i.test(line)) into.delete(pair.slice(0, index));
    else into.set(pair.slice(0, index), value);
  }
}

async function send(
  jar: Map<string, string>,
  method: string,
  path: string,
  body?: unknown,
  csrfToken?: string,
): Promise<Response> {
  const headers = new Headers({ Cookie: [...jar].map(([n, v]) => `${n}=${v}`).join("; ") });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  if (csrfToken) headers.set("X-CSRF-Token", csrfToken);
  const response = await handler(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  cookiesOf(response, jar);
  return response;
}

async function csrfOf(jar: Map<string, string>): Promise<string> {
  return (await (await send(jar, "GET", "/auth/csrfToken")).json()).csrfToken;
}

async function signIn(jar: Map<string, string>, username: string): Promise<Response> {
  return await send(
    jar,
    "POST",
    "/auth/signIn/credentials",
    { username, password: "x" },
    await csrfOf(jar),
  );
}

let benchSecret: Uint8Array = new Uint8Array(20);
// Enroll "ada" once through the routes.
{
  const jar = new Map<string, string>();
  await signIn(jar, "ada");
  const enrolled = await (await send(jar, "POST", "/auth/twoFactor/enroll", {}, await csrfOf(jar)))
    .json();
  const confirmCode = await totpCode(decodeBase32(enrolled.secret), clock.now / 1000);
  await send(jar, "POST", "/auth/twoFactor/confirm", { code: confirmCode }, await csrfOf(jar));
  if (factor === null) throw new Error("enrollment failed");
  benchSecret = decodeBase32(enrolled.secret);
}

Deno.bench("POST /twoFactor/verify, right code (JSON)", { group: "http" }, async (b) => {
  clock.now += 30_000; // a fresh step: each step signs in once
  const jar = new Map<string, string>();
  await (await signIn(jar, "ada")).body?.cancel();
  const token = await csrfOf(jar);
  const answer = await totpCode(benchSecret, clock.now / 1000);
  b.start();
  const response = await send(jar, "POST", "/auth/twoFactor/verify", { code: answer }, token);
  b.end();
  if (response.status !== 200) throw new Error(`verify answered ${response.status}`);
});

Deno.bench("POST /signIn/credentials, enrolled user (the gate)", { group: "http" }, async (b) => {
  const jar = new Map<string, string>();
  const token = await csrfOf(jar);
  b.start();
  await send(jar, "POST", "/auth/signIn/credentials", { username: "ada", password: "x" }, token);
  b.end();
});

Deno.bench(
  "POST /signIn/credentials, user without two-factor",
  { group: "http", baseline: true },
  async (b) => {
    const jar = new Map<string, string>();
    const token = await csrfOf(jar);
    b.start();
    await send(jar, "POST", "/auth/signIn/credentials", { username: "bob", password: "x" }, token);
    b.end();
  },
);
