/**
 * Mapping a provider's user-info object to a `User`, and the field rules
 * every way into a session shares: `email` one plain address that NFKC
 * normalisation would not change, `image` an absolute `https:` (or `http:`)
 * URL, no control characters, every string capped in length. A value that
 * breaks a rule is left out of a provider profile (and refused on updates).
 *
 * @module
 */

import { CONTROL, imageURL, isPlainEmail, USER_FIELD_LIMITS } from "../user_fields.ts";
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

/**
 * The longest accepted value of each user field, in UTF-16 code units:
 * `sub` 255, `name` 256, `email` 254 (RFC 5321), `image` 2048.
 *
 * @example
 * ```ts
 * import { MAX_FIELD_LENGTH } from "./profile.ts";
 *
 * MAX_FIELD_LENGTH.email; // 254
 * ```
 */
export const MAX_FIELD_LENGTH: Readonly<Record<"sub" | "name" | "email" | "image", number>> =
  USER_FIELD_LIMITS;

/**
 * Returns `value` when it is one plain email address, else `undefined`:
 * exactly one `@`, a local part of at most 64 characters without leading,
 * trailing or doubled dots, a dotted domain, at most 254 characters, no
 * list, no display name, no quotes, whitespace, control or format
 * characters, and unchanged by NFKC normalisation: `ｂoss@corp.example`,
 * `ᵇoss@corp.example`, `boss＠corp.example` and ligatures are refused, never
 * folded onto `boss@corp.example`. ASCII letters of the domain are
 * lower-cased (domains are case-insensitive); nothing else is rewritten.
 *
 * @example
 * ```ts
 * import { checkEmail } from "./profile.ts";
 *
 * checkEmail("ada@Example.COM"); // "ada@example.com"
 * checkEmail("a@x.example,b@y.example"); // undefined
 * checkEmail("ｂoss@corp.example"); // undefined
 * ```
 */
export function checkEmail(value: unknown): string | undefined {
  if (!isPlainEmail(value)) return undefined;
  const at = value.indexOf("@");
  return `${value.slice(0, at + 1)}${
    value.slice(at + 1).replace(/[A-Z]+/g, (l) => l.toLowerCase())
  }`;
}

/**
 * The earlier name of {@link checkEmail}, kept for the provider mappers:
 * the same rules, and a value NFKC would change is refused, not rewritten.
 *
 * @example
 * ```ts
 * import { normalizeEmail } from "./profile.ts";
 *
 * normalizeEmail("ada＠example.com"); // undefined
 * ```
 */
export function normalizeEmail(value: unknown): string | undefined {
  return checkEmail(value);
}

/**
 * Returns an image URL in its parsed form when it is an absolute `https:` or
 * `http:` URL without credentials, control characters or surrounding
 * whitespace, within {@link MAX_FIELD_LENGTH}; else `undefined`
 * (`javascript:`, `data:`, relative URLs, non-strings).
 *
 * @example
 * ```ts
 * import { checkImageURL } from "./profile.ts";
 *
 * checkImageURL("https://example.com/a.png"); // "https://example.com/a.png"
 * checkImageURL("javascript:alert(1)"); // undefined
 * ```
 */
export function checkImageURL(value: unknown): string | undefined {
  return imageURL(value);
}

/**
 * Returns a display text (a name or handle) trimmed, when it is a string that
 * is not blank, carries no control characters (C0, C1, line and paragraph
 * separators) and is at most `maxLength` characters; else `undefined`.
 *
 * @example
 * ```ts
 * import { checkText } from "./profile.ts";
 *
 * checkText("  Ada "); // "Ada"
 * checkText("Ada\nBcc: x"); // undefined
 * ```
 */
export function checkText(
  value: unknown,
  maxLength: number = MAX_FIELD_LENGTH.name,
): string | undefined {
  if (typeof value !== "string" || CONTROL.test(value)) return undefined;
  const text = value.trim();
  if (text === "" || text.length > maxLength) return undefined;
  return text;
}

/**
 * Reads an image URL with {@link checkImageURL}.
 *
 * @example
 * ```ts
 * import { readImageURL } from "./profile.ts";
 *
 * readImageURL("https://example.com/a.png"); // "https://example.com/a.png"
 * ```
 */
export function readImageURL(value: unknown): string | undefined {
  return checkImageURL(value);
}

/**
 * Reads a display text with {@link checkText} and the `name` cap.
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
  return checkText(value);
}

/**
 * Reads a subject identifier: a non-blank string of at most 255 characters
 * without control characters, or a safe integer turned into its decimal
 * string. Anything else gives `undefined`.
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
  if (typeof value === "string") {
    if (value.trim() === "" || value.length > MAX_FIELD_LENGTH.sub) return undefined;
    return CONTROL.test(value) ? undefined : value;
  }
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * Reads a provider's yes/no flag: `true` or `"true"` is `true`, `false` or
 * `"false"` is `false` (case-insensitive; Apple and Cognito send strings),
 * anything else `undefined`.
 *
 * @example
 * ```ts
 * import { readFlag } from "./profile.ts";
 *
 * readFlag("false"); // false
 * readFlag(1); // undefined
 * ```
 */
