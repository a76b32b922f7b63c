/**
 * The mock's accounts: finding one, labelling it on the consent page, and
 * the claims a granted scope releases.
 *
 * @module
 */

import type { MockUser } from "./types.ts";

/** Claims the `email` scope releases (OpenID Connect Core 5.4); `profile` releases the rest. */
const EMAIL_CLAIMS = new Set(["email", "email_verified"]);

/** The user whose `sub`, else whose email, is `key`. */
export function findUser(users: readonly MockUser[], key: string): MockUser | undefined {
  return users.find((u) => u.sub === key) ?? users.find((u) => u.email === key);
}

/** `Name <email>` for the consent page's account list. */
export function accountLabel(user: MockUser): string {
  const name = typeof user.name === "string" ? user.name : user.sub;
  return typeof user.email === "string" ? `${name} <${user.email}>` : name;
}

/**
 * The user's claims that `scope` releases, `sub` always. With `oidc`, an
 * email the user does not say is unverified gets `email_verified: true`.
 */
export function userClaims(
  user: MockUser,
  scope: string,
  options: { oidc: boolean },
): Record<string, unknown> {
  const scopes = new Set(scope.split(" "));
  const claims: Record<string, unknown> = { sub: user.sub };
  for (const [name, value] of Object.entries(user)) {
    if (name === "sub") continue;
    if (scopes.has(EMAIL_CLAIMS.has(name) ? "email" : "profile")) claims[name] = value;
  }
  if (options.oidc && claims.email !== undefined && claims.email_verified === undefined) {
    claims.email_verified = true;
  }
  return claims;
}
