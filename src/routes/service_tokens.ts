/**
 * The service token and API key routes: `GET /jwks`, `POST /apiKeys`,
 * `GET /apiKeys`, `DELETE /apiKeys/:id`.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { guardSessionMutation } from "../core/guard.ts";
import { readSession } from "../core/session.ts";
import { createApiKey, deleteApiKey, jwksText, listApiKeys } from "../core/service_tokens.ts";
import { AuthError } from "../errors.ts";
import { emptyResponse, jsonResponse } from "../http.ts";
import type { HttpContext } from "../http_context.ts";
import { onlyKeys } from "./_body.ts";

/**
 * `GET /jwks`: `{ keys }`, the public keys of every configured signing key
 * pair, cacheable by anyone for 5 minutes, never with a cookie; 404 without
 * asymmetric keys.
 */
export async function jwksRoute(ctx: AuthContext, _http: HttpContext): Promise<Response> {
  const text = await jwksText(ctx);
  if (text === null) {
    throw new AuthError(
      "invalid_request",
      "This service has no asymmetric signing keys to publish; expected serviceTokens: { keys } in createAuth.",
      { status: 404 },
    );
  }
  // Built here, not from the request's collected headers: a public, cached answer carries no cookie.
  return new Response(text, {
    status: 200,
    headers: {
      "Content-Type": "application/jwk-set+json",
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** `POST /apiKeys` `{ name, scopes?, expiresIn? }` (session, CSRF): 201 `{ key, apiKey }`. */
export async function createApiKeyRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const { session, body } = await guardSessionMutation(ctx, http);
  const read = await body();
  onlyKeys(read, ["name", "scopes", "expiresIn"]);
  return jsonResponse(http, await createApiKey(ctx, session.payload.sub, read), 201);
}

/** `GET /apiKeys` (session): 200 `{ apiKeys }`, the user's own. */
export async function listApiKeysRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const session = await readSession(ctx, http);
  if (session === null) {
    throw new AuthError("invalid_session_token", "There is no valid session; sign in first.");
  }
  return jsonResponse(http, { apiKeys: await listApiKeys(ctx, session.payload.sub) }, 200);
}

/** `DELETE /apiKeys/:id` (session, CSRF): 204 for one's own, 404 otherwise. */
export async function deleteApiKeyRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { readonly id: string },
): Promise<Response> {
  const { session } = await guardSessionMutation(ctx, http);
  if (!(await deleteApiKey(ctx, session.payload.sub, params.id))) {
    throw new AuthError("invalid_request", "There is no such API key; expected one of yours.", {
      status: 404,
    });
  }
  return emptyResponse(http, 204);
}
