/**
 * The userinfo endpoint (OpenID Connect Core 5.3, RFC 6750): the claims
 * the access token's scope releases, for a valid `Authorization: Bearer`.
 *
 * @module
 */

import type { MockContext } from "./_state.ts";
import { bearerChallenge, json, methodNotAllowed, type Outcome } from "./responses.ts";
import { userClaims } from "./users.ts";

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** `GET|POST {baseURL}/userinfo`. */
export function userInfo(ctx: MockContext, request: Request): Outcome {
  if (request.method !== "GET" && request.method !== "POST") return methodNotAllowed("GET, POST");
  const header = request.headers.get("authorization");
  if (header === null) return bearerChallenge("A bearer access token is required.", undefined);
  const { settings, state } = ctx;
  const match = BEARER.exec(header);
  const grant = match ? state.accessTokens.get(match[1]) : undefined;
  const user = grant && settings.clock() < grant.expiresAt
    ? settings.users.find((u) => u.sub === grant.sub)
    : undefined;
  if (grant === undefined || user === undefined) {
    return bearerChallenge("The access token is invalid or expired.", "invalid_token");
  }
  const oidc = settings.oidc !== undefined;
  return { response: json(userClaims(user, grant.scope, { oidc })) };
}
