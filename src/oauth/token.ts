/**
 * The authorization-code exchange (RFC 6749 section 4.1.3) with the PKCE
 * verifier, and validation of the token response (section 5.1 / 5.2).
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { isAccessTokenErrorCode } from "../types.ts";
import {
  callProvider,
  parseProviderJSON,
  providerError,
  readProviderText,
} from "./provider_fetch.ts";
import { mediaType } from "../http.ts";
import { requireEndpoint } from "./endpoints.ts";
import type { ResolvedProvider } from "./resolved_provider.ts";
import type { OAuthTokens } from "./types.ts";
import { withProviderHeaders } from "./user_info.ts";
import { clientSecretValue } from "./client_secret.ts";

/** RFC 6749 2.3.1: client id and secret are form-encoded before Basic encoding. */
export function basicCredentials(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  const pair = new TextEncoder().encode(`${encode(id)}:${encode(secret)}`);
  let binary = "";
  for (const byte of pair) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/**
 * A form POST to one of the provider's endpoints with the client's
 * authentication (HTTP Basic by default, the body for `client_secret_post`,
 * the client id alone for `none`): the code exchange, the refresh grant and
 * revocation all send it this way. `what` names the call in errors.
 */
export async function postWithClientAuth(
  fetchFn: typeof fetch,
  provider: ResolvedProvider,
  url: string,
  body: URLSearchParams,
  what: string,
): Promise<Response> {
  const headers = withProviderHeaders(
    new Headers({
      Accept: "application/json",
      "Content-Type": "application/x-www-form-urlencoded",
    }),
    provider.headers,
  );
  if (provider.clientAuthMethod === "none") {
    body.set(provider.clientIdParam, provider.clientId);
  } else if (provider.clientAuthMethod === "client_secret_post") {
    body.set(provider.clientIdParam, provider.clientId);
    body.set("client_secret", await clientSecretValue(provider.clientSecret));
  } else {
    headers.set(
      "Authorization",
      basicCredentials(provider.clientId, await clientSecretValue(provider.clientSecret)),
    );
  }
  return await callProvider(fetchFn, url, { method: "POST", headers, body }, what);
}

/**
 * Exchanges the code for tokens; any failure is an `AuthError` (502 or the
 * provider's code). A client secret given as a function is awaited here;
 * `codeVerifier` is left out for a provider with `pkce: false`.
 */
export async function exchangeCode(
  fetchFn: typeof fetch,
  provider: ResolvedProvider,
  params: { code: string; redirectURI: string; codeVerifier: string },
): Promise<OAuthTokens> {
  const url = requireEndpoint(provider, "accessToken");
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: params.code,
    redirect_uri: params.redirectURI,
  });
  if (provider.pkce) body.set("code_verifier", params.codeVerifier);
  const response = await postWithClientAuth(fetchFn, provider, url, body, "token");
  const text = await readProviderText(response, "token");
  const type = mediaType(response);
  let data: Record<string, unknown>;
  if (type === "application/x-www-form-urlencoded") {
    data = Object.fromEntries(new URLSearchParams(text));
  } else if (type === "application/json" || type.endsWith("+json")) {
    data = parseProviderJSON(text, "token");
  } else {
    throw providerError("The provider's token response is not JSON.");
  }
  if (typeof data.error === "string") {
    const code = isAccessTokenErrorCode(data.error) ? data.error : "server_error";
    throw new AuthError(code, "The provider refused the authorization code.", { status: 502 });
  }
  if (!response.ok) {
    throw providerError(`The provider's token endpoint answered ${response.status}.`);
  }
  return validateTokens(data);
}

/** A token response (section 5.1) checked: a bearer `access_token`, the optional members typed. */
export function validateTokens(data: Record<string, unknown>): OAuthTokens {
  const accessToken = data.access_token;
  if (typeof accessToken !== "string" || accessToken === "" || accessToken.length > 8192) {
    throw providerError("The provider's token response has no access_token.");
  }
  const tokenType = data.token_type ?? "bearer";
  if (typeof tokenType !== "string" || tokenType.toLowerCase() !== "bearer") {
    throw providerError("The provider's token response is not a bearer token.");
  }
  const tokens: OAuthTokens = { access_token: accessToken, token_type: tokenType };
  const expiresIn = typeof data.expires_in === "string" ? Number(data.expires_in) : data.expires_in;
  if (typeof expiresIn === "number" && Number.isFinite(expiresIn)) tokens.expires_in = expiresIn;
  if (typeof data.refresh_token === "string") tokens.refresh_token = data.refresh_token;
  if (typeof data.scope === "string") tokens.scope = data.scope;
  if (typeof data.id_token === "string") tokens.id_token = data.id_token;
  return tokens;
}
