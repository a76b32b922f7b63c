/**
 * What an OpenID Connect sign-in hands the profile mapper: the ID token's
 * claims merged with the user-info response, without the protocol claims,
 * and with `email` and `email_verified` always from the same source.
 *
 * @module
 */

/**
 * Claims about the token rather than the user (OpenID Connect Core 2,
 * RFC 7519 4.1): they are checked by ID-token validation and never reach a
 * profile mapper, so that a mapper cannot mistake `aud` or `sid` for user
 * data.
 *
 * @example
 * ```ts
 * import { PROTOCOL_CLAIMS } from "./claims.ts";
 *
 * PROTOCOL_CLAIMS.has("nonce"); // true
 * ```
 */
export const PROTOCOL_CLAIMS: ReadonlySet<string> = new Set([
  "iss",
  "aud",
  "exp",
  "iat",
  "nbf",
  "nonce",
  "azp",
  "at_hash",
  "c_hash",
  "auth_time",
  "acr",
  "amr",
  "sid",
  "jti",
]);

/**
 * Entries of `claims` other than the protocol claims and `skip`; a
 * `__proto__` member is dropped too, so that no mapper that copies the
 * object with `Object.assign` can set a prototype from it.
 */
function userEntries(
  claims: Readonly<Record<string, unknown>>,
  skip: ReadonlySet<string>,
): [string, unknown][] {
  return Object.entries(claims).filter(([name]) =>
    !PROTOCOL_CLAIMS.has(name) && !skip.has(name) && name !== "__proto__"
  );
}

const EMAIL_CLAIMS: ReadonlySet<string> = new Set(["email", "email_verified"]);
const NOT_FROM_USER_INFO: ReadonlySet<string> = new Set(["sub", "email", "email_verified"]);

/**
 * The profile object of an OpenID Connect sign-in: the validated ID token's
 * claims, overlaid with the user-info response's (whose `sub` was checked to
 * be the same), minus {@link PROTOCOL_CLAIMS}. `email` and `email_verified`
 * come together from one source: the user-info response when it has an
 * `email`, else the ID token. So a user-info address is never vouched for
 * by the ID token's `email_verified` (it may name another address).
 *
 * @example
 * ```ts
 * import { profileClaims } from "./claims.ts";
 *
 * profileClaims(
 *   { iss: "https://id.example", sub: "1", aud: "app", email: "old@example.com", email_verified: true },
 *   { sub: "1", email: "new@example.com", name: "Ada" },
 * );
 * // { sub: "1", name: "Ada", email: "new@example.com" }
 * ```
 */
export function profileClaims(
  idToken: Readonly<Record<string, unknown>>,
  userInfo?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const entries = userEntries(idToken, EMAIL_CLAIMS);
  if (userInfo !== undefined) entries.push(...userEntries(userInfo, NOT_FROM_USER_INFO));
  const emailSource = userInfo !== undefined && userInfo.email !== undefined ? userInfo : idToken;
  for (const name of EMAIL_CLAIMS) {
    if (emailSource[name] !== undefined) entries.push([name, emailSource[name]]);
  }
  return Object.fromEntries(entries);
}
