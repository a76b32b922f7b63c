/**
 * The authorization endpoint (RFC 6749 section 4.1.1 with PKCE `S256`, RFC
 * 7636): checks the request, decides (or shows the consent page) and
 * redirects back with a code or an error. Requests whose client or redirect
 * URI cannot be trusted get a 400 page, never a redirect.
 *
 * @module
 */

import { quotedName } from "../../http.ts";
import { randomToken } from "../../oauth/pkce.ts";
import type { MockContext } from "./_state.ts";
import { consentDecision, consentOutcome } from "./consent.ts";
import type { MockSettings } from "./options.ts";
import { errorPage, formPostPage } from "./pages.ts";
import { firstDuplicate, methodNotAllowed, type Outcome, readForm } from "./responses.ts";
import type { MockDecision } from "./types.ts";
import { findUser } from "./users.ts";

const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;

/** A request from a trusted client: where its answer goes, and its parameters for the log. */
interface ReturnTo {
  redirectURI: string;
  state: string;
  /** A POSTed consent form is answered with 303, a GET with 302. */
  afterPost: boolean;
  /** `response_mode=form_post`: answered with a page that posts the response to the client. */
  formPost: boolean;
  params: URLSearchParams;
}

/** A checked authorization request. */
interface CheckedRequest {
  scope: string;
  challenge: string;
  nonce: string | undefined;
  loginHint: string | undefined;
}

/** Why a trusted request is refused: an RFC 6749 4.1.2.1 error. */
interface Refusal {
  error: string;
  description: string;
}

/** `GET` (and, interactive, `POST`) `{baseURL}/authorize`. */
export async function authorize(ctx: MockContext, request: Request): Promise<Outcome> {
  const { interactive } = ctx.settings;
  const afterPost = request.method === "POST";
  if (request.method !== "GET" && !(afterPost && interactive)) {
    return methodNotAllowed(interactive ? "GET, POST" : "GET");
  }
  const params = afterPost ? await readForm(request) : new URL(request.url).searchParams;
  if (params === undefined) {
    return untrusted("The consent form must be form-encoded, at most 64 KiB.", undefined);
  }
  const distrust = checkClient(ctx.settings, params);
  if (distrust !== undefined) return untrusted(distrust, params);

  // From here on the redirect URI is trusted: errors go back to the client.
  const redirectURI = params.get("redirect_uri")!;
  const to: ReturnTo = {
    redirectURI,
    state: params.get("state") ?? "",
    afterPost,
    formPost: params.get("response_mode") === "form_post",
    params,
  };
  const checked = checkRequest(ctx.settings, params);
  if ("error" in checked) return refuse(ctx.settings, to, checked);
  if (interactive && !afterPost) return consentOutcome(ctx, params, checked);
  const decision = interactive
    ? consentDecision(params)
    : await decideByOption(ctx.settings, { ...checked, redirectURI, state: to.state, request });
  if (decision === undefined) {
    const description = "The consent form needs decision=approve or deny.";
    return refuse(ctx.settings, to, { error: "invalid_request", description });
  }
  return answer(ctx, { to, checked, decision });
}

function untrusted(description: string, params: URLSearchParams | undefined): Outcome {
  return { response: errorPage("invalid_request", description), error: "invalid_request", params };
}

/** Why the client or its redirect URI cannot be trusted, if so. */
function checkClient(settings: MockSettings, params: URLSearchParams): string | undefined {
  if (params.getAll("client_id").length > 1 || params.getAll("redirect_uri").length > 1) {
    return "client_id and redirect_uri must each be sent once.";
  }
  if (params.get("client_id") !== settings.clientId) {
    return "Unknown or missing client_id: expected the registered client.";
  }
  const value = params.get("redirect_uri") ?? "";
  if (value === "") return "redirect_uri is required.";
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return "redirect_uri must be an absolute URI.";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return "redirect_uri must use http or https.";
  }
  if (value.includes("#")) return "redirect_uri must not contain a fragment.";
  if (settings.redirectURIs !== undefined && !settings.redirectURIs.includes(value)) {
    return "redirect_uri is not registered for this client.";
  }
  return undefined;
}

