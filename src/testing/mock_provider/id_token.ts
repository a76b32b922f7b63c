/**
 * The ID token of an OpenID Connect token response (OpenID Connect Core
 * 2 and 3.1.3.6): a compact JWS over the user's claims for the granted
 * scope plus `iss`, `sub`, `aud`, `exp`, `iat` and the request's `nonce`,
 * after the test knobs had their say.
 *
 * @module
 */

import { signCompactJWS } from "../../jose/jws.ts";
import { applyOverride } from "./_merge.ts";
import type { CodeGrant, MockContext } from "./_state.ts";
import { signingKey } from "./jwks.ts";
import type { OIDCSettings } from "./options.ts";
import type { MockIdTokenContext, MockUser } from "./types.ts";
import { userClaims } from "./users.ts";

/** The signed ID token for a redeemed code; `undefined` when `tamperIdToken` drops it. */
export async function issueIdToken(
  ctx: MockContext,
  issued: { grant: CodeGrant; user: MockUser },
): Promise<string | undefined> {
  const { grant, user } = issued;
  const oidc = ctx.settings.oidc as OIDCSettings;
  const context: MockIdTokenContext = { user, clientId: grant.clientId, scope: grant.scope };
  if (grant.nonce !== undefined) context.nonce = grant.nonce;
  const claims = await applyOverride(idTokenClaims(ctx, issued), {
    override: oidc.idTokenClaims,
    context,
    name: "idTokenClaims",
  });
  const key = await signingKey(ctx);
  const token = await signCompactJWS(JSON.stringify(claims), key.privateKey, {
    alg: oidc.alg,
    typ: "JWT",
    kid: key.kid,
  });
  return oidc.tamperIdToken === undefined ? token : await oidc.tamperIdToken(token, context);
}

/** The claims the mock signs when no hook changes them. */
function idTokenClaims(
  ctx: MockContext,
  issued: { grant: CodeGrant; user: MockUser },
): Record<string, unknown> {
  const { grant, user } = issued;
  const { settings } = ctx;
  const now = settings.clock();
  const ttl = (settings.oidc as OIDCSettings).idTokenTTL;
  const claims: Record<string, unknown> = {
    ...userClaims(user, grant.scope, { oidc: true }),
    iss: settings.issuer,
    sub: user.sub,
    aud: grant.clientId,
    exp: Math.floor((now + ttl * 1000) / 1000),
    iat: Math.floor(now / 1000),
  };
  if (grant.nonce !== undefined) claims.nonce = grant.nonce;
  return claims;
}