export function readFlag(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  return text === "true" ? true : text === "false" ? false : undefined;
}

/**
 * An email as far as its provider vouches for it: `undefined` when the flag
 * says unverified (`false` or `"false"`), or, with `required`, when it does
 * not say verified; otherwise the address through {@link checkEmail}.
 *
 * @example
 * ```ts
 * import { verifiedEmail } from "./profile.ts";
 *
 * verifiedEmail("ada@example.com", "false"); // undefined
 * verifiedEmail("ada@example.com", undefined); // "ada@example.com"
 * verifiedEmail("ada@example.com", undefined, { required: true }); // undefined
 * ```
 */
export function verifiedEmail(
  email: unknown,
  verified: unknown,
  options: { required?: boolean } = {},
): string | undefined {
  const flag = readFlag(verified);
  if (flag === false || (options.required === true && flag !== true)) return undefined;
  return checkEmail(email);
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

/**
 * Joins two name parts (given and family name) into one display name;
 * `undefined` when neither is usable.
 *
 * @example
 * ```ts
 * import { joinName } from "./profile.ts";
 *
 * joinName("Ada", "Lovelace"); // "Ada Lovelace"
 * joinName(null, "Lovelace"); // "Lovelace"
 * ```
 */
export function joinName(first: unknown, last: unknown): string | undefined {
  const parts = [first, last].filter((part) => checkText(part) !== undefined) as string[];
  return parts.length === 0 ? undefined : checkText(parts.map((part) => part.trim()).join(" "));
}

/** The candidate fields of a `User` before missing ones are dropped. */
export interface UserFields {
  /** The subject identifier, already read with {@link readSubject}. */
  sub: string | undefined;
  /** The display name. */
  name?: string;
  /** The checked email. */
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
      `The ${provider} user-info response has no usable id; expected a non-empty string or an integer.`,
    );
  }
  const user: User = { sub: fields.sub };
  if (fields.name !== undefined) user.name = fields.name;
  if (fields.email !== undefined) user.email = fields.email;
  if (fields.image !== undefined) user.image = fields.image;
  return user;
}

/**
 * Returns `raw` when it is a JSON object, else throws a {@link ProfileError}
 * naming the provider.
 *
 * @example
 * ```ts
 * import { profileObject } from "./profile.ts";
 *
 * profileObject({ id: 1 }, "GitHub"); // { id: 1 }
 * ```
 */
export function profileObject(raw: unknown, provider: string): Record<string, unknown> {
  if (!isRecord(raw)) {
    throw new ProfileError(
      `The ${provider} user-info response is not a JSON object; expected an object.`,
    );
  }
  return raw;
}

/**
 * Picks the address of the first entry of a provider's email list whose
 * `primaryFlag` and `verifiedFlag` are both `true`, through
 * {@link checkEmail}; `undefined` when `list` is not an array or no entry
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
  return isRecord(entry) ? checkEmail(entry.email) : undefined;
}

/**
 * Maps OpenID Connect claims (the ID token's merged with user info):
 * `sub` = `sub`; `name` = `name`, else `given_name` + `family_name`, else
 * `preferred_username`, else `nickname`; `image` = `picture`; `email` =
 * `email` unless `email_verified` is `false` (or `"false"`), and with
 * `requireVerified` only when it is `true` (or `"true"`).
 *
 * @throws {ProfileError} when there is no usable `sub`.
 *
 * @example
 * ```ts
 * import { oidcUser } from "./profile.ts";
 *
 * oidcUser({ sub: "1", email: "ada@example.com", email_verified: true }, "Google", { requireVerified: true });
 * // { sub: "1", email: "ada@example.com" }
 * ```
 */
export function oidcUser(
  claims: Record<string, unknown>,
  provider: string,
  options: { requireVerified?: boolean } = {},
): User {
  const raw = profileObject(claims, provider);
  return buildUser({
    sub: readSubject(raw.sub),
    name: readText(raw.name) ?? joinName(raw.given_name, raw.family_name) ??
      firstOf([raw.preferred_username, raw.nickname], readText),
    email: verifiedEmail(raw.email, raw.email_verified, { required: options.requireVerified }),
    image: readImageURL(raw.picture),
  }, provider);
}

/**
 * The mapping used for providers without a `profile` function: `sub` is the
 * first usable of `sub`, `id` (integers become strings); `name` the first
 * usable of `name`, `login`, `username`; `email` is `email` through
 * {@link checkEmail}, left out when `email_verified` is `false` or
 * `"false"`; `image` the first absolute http(s) URL of `picture`,
 * `avatar_url`, `image`. A candidate of the wrong type, blank, too long or
 * with control characters is skipped; missing optional fields are left out.
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
  const object = profileObject(raw, "provider's");
  return buildUser({
    sub: firstOf([object.sub, object.id], readSubject),
    name: firstOf([object.name, object.login, object.username], readText),
    email: verifiedEmail(object.email, object.email_verified),
    image: firstOf([object.picture, object.avatar_url, object.image], readImageURL),
  }, "provider's");
}