/** Checks the parameters of a request from a trusted client; the granted scope. */
function checkRequest(settings: MockSettings, params: URLSearchParams): CheckedRequest | Refusal {
  const refusal = (error: string, description: string): Refusal => ({ error, description });
  const duplicate = firstDuplicate(params);
  if (duplicate !== undefined) {
    return refusal(
      "invalid_request",
      `The parameter ${quotedName(duplicate)}is repeated; expected it once.`,
    );
  }
  const responseType = params.get("response_type") ?? "";
  if (responseType === "") return refusal("invalid_request", "response_type is required.");
  if (responseType !== "code") {
    return refusal("unsupported_response_type", "Only response_type=code is supported.");
  }
  const responseMode = params.get("response_mode");
  if (responseMode !== null && responseMode !== "query" && responseMode !== "form_post") {
    return refusal("invalid_request", "response_mode must be query or form_post.");
  }
  if (!params.get("state")) return refusal("invalid_request", "state is required.");
  const challenge = params.get("code_challenge") ?? "";
  if (challenge === "") return refusal("invalid_request", "code_challenge (PKCE) is required.");
  if (params.get("code_challenge_method") !== "S256") {
    return refusal("invalid_request", "code_challenge_method must be S256; plain is refused.");
  }
  if (!CODE_CHALLENGE.test(challenge)) {
    return refusal("invalid_request", "code_challenge must be 43-128 base64url characters.");
  }
  const requested = (params.get("scope") ?? "").split(" ").filter((s) => s !== "");
  const unknown = requested.find((s) => !settings.knownScopes.has(s));
  if (unknown !== undefined) {
    return refusal(
      "invalid_scope",
      `The scope ${quotedName(unknown)}is unknown; expected some of "${
        [...settings.knownScopes].join(" ")
      }".`,
    );
  }
  return {
    scope: (requested.length > 0 ? requested : [...settings.knownScopes]).join(" "),
    challenge,
    nonce: params.get("nonce") || undefined,
    loginHint: params.get("login_hint") ?? undefined,
  };
}

/** The `decide` option's answer; an invalid one is a bug in the test, so it throws. */
async function decideByOption(
  settings: MockSettings,
  input: CheckedRequest & { redirectURI: string; state: string; request: Request },
): Promise<MockDecision> {
  const { redirectURI, scope, state, loginHint, request } = input;
  const context = { clientId: settings.clientId, redirectURI, scope, state, loginHint, request };
  const decision = typeof settings.decide === "function"
    ? await settings.decide(context)
    : settings.decide;
  if (!isDecision(decision)) {
    throw new TypeError(
      'The decide option gave an invalid decision: expected "approve", "deny" or { user }.',
    );
  }
  return decision;
}

function isDecision(value: unknown): value is MockDecision {
  return value === "approve" || value === "deny" ||
    (typeof value === "object" && value !== null &&
      typeof (value as { user?: unknown }).user === "string");
}

/** Redirects back with a fresh code for the decided user, or with `access_denied`. */
function answer(
  ctx: MockContext,
  input: { to: ReturnTo; checked: CheckedRequest; decision: MockDecision },
): Outcome {
  const { to, checked, decision } = input;
  const { settings } = ctx;
  if (decision === "deny") {
    const description = "The user denied the request.";
    return refuse(settings, to, { error: "access_denied", description });
  }
  const key = typeof decision === "object" ? decision.user : checked.loginHint;
  const user = key === undefined ? settings.users[0] : findUser(settings.users, key);
  if (user === undefined) {
    const description = key === undefined
      ? "There is no user to sign in."
      : "No user matches the login hint.";
    return refuse(settings, to, { error: "access_denied", description });
  }
  const code = randomToken();
  ctx.state.codes.set(code, {
    clientId: settings.clientId,
    redirectURI: to.redirectURI,
    codeChallenge: checked.challenge,
    scope: checked.scope,
    sub: user.sub,
    nonce: checked.nonce,
    expiresAt: settings.clock() + settings.codeTTL * 1000,
    used: false,
    revoked: false,
    accessTokens: [],
  });
  return { response: redirectBack(settings, to, { code, state: to.state }), params: to.params };
}

/** Redirects back with the refusal's error. */
function refuse(settings: MockSettings, to: ReturnTo, refusal: Refusal): Outcome {
  const values = { error: refusal.error, error_description: refusal.description, state: to.state };
  return { response: redirectBack(settings, to, values), error: refusal.error, params: to.params };
}

/**
 * The answer to the client with `values` (empty ones left out) and, by
 * default, `iss`: a redirect, or for `form_post` a page that posts them.
 */
function redirectBack(
  settings: MockSettings,
  to: ReturnTo,
  values: Record<string, string>,
): Response {
  const fields = Object.entries(values).filter(([, value]) => value !== "");
  if (settings.issueIss) fields.push(["iss", settings.issuer]);
  if (to.formPost) return formPostPage(to.redirectURI, fields);
  const location = new URL(to.redirectURI);
  for (const [name, value] of fields) location.searchParams.set(name, value);
  return new Response(null, {
    status: to.afterPost ? 303 : 302,
    headers: { Location: location.href, "Cache-Control": "no-store" },
  });
}
