/**
 * The rules every user field obeys on every way into a session (sign-in,
 * sign-up, OAuth callback, session updates): `email` is one plain address
 * that NFKC normalisation would not change, `image` an absolute http(s) URL,
 * no string carries control characters, every string is capped in length.
 *
 * @module
 */

/** Longest accepted value of each default field, in UTF-16 code units. */
export const USER_FIELD_LIMITS: Readonly<Record<"sub" | "name" | "email" | "image", number>> =
  Object
    .freeze({ sub: 255, name: 256, email: 254, image: 2048 });

/** Longest accepted string in any other user field. */
export const MAX_USER_STRING = 8192;

// RFC 5322 specials, quotes, whitespace, control and format (bidi, zero-width) characters.
const EMAIL_FORBIDDEN = /[\s\p{Cc}\p{Cf}\p{Z}"(),:;<>[\\\]`]/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
/** C0 and C1 controls, DEL and the Unicode line and paragraph separators. */
// deno-lint-ignore no-control-regex
export const CONTROL: RegExp = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Whether a value is one plain email address: exactly one `@`, no list, no
 * display name, no quotes, whitespace or control characters, a dotted
 * domain, and unchanged by NFKC normalisation (`ｂoss@x.example` and
 * `boss＠x.example` are refused, never folded onto `boss@x.example`).
 *
 * @example
 * ```ts
 * import { isPlainEmail } from "./user_fields.ts";
 * isPlainEmail("ada@example.com"); // true
 * isPlainEmail("a@x.example,b@y.example"); // false
 * isPlainEmail("ｂoss@corp.example"); // false
 * ```
 */
export function isPlainEmail(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0) return false;
  if (value.length > USER_FIELD_LIMITS.email || value.normalize("NFKC") !== value) return false;
  if (EMAIL_FORBIDDEN.test(value)) return false;
  const at = value.indexOf("@");
  if (at <= 0 || at !== value.lastIndexOf("@")) return false;
  const local = value.slice(0, at);
  if (local.length > 64 || local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return false;
  }
  const labels = value.slice(at + 1).split(".");
  return labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label));
}

/**
 * An image URL in its parsed form when it is an absolute `https:` or
 * `http:` URL without credentials within the length cap; else `undefined`.
 *
 * @example
 * ```ts
 * import { imageURL } from "./user_fields.ts";
 * imageURL("https://example.com/a.png"); // "https://example.com/a.png"
 * imageURL("javascript:alert(1)"); // undefined
 * ```
 */
export function imageURL(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "" || CONTROL.test(value)) return undefined;
  if (value.length > USER_FIELD_LIMITS.image || value !== value.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (url.username !== "" || url.password !== "") return undefined;
  return url.href.length > USER_FIELD_LIMITS.image ? undefined : url.href;
}

/** A field that breaks a rule, and what was expected of it. */
export interface FieldProblem {
  /** The field's name (a user object's own key). */
  readonly field: string;
  /** What the field must be, for the error description. */
  readonly expected: string;
}

/**
 * The first field of a user that breaks a rule, or `undefined`. `image` is
 * returned normalised by the caller through {@link imageURL}.
 *
 * @example
 * ```ts
 * import { userFieldProblem } from "./user_fields.ts";
 * userFieldProblem({ sub: "1", image: "javascript:alert(1)" })?.field; // "image"
 * ```
 */
export function userFieldProblem(
  user: Readonly<Record<string, unknown>>,
): FieldProblem | undefined {
  for (const [field, value] of Object.entries(user)) {
    const problem = fieldProblem(field, value);
    if (problem !== undefined) return { field, expected: problem };
  }
  return undefined;
}

function fieldProblem(field: string, value: unknown): string | undefined {
  if (field === "email") {
    return isPlainEmail(value) ? undefined : "one plain email address";
  }
  if (field === "image") {
    return imageURL(value) !== undefined ? undefined : "an absolute https: or http: URL";
  }
  const limit = field === "sub" || field === "name" ? USER_FIELD_LIMITS[field] : MAX_USER_STRING;
  return stringProblem(value, limit);
}

function stringProblem(value: unknown, limit: number): string | undefined {
  if (typeof value === "string") {
    if (value.length > limit) return `a string of at most ${limit} characters`;
    if (CONTROL.test(value)) return "a string without control characters";
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = stringProblem(item, limit);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) {
      const problem = stringProblem(item, limit);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
