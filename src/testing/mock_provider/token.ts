/**
 * The token endpoint (RFC 6749 section 4.1.3, RFC 7636 section 4.6): a
 * form-encoded `POST`, one client authentication, and a known, unexpired,
 * unused code whose PKCE challenge the verifier matches. Reusing a code
 * revokes the tokens it gave (RFC 6749 section 10.5).
 *
 * @module
 */

import { AuthError } from "../../errors.ts";
import { quotedName } from "../../http.ts";
import { codeChallengeS256, randomToken } from "../../oauth/pkce.ts";
import { timingSafeEqual } from "../../crypto/timing_safe_equal.ts";
import type { CodeGrant, MockContext } from "./_state.ts";
import { authenticateClient, usedClientAuth } from "./client_auth.ts";
import { issueIdToken } from "./id_token.ts";
import {
  failed,
  firstDuplicate,
  json,
  methodNotAllowed,
  type Outcome,
  readForm,
} from "./responses.ts";

const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** `POST {baseURL}/token`. */
export async function token(ctx: MockContext, request: Request): Promise<Outcome> {
  if (request.method !== "POST") return methodNotAllowed("POST");
  if (new URL(request.url).search !== "") {
    throw new AuthError("invalid_request", "Token parameters must be in the body, not the URL.");
  }
  const params = await readForm(request);
  if (params === undefined) {
    throw new AuthError(
      "invalid_request",
      "The token request must be application/x-www-form-urlencoded, at most 64 KiB.",
    );
  }
  const header = request.headers.get("authorization");
  const used = usedClientAuth(header, params);
  try {
    const duplicate = firstDuplicate(params);
    if (duplicate !== undefined) {
      throw new AuthError(
        "invalid_request",
        `The parameter ${quotedName(duplicate)}is repeated; expected it once.`,
      );
    }
    authenticateClient(ctx.settings, { used, header, params });
    const grant = takeGrant(ctx, params);
    checkVerifier(grant, params);
    return { response: json(await issueTokens(ctx, grant)), clientAuthMethod: used, params };
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return { ...failed(error), clientAuthMethod: used, params };
  }
}

/** The grant of the request's code, consumed; a replayed code revokes what it gave. */
function takeGrant(ctx: MockContext, params: URLSearchParams): CodeGrant {
  const grantType = params.get("grant_type") ?? "";
  if (grantType === "") throw new AuthError("invalid_request", "grant_type is required.");
  if (grantType !== "authorization_code") {
    throw new AuthError("unsupported_grant_type", "Only authorization_code is supported.");
  }
  const code = params.get("code") ?? "";
  if (code === "") throw new AuthError("invalid_request", "code is required.");
  const grant = ctx.state.codes.get(code);
  if (grant === undefined || grant.clientId !== ctx.settings.clientId) {
    throw new AuthError("invalid_grant", "The authorization code is unknown.");
  }
  if (grant.used) {
    grant.revoked = true;
    for (const accessToken of grant.accessTokens) ctx.state.accessTokens.delete(accessToken);
    throw new AuthError("invalid_grant", "The authorization code was already used.");
  }
  // Marked before any await, so a concurrent second redemption sees it.
  grant.used = true;
  if (ctx.settings.clock() >= grant.expiresAt) {
    throw new AuthError("invalid_grant", "The authorization code has expired.");
  }
  const redirectURI = params.get("redirect_uri") ?? "";
  if (redirectURI === "") throw new AuthError("invalid_request", "redirect_uri is required.");
  if (redirectURI !== grant.redirectURI) {
    throw new AuthError("invalid_grant", "redirect_uri differs from the authorization request.");
  }
  return grant;
}

/** Throws unless the `code_verifier` matches the grant's `S256` challenge. */
function checkVerifier(grant: CodeGrant, params: URLSearchParams): void {
  const verifier = params.get("code_verifier") ?? "";
  if (verifier === "") throw new AuthError("invalid_request", "code_verifier is required.");
  if (!CODE_VERIFIER.test(verifier)) {
    throw new AuthError("invalid_grant", "code_verifier must be 43-128 unreserved characters.");
  }
  if (!timingSafeEqual(codeChallengeS256(verifier), grant.codeChallenge)) {
    throw new AuthError("invalid_grant", "code_verifier does not match the code_challenge.");
  }
}

/** The token response: an access token and, for an `openid` scope in OIDC mode, an ID token. */
async function issueTokens(ctx: MockContext, grant: CodeGrant): Promise<Record<string, unknown>> {
  const { settings, state } = ctx;
  let idToken: string | undefined;
  if (settings.oidc !== undefined && grant.scope.split(" ").includes("openid")) {
    const user = settings.users.find((u) => u.sub === grant.sub);
    if (user === undefined) {
      throw new AuthError("invalid_grant", "The user of the authorization code is gone.");
    }
    idToken = await issueIdToken(ctx, { grant, user });
  }
  // Checked after the last await: a replay meanwhile revoked this code's tokens.
  if (grant.revoked) {
    throw new AuthError("invalid_grant", "The authorization code was already used.");
  }
  const accessToken = randomToken();
  state.accessTokens.set(accessToken, {
    sub: grant.sub,
    scope: grant.scope,
    expiresAt: settings.clock() + settings.accessTokenTTL * 1000,
  });
  grant.accessTokens.push(accessToken);
  const body: Record<string, unknown> = {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: settings.accessTokenTTL,
    scope: grant.scope,
  };
  if (idToken !== undefined) body.id_token = idToken;
  return body;
}
