/**
 * Single sign-on as two operations, shared by the routes: start (the
 * organization's connection, its issuer's discovery document and keys,
 * the authorization request and the sealed flow cookies bound to the
 * connection and its issuer) and complete (the flow's connection asked
 * again, its issuer unchanged, then the OAuth completion with this
 * feature's caches: every check of the response before the code is sent).
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { completeOAuthSignIn } from "./oauth_sign_in.ts";
import { defaultTarget } from "./redirects.ts";
import { AuthError } from "../errors.ts";
import type { HttpContext } from "../http_context.ts";
import { createAuthorizationRequest } from "../oauth/authorization_request.ts";
import { withMetadata } from "../oauth/endpoints.ts";
import {
  type FlowValues,
  type OpenedFlow,
  openSingleFlowCookie,
  sealSingleFlowCookie,
} from "../oauth/flow_cookies.ts";
import type { ProviderMetadata } from "../oauth/oidc/discovery.ts";
import type { OIDCInstance } from "../oauth/oidc/kit.ts";
import type { Session } from "../types.ts";
import type { TwoFactorRequired } from "./two_factor.ts";
import { callApp } from "./call_app.ts";
import {
  checkConnection,
  type CheckedConnection,
  connectionProvider,
  ownDomainEmail,
} from "../sso/connection.ts";
import type { SsoQuery } from "../sso/types.ts";

/**
 * Asks `sso.resolve`; `null` when it has no connection. A throwing resolver
 * or an invalid connection is a logged 500 `server_error` (an `AuthError`
 * the resolver throws passes through).
 */
export async function findConnection(
  ctx: AuthContext,
  http: HttpContext,
  query: SsoQuery,
): Promise<CheckedConnection | null> {
  const sso = ctx.sso!;
  const value = await callApp(ctx, "sso.resolve", () => sso.resolve(query, http.request));
  if (value === null || value === undefined) return null;
  try {
    return checkConnection(value);
  } catch (error) {
    ctx.logger.log("error", "sso.resolve returned an invalid connection", {
      description: error instanceof Error ? error.message : "invalid",
    });
    throw new AuthError("server_error", "The server could not complete the request.", {
      status: 500,
    });
  }
}

/** The sealed provider id of a flow: `sso:<id> <issuer>` (an issuer URL has no space). */
function flowProviderId(connection: CheckedConnection): string {
  return `sso:${connection.id} ${connection.issuer}`;
}

function ssoOf(ctx: AuthContext): NonNullable<AuthContext["sso"]> {
  const sso = ctx.sso;
  if (sso === undefined) {
    throw new AuthError("server_error", "Single sign-on is not configured; expected sso.", {
      status: 500,
    });
  }
  return sso;
}

/** The 404 for a question `sso.resolve` has no connection for. */
function noConnection(): AuthError {
  return new AuthError("invalid_request", "There is no single sign-on for this domain.", {
    status: 404,
  });
}

/**
 * The issuer's discovery document, with its key set read: a 502
 * `temporarily_unavailable` when either cannot be had (logged with the
 * connection id); nothing failed is kept, so the next sign-in asks again.
 */
function issuerMetadata(
  ctx: AuthContext,
  oidc: OIDCInstance,
  connection: CheckedConnection,
): ProviderMetadata | Promise<ProviderMetadata> {
  // Warm: both cached and fresh, so nothing to wait for.
  const cached = oidc.discovery.peek?.(connection.issuer);
  if (cached?.jwks_uri !== undefined && oidc.jwks.get(cached.jwks_uri).fresh?.() === true) {
    return cached;
  }
  return loadIssuerMetadata(ctx, oidc, connection);
}

async function loadIssuerMetadata(
  ctx: AuthContext,
  oidc: OIDCInstance,
  connection: CheckedConnection,
): Promise<ProviderMetadata> {
  try {
    const metadata = await oidc.discovery.get(connection.issuer);
    await oidc.jwks.get(metadata.jwks_uri!).load?.();
    return metadata;
  } catch (error) {
    ctx.logger.log("warn", "sso issuer unavailable", {
      connection: connection.id,
      issuer: connection.issuer,
      description: error instanceof AuthError ? error.description : "unreadable",
    });
    throw new AuthError(
      "temporarily_unavailable",
      "The organization's identity provider cannot be reached; expected its discovery document and keys: try again later.",
      { status: 502 },
    );
  }
}

