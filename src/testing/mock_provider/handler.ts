/**
 * The mock's one route table and request handler: finds the endpoint,
 * turns any failure into an RFC 6749 error response, and logs the request
 * with its secrets redacted.
 *
 * @module
 */

import { AuthError } from "../../errors.ts";
import type { MockContext } from "./_state.ts";
import { authorize } from "./authorize.ts";
import { discovery } from "./discovery.ts";
import { jwks } from "./jwks.ts";
import type { MockSettings } from "./options.ts";
import { failed, type Outcome } from "./responses.ts";
import { token } from "./token.ts";
import type { MockEndpoint, MockRequestRecord } from "./types.ts";
import { userInfo } from "./user_info.ts";

const REDACTED = "[redacted]";
const SECRET_PARAMS = new Set(["client_secret", "code", "code_verifier", "refresh_token"]);

/** Answers one request and appends it to the request log; never throws. */
export async function handleRequest(ctx: MockContext, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const endpoint = endpointOf(ctx.settings, url);
  let outcome: Outcome;
  try {
    outcome = await route(ctx, { endpoint, request });
  } catch (error) {
    outcome = failed(
      error instanceof AuthError
        ? error
        : new AuthError("server_error", "The mock provider failed unexpectedly.", { status: 500 }),
    );
  }
  ctx.state.requests.push(record({ request, url, endpoint }, outcome));
  return outcome.response;
}

function route(
  ctx: MockContext,
  input: { endpoint: MockEndpoint; request: Request },
): Outcome | Promise<Outcome> {
  const { endpoint, request } = input;
  switch (endpoint) {
    case "authorize":
      return authorize(ctx, request);
    case "token":
      return token(ctx, request);
    case "userinfo":
      return userInfo(ctx, request);
    case "discovery":
      return discovery(ctx, request);
    case "jwks":
      return jwks(ctx, request);
    case "unknown":
      return failed(
        new AuthError("invalid_request", "No such endpoint on this server.", { status: 404 }),
      );
  }
}

/** The endpoint a URL names; the OpenID Connect ones exist only with `oidc`. */
function endpointOf(settings: MockSettings, url: URL): MockEndpoint {
  if (url.origin !== settings.base.origin) return "unknown";
  const path = url.pathname;
  const base = settings.basePath;
  if (path === `${base}/authorize`) return "authorize";
  if (path === `${base}/token`) return "token";
  if (path === `${base}/userinfo`) return "userinfo";
  if (settings.oidc === undefined) return "unknown";
  if (path === `${base}/.well-known/openid-configuration`) return "discovery";
  if (path === `${base}/jwks`) return "jwks";
  return "unknown";
}

/** The log entry of a request, secrets redacted. */
function record(
  input: { request: Request; url: URL; endpoint: MockEndpoint },
  outcome: Outcome,
): MockRequestRecord {
  const { request, url, endpoint } = input;
  const entry: MockRequestRecord = {
    endpoint,
    method: request.method,
    url: `${url.origin}${url.pathname}`,
    status: outcome.response.status,
    params: {},
  };
  if (outcome.error !== undefined) entry.error = outcome.error;
  if (outcome.clientAuthMethod !== undefined) entry.clientAuthMethod = outcome.clientAuthMethod;
  for (const [name, value] of outcome.params ?? []) {
    entry.params[name] = SECRET_PARAMS.has(name) ? REDACTED : value;
  }
  return entry;
}
