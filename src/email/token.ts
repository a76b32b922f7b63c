/**
 * Email one-time tokens and codes. A link's token is short (a link of at
 * most 200 characters survives every mail client) and still sealed: AES-GCM
 * under the `email` purpose key, through the JOSE object's `encryptJWE`
 * with its own `cty`, sent without the JWE header, which is the same for
 * every token of one key and is put back before decrypting (it stays the
 * authenticated data, so nothing in it can be changed). What is left is the
 * 12-byte IV (also the token's one-time id, marked used by
 * `store.consume`), the ciphertext and the 16-byte tag.
 *
 * The sealed text names one purpose (`kind`), the expiry, the address the
 * message went to and, as the kind needs, a short hash of the user's `sub`
 * (so a link never acts for another account that has the address now; a
 * change link's hash binds the address being replaced too), the user's
 * password-reset mark when it was sent, and `redirectTo` when the link
 * stays short with it (else `redirectTo` rides only in the asking browser's
 * `email_flow` cookie). A key whose JWE headers differ per token (ECDH-ES)
 * gets the whole JWE as its token.
 *
 * The 6-digit code rides sealed in the asking browser's `email_flow`
 * cookie, next to the same id, so the link and the code of one message
 * sign in once between them.
 *
 * @module
 */

import { sha256 } from "../crypto/sha256.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import type { Jose } from "../jose/types.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";

/** What an email token is for; a token of one kind is never accepted for another. */
export type EmailTokenKind = "sign-in" | "verify-email" | "change-email" | "reset-password";

/** One letter per kind inside the sealed text. */
const KIND_LETTERS: Readonly<Record<EmailTokenKind, string>> = {
  "sign-in": "s",
  "verify-email": "v",
  "change-email": "c",
  "reset-password": "r",
};
const KIND_OF_LETTER: Readonly<Record<string, EmailTokenKind>> = {
  s: "sign-in",
  v: "verify-email",
  c: "change-email",
  r: "reset-password",
};

/** The `cty` of an email link token: no other sealed value of the library passes for one. */
const TOKEN_CTY = "email-link";
/** Characters of the IV (12 bytes) and of the tag (16 bytes) in base64url. */
const IV_CHARS = 16;
const TAG_CHARS = 22;
/** Longest token looked at (a whole JWE, for keys whose headers differ per token). */
const MAX_TOKEN = 4096;
const encoder = /* @__PURE__ */ new TextEncoder();

/** The claims of an email token, once opened. */
export interface EmailToken {
  /** What the token is for. */
  kind: EmailTokenKind;
  /** The address the message went to (for `change-email`: the new address). */
  email: string;
  /** The one-time id that `store.consume` marks used. */
  id: string;
  /** When the token expires, in seconds since the epoch. */
  expiresAt: number;
  /** {@link shortHash} of the user's `sub` at send time (verification, change, reset). */
  subHash?: string;
  /** Where a sign-in lands, when the link stayed short with it (already validated). */
  redirectTo?: string;
  /** The user's password-reset mark when the token was made (sign-in, reset). */
  resetMark?: string;
}

/** What {@link sealEmailToken} needs besides the claims. */
export interface SealEmailTokenInput {
  kind: EmailTokenKind;
  email: string;
  /** Lifetime in whole seconds. */
  maxAge: number;
  /** Now, in seconds since the epoch (the configured clock). */
  now: number;
  /** The user the token acts for; only its {@link shortHash} is sealed. */
  sub?: string;
  /** A hash to seal as `subHash` instead of the one of `sub` (e.g. binding more than the user). */
  subHash?: string;
  /** Where a sign-in lands; kept only while the token stays within `maxTokenLength`. */
  redirectTo?: string;
  /** The user's password-reset mark now (`""` for none). */
  resetMark?: string;
  /** The longest token that may carry `redirectTo`; default: no limit. */
  maxTokenLength?: number;
}

/**
 * A 72-bit hash of a `sub` or an address (lowercased), in base64url: enough
 * inside a sealed token, where it is only compared with a value the server
 * computes again.
 */
export function shortHash(value: string): string {
  return encodeBase64Url(sha256(encoder.encode(value)).subarray(0, 9));
}

/** The header every token of this key shares, or `null` when headers differ per token. */
type HeaderCache = WeakMap<object, Promise<string | null>>;
// A cache of a pure function of the key (what encryptJWE writes first); it holds no request state.
const headers: HeaderCache = /* @__PURE__ */ new WeakMap();

function sharedHeader(jose: Pick<Jose, "encryptJWE">): Promise<string | null> {
  let header = headers.get(jose);
  if (header === undefined) {
    header = Promise.all([
      jose.encryptJWE("", { cty: TOKEN_CTY }),
      jose.encryptJWE("", { cty: TOKEN_CTY }),
    ]).then(([a, b]) => {
      const first = a.slice(0, a.indexOf("."));
      return first === b.slice(0, b.indexOf(".")) ? first : null;
    });
    header.catch(() => headers.delete(jose));
    headers.set(jose, header);
  }
  return header;
}

/** The sealed text: the kind's letter and the expiry in base 36, then the fields, one a line. */
function plaintextOf(kind: EmailTokenKind, expiresAt: number, fields: string[]): string {
  while (fields.length > 1 && fields[fields.length - 1] === "") fields.pop();
  return `${KIND_LETTERS[kind]}${expiresAt.toString(36)}\n${fields.join("\n")}`;
}