/**
 * Starts a single sign-on: asks `sso.resolve` (404 without a connection),
 * discovers the issuer (cached), seals the flow cookies bound to the
 * connection and its issuer, and returns the URL of the organization's
 * provider. `redirectTo` must already be validated.
 */
export async function startSsoSignIn(
  ctx: AuthContext,
  http: HttpContext,
  options: { query: SsoQuery; redirectTo: string | null },
): Promise<string> {
  const sso = ssoOf(ctx);
  const connection = await findConnection(ctx, http, options.query);
  if (connection === null) throw noConnection();
  const pending = issuerMetadata(ctx, sso.oidc, connection);
  const metadata = pending instanceof Promise ? await pending : pending;
  const provider = withMetadata(connectionProvider(connection, sso.providers), metadata);
  const redirectTo = await defaultTarget(http, options.redirectTo);
  const redirectURI = `${http.origin}${ctx.basePath}/callback/sso`;
  const request = createAuthorizationRequest(provider, { redirectURI });
  const values: FlowValues = {
    state: request.state,
    codeVerifier: request.codeVerifier,
    redirectTo,
    redirectURI,
  };
  if (request.nonce !== undefined) values.nonce = request.nonce;
  // One sealed cookie carries the whole flow, bound to the connection and its issuer.
  http.setCookies.push(
    await sealSingleFlowCookie(ctx.flowJose, http, {
      providerId: flowProviderId(connection),
      values,
      crossSite: connection.responseMode === "form_post",
    }),
  );
  ctx.logger.log("debug", "sso sign-in started", { connection: connection.id });
  return request.url;
}

/** A single sign-on flow read from its cookies: the values and the connection it is bound to. */
export interface SsoFlow {
  /** The flow values. */
  readonly flow: OpenedFlow;
  /** The connection id the flow started with. */
  readonly connectionId: string;
  /** The issuer the flow started with. */
  readonly issuer: string;
}

/** Opens the request's single sign-on flow cookies; `null` when missing, forged or of another flow. */
export async function readSsoFlow(ctx: AuthContext, http: HttpContext): Promise<SsoFlow | null> {
  const opened = await openSingleFlowCookie(
    ctx.flowJose,
    http,
    (id) => id.startsWith("sso:") && id.includes(" "),
  );
  if (opened === null) return null;
  const bound = opened.providerId.slice(4);
  const space = bound.indexOf(" ");
  return {
    flow: opened.flow,
    connectionId: bound.slice(0, space),
    issuer: bound.slice(space + 1),
  };
}

/**
 * Completes a single sign-on whose response answers the flow: asks
 * `sso.resolve({ organization: id })` again (the connection must still
 * exist with the same issuer), then completes the OAuth flow with the
 * feature's caches: `state`, RFC 9207 `iss` (required when the issuer
 * advertises it) before the code is sent, then the ID token, the email
 * kept only for the connection's own domains and when verified, and the
 * session as `<id>:<sub>`.
 */
export async function completeSsoSignIn(
  ctx: AuthContext,
  http: HttpContext,
  callback: { sso: SsoFlow; params: URLSearchParams; formPost: boolean },
): Promise<Session | TwoFactorRequired> {
  const settings = ssoOf(ctx);
  const { flow, connectionId, issuer } = callback.sso;
  const connection = await findConnection(ctx, http, { organization: connectionId });
  if (connection === null || connection.id !== connectionId) {
    throw new AuthError(
      "invalid_request",
      "The organization's single sign-on is gone; expected the connection the sign-in started with.",
    );
  }
  if (connection.issuer !== issuer) {
    throw new AuthError(
      "invalid_request",
      "The organization's issuer changed during the sign-in; expected the issuer it started with: start again.",
    );
  }
  if (callback.formPost && connection.responseMode !== "form_post") {
    throw new AuthError(
      "invalid_request",
      "This organization's callback is a GET; expected a POST only for form_post.",
    );
  }
  const base = settings.oidc;
  const oidc: OIDCInstance = {
    discovery: base.discovery,
    jwks: base.jwks,
    claims: async (provider, input) =>
      ownDomainEmail(await base.claims(provider, input), connection.domains),
  };
  return await completeOAuthSignIn(ctx, http, {
    provider: connectionProvider(connection, settings.providers),
    flow,
    params: callback.params,
    oidc,
  });
}
