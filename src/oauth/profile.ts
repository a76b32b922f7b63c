/**
 * Mapping a provider's user-info object to a `User`, with the field checks
 * every provider shares (subject, display text, email, image URL).
 *
 * @module
 */

import type { User } from "../types.ts";
import { isRecord } from "../is_record.ts";

export { isRecord };

/**
 * Thrown when a provider's user-info object cannot become a `User` (no usable
 * subject identifier, or not an object at all). The OAuth flow turns it into
 * a failed sign-in.
 *
 * @example
 * ```ts
 * import { defaultProfile, ProfileError } from "./profile.ts";
 *
 * try {
 *   defaultProfile({ name: "No id" });
 * } catch (error) {
 *   console.log(error instanceof ProfileError); // true
 * }
 * ```
 */
export class ProfileError extends Error {
  /** Creates the error with a one-sentence message. */
  constructor(message: string) {
    super(message);
    this.name = "ProfileError";
  }
}

const MAX_EMAIL_LENGTH = 254;
// RFC 5322 specials, quotes, whitespace, control and format (bidi, zero-width) characters.
const EMAIL_FORBIDDEN = /[\s\p{Cc}\p{Cf}\p{Z}"(),:;<>[\\\]`]/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

/**
 * Normalises a candidate email address with NFKC and returns it only when it
 * is a single plausible address: exactly one `@` (after normalisation, so a
 * full-width `＠` counts), a non-empty local part without leading, trailing or
 * doubled dots, a dotted domain, and no whitespace, commas, quotes, angle
 * brackets, other RFC 5322 specials or control characters. The domain is
 * lower-cased. Anything else, including non-strings, gives `undefined`.
 *
 * @example
 * ```ts
 * import { normalizeEmail } from "./profile.ts";
 *
 * normalizeEmail("ada@Example.COM"); // "ada@example.com"
 * normalizeEmail("a@x.com,b@y.com"); // undefined
 * normalizeEmail("a＠b@x.com"); // undefined (NFKC turns ＠ into a second @)
 * ```
 */
export function normalizeEmail(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const email = value.normalize("NFKC");
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return undefined;
  if (EMAIL_FORBIDDEN.test(email)) return undefined;
  const at = email.indexOf("@");
  if (at <= 0 || at !== email.lastIndexOf("@")) return undefined;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (local.length > 64 || local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return undefined;
  }
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return undefined;
  return `${local}@${domain}`;
}

/**
 * Reads a subject identifier: a non-blank string, or a safe integer turned
 * into its decimal string. Anything else gives `undefined`.
 *
 * @example
 * ```ts
 * import { readSubject } from "./profile.ts";
 *
 * readSubject(583231); // "583231"
 * readSubject(""); // undefined
 * ```
 */
export function readSubject(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * Reads a display text (a name or handle): a string that is not blank after
 * trimming, returned trimmed. Anything else gives `undefined`.
 *
 * @example
 * ```ts
 * import { readText } from "./profile.ts";
 *
 * readText("  Ada "); // "Ada"
 * readText(null); // undefined
 * ```
 */
export function readText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text === "" ? undefined : text;
}

/**
 * Reads an image URL: an absolute `https:` or `http:` URL, returned in its
 * parsed form. Other schemes (`javascript:`, `data:`), relative URLs and
 * non-strings give `undefined`.
 *
 * @example
 * ```ts
 * import { readImageURL } from "./profile.ts";
 *
 * readImageURL("https://example.com/a.png"); // "https://example.com/a.png"
 * readImageURL("javascript:alert(1)"); // undefined
 * ```
 */
export function readImageURL(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
}

/**
 * Returns the first value that `read` accepts, or `undefined`.
 *
 * @example
 * ```ts
 * import { firstOf, readText } from "./profile.ts";
 *
 * firstOf([null, "", "octocat"], readText); // "octocat"
 * ```
 */
export function firstOf<T>(
  values: readonly unknown[],
  read: (value: unknown) => T | undefined,
): T | undefined {
  for (const value of values) {
    const result = read(value);
    if (result !== undefined) return result;
  }
  return undefined;
}

/** The candidate fields of a `User` before missing ones are dropped. */
export interface UserFields {
  /** The subject identifier, already read with {@link readSubject}. */
  sub: string | undefined;
  /** The display name. */
  name?: string;
  /** The normalised email. */
  email?: string;
  /** The image URL. */
  image?: string;
}

/**
 * Builds a `User` from candidate fields: throws a {@link ProfileError} when
 * there is no subject, and leaves out every missing optional field (never
 * `undefined`, never `""`).
 *
 * @example
 * ```ts
 * import { buildUser } from "./profile.ts";
 *
 * buildUser({ sub: "1", name: undefined, email: "ada@example.com" }, "github");
 * // { sub: "1", email: "ada@example.com" }
 * ```
 */
export function buildUser(fields: UserFields, provider: string): User {
  if (fields.sub === undefined) {
    throw new ProfileError(
      `The ${provider} user-info response has no usable id: expected a non-empty string or an integer.`,
    );
  }
  const user: User = { sub: fields.sub };
  if (fields.name !== undefined) user.name = fields.name;
  if (fields.email !== undefined) user.email = fields.email;
  if (fields.image !== undefined) user.image = fields.image;
  return user;
}

/**
 * Picks the address of the first entry of a provider's email list whose
 * `primaryFlag` and `verifiedFlag` are both `true`, through
 * {@link normalizeEmail}; `undefined` when `list` is not an array or no entry
 * qualifies.
 *
 * @example
 * ```ts
 * import { primaryVerifiedEmail } from "./profile.ts";
 *
 * primaryVerifiedEmail([{ email: "ada@example.com", primary: true, verified: true }], "primary", "verified");
 * // "ada@example.com"
 * ```
 */
export function primaryVerifiedEmail(
  list: unknown,
  primaryFlag: string,
  verifiedFlag: string,
): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const entry = list.find((item) =>
    isRecord(item) && item[primaryFlag] === true && item[verifiedFlag] === true
  );
  return isRecord(entry) ? normalizeEmail(entry.email) : undefined;
}

/**
 * The mapping used for providers without a `profile` function: `sub` is the
 * first usable of `sub`, `id` (integers become strings); `name` the first
 * usable of `name`, `login`, `username`; `email` is `email` through
 * {@link normalizeEmail}; `image` the first absolute http(s) URL of
 * `picture`, `avatar_url`, `image`. A candidate of the wrong type or blank is
 * skipped; missing optional fields are left out.
 *
 * @throws {ProfileError} when the object has no usable `sub` or `id`.
 *
 * @example
 * ```ts
 * import { defaultProfile } from "./profile.ts";
 *
 * defaultProfile({ id: 42, login: "octocat", email: null, avatar_url: "https://example.com/o.png" });
 * // { sub: "42", name: "octocat", image: "https://example.com/o.png" }
 * ```
 */
export function defaultProfile(raw: Record<string, unknown>): User {
  if (!isRecord(raw)) {
    throw new ProfileError("The user-info response is not a JSON object: expected an object.");
  }
  return buildUser({
    sub: firstOf([raw.sub, raw.id], readSubject),
    name: firstOf([raw.name, raw.login, raw.username], readText),
    email: normalizeEmail(raw.email),
    image: firstOf([raw.picture, raw.avatar_url, raw.image], readImageURL),
  }, "provider's");
}