/** A JWE made by `encryptJWE` without its header: IV, ciphertext and tag, joined. */
function compact(jwe: string, header: string | null): string {
  if (header === null) return jwe;
  const [, , iv, ciphertext, tag] = jwe.split(".");
  return iv + ciphertext + tag;
}

/** Seals a new email token; resolves the token and its claims (the id included). */
export async function sealEmailToken(
  jose: Pick<Jose, "encryptJWE">,
  input: SealEmailTokenInput,
): Promise<{ token: string; claims: EmailToken }> {
  const expiresAt = Math.floor(input.now) + input.maxAge;
  const claims: EmailToken = { kind: input.kind, email: input.email, id: "", expiresAt };
  if (input.subHash !== undefined) claims.subHash = input.subHash;
  else if (input.sub !== undefined) claims.subHash = shortHash(input.sub);
  if (input.resetMark) claims.resetMark = input.resetMark;
  const fields = [input.email, claims.subHash ?? "", claims.resetMark ?? ""];
  const header = await sharedHeader(jose);
  let jwe = await jose.encryptJWE(plaintextOf(input.kind, expiresAt, fields.slice()), {
    cty: TOKEN_CTY,
  });
  if (input.redirectTo !== undefined) {
    const withTarget = await jose.encryptJWE(
      plaintextOf(input.kind, expiresAt, [...fields, input.redirectTo]),
      { cty: TOKEN_CTY },
    );
    if (compact(withTarget, header).length <= (input.maxTokenLength ?? Infinity)) {
      jwe = withTarget;
      claims.redirectTo = input.redirectTo;
    }
  }
  claims.id = jwe.split(".")[2];
  return { token: compact(jwe, header), claims };
}

/**
 * Opens an email token of the expected kind (or one of the expected kinds);
 * `null` when it is forged, tampered with, expired, malformed or of another
 * kind.
 */
export async function openEmailToken(
  jose: Pick<Jose, "encryptJWE" | "decryptJWE">,
  token: unknown,
  kind: EmailTokenKind | readonly EmailTokenKind[],
  now: number = Date.now() / 1000,
): Promise<EmailToken | null> {
  if (typeof token !== "string" || token.length > MAX_TOKEN) return null;
  if (!/^[A-Za-z0-9_.-]+$/.test(token)) return null;
  try {
    const header = await sharedHeader(jose);
    let jwe: string;
    if (header === null) {
      jwe = token;
    } else {
      if (token.length <= IV_CHARS + TAG_CHARS || token.includes(".")) return null;
      const iv = token.slice(0, IV_CHARS);
      const ciphertext = token.slice(IV_CHARS, token.length - TAG_CHARS);
      jwe = `${header}..${iv}.${ciphertext}.${token.slice(token.length - TAG_CHARS)}`;
    }
    const id = jwe.split(".")[2];
    if (id === undefined || id.length < IV_CHARS) return null;
    const opened = toEmailToken(await jose.decryptJWE(jwe, { cty: TOKEN_CTY }), id, kind);
    // Exact expiry: no clock tolerance stretches a one-time link.
    return opened !== null && now < opened.expiresAt ? opened : null;
  } catch {
    return null;
  }
}

function toEmailToken(
  text: string,
  id: string,
  expected: EmailTokenKind | readonly EmailTokenKind[],
): EmailToken | null {
  const lines = text.split("\n");
  const head = lines[0];
  const kind = KIND_OF_LETTER[head.charAt(0)];
  const kinds: readonly string[] = typeof expected === "string" ? [expected] : expected;
  if (kind === undefined || !kinds.includes(kind)) return null;
  const expiresAt = parseInt(head.slice(1), 36);
  if (!/^[0-9a-z]{1,12}$/.test(head.slice(1)) || !Number.isSafeInteger(expiresAt)) return null;
  const [email, subHash = "", resetMark = ""] = lines.slice(1, 4);
  if (typeof email !== "string" || email === "") return null;
  const token: EmailToken = { kind, email, id, expiresAt };
  if (subHash !== "") token.subHash = subHash;
  if (resetMark !== "") token.resetMark = resetMark;
  // The redirect is the last field and may hold anything a validated target holds.
  if (lines.length > 4) token.redirectTo = lines.slice(4).join("\n");
  return token;
}

const CODE_DIGITS = 6;
const CODE_PATTERN = /^[0-9]{6}$/;

/** A uniformly random 6-digit code (rejection sampling: no modulo bias). */
export function generateEmailCode(): string {
  const limit = 4_294_000_000; // the largest multiple of 10^6 below 2^32
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    if (buffer[0] < limit) return String(buffer[0] % 1_000_000).padStart(CODE_DIGITS, "0");
  }
}

/**
 * Whether a submitted code is well formed: exactly six ASCII digits (no
 * spaces, signs, letters or other scripts' digits).
 */
export function isEmailCode(value: unknown): value is string {
  return typeof value === "string" && CODE_PATTERN.test(value);
}

/** Compares a submitted code with the sealed one in constant time. */
export function emailCodeMatches(submitted: string, expected: string): boolean {
  return isEmailCode(submitted) && isEmailCode(expected) && timingSafeEqual(submitted, expected);
}
