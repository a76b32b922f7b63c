/**
 * The OAuth flow cookies (`state`, `codeVerifier`, `redirectTo`,
 * `redirectURI`): each sealed with the flow key (purpose `oauth-flow`, its
 * own `typ`), bound to the provider id and to one flow id, so that values
 * from two flows or two providers can never be mixed. The OpenID Connect
 * `nonce` rides in the `state` cookie's sealed payload (no cookie of its
 * own: one more cookie would cost a seal and an open per flow). Single
 * sign-on seals its whole flow into the one `state` cookie instead
 * (`sealSingleFlowCookie`): one seal and one open per flow.
 *
 * @module
 */

import type { Jose } from "../../jose.ts";
import { clearCookieLines } from "../cookies/chunks.ts";
import type { CookieAttributes, CookieJar, CookieSpec } from "../cookies/jar.ts";
import { serializeCookie } from "../cookies/serialize.ts";
import { timingSafeEqual } from "../crypto/timing_safe_equal.ts";
import { randomToken } from "./pkce.ts";

/** The values one flow carries from sign-in to callback. */
export interface FlowValues {
  /** The `state` sent to the provider. */
  state: string;
  /** The PKCE verifier. */
  codeVerifier: string;
  /** Where the user lands after the callback (already validated). */
  redirectTo: string;
  /** The `redirect_uri` sent to the provider. */
  redirectURI: string;
  /** The OpenID Connect `nonce` sent, when one was (sealed with `state`). */
  nonce?: string;
  /** A link flow (linked accounts): the `sub` of the session that started it (sealed with `state`). */
  link?: string;
}

/** The values of a flow read back from its cookies, and when the flow expires. */
export interface OpenedFlow extends FlowValues {
  /** The `state` cookie's `exp`, in seconds since the epoch: the flow is refused after it. */
  expiresAt: number;
}

/** The request facts flow cookies are read from and written for. */
export interface FlowCookieScope {
  /** The cookie jar of the request's scheme. */
  readonly jar: CookieJar;
  /** The request's cookies. */
  readonly cookies: ReadonlyMap<string, string>;
  /** Now, in milliseconds. */
  readonly nowMs: number;
}

const FLOW_KEYS = ["state", "codeVerifier", "redirectTo", "redirectURI"] as const;

/** What {@link sealFlowCookies} seals. */
export interface SealedFlow {
  /** The provider the flow was started for. */
  providerId: string;
  /** The values to carry. */
  values: FlowValues;
  /**
   * The provider answers with a cross-site `POST` (`form_post`): the cookies
   * are `SameSite=None` so that the browser sends them with it. Only where
   * they are `Secure` (HTTPS): browsers refuse `SameSite=None` without it.
   */
  crossSite?: boolean;
}

/** The cookie attributes of a flow cookie; `SameSite=None` for a cross-site flow over HTTPS. */
function flowAttributes(spec: CookieSpec, crossSite: boolean): Readonly<CookieAttributes> {
  if (!crossSite || spec.attributes.secure !== true) return spec.attributes;
  return { ...spec.attributes, sameSite: "none" };
}

/** Seals each flow value into its cookie; returns the Set-Cookie lines. */
export async function sealFlowCookies(
  jose: Jose,
  scope: FlowCookieScope,
  flow: SealedFlow,
): Promise<string[]> {
  const id = randomToken(16);
  return await Promise.all(FLOW_KEYS.map(async (key) => {
    const payload: Record<string, string> = {
      v: flow.values[key],
      p: flow.providerId,
      f: id,
      k: key,
    };
    if (key === "state" && flow.values.nonce !== undefined) payload.n = flow.values.nonce;
    if (key === "state" && flow.values.link !== undefined) payload.l = flow.values.link;
    const value = await jose.encodeJWT(payload);
    const spec = scope.jar[key];
    const attributes = flowAttributes(spec, flow.crossSite === true);
    return serializeCookie({ name: spec.name, value, attributes }, scope.nowMs);
  }));
}

/**
 * Opens the flow cookies; `null` when any is missing, unreadable, expired,
 * for another provider, or from another flow.
 */
export async function openFlowCookies(
  jose: Jose,
  scope: FlowCookieScope,
  providerId: string,
): Promise<OpenedFlow | null> {
  const opened = await openFlowCookiesMatching(jose, scope, (p) => p === providerId);
  return opened === null ? null : opened.flow;
}

/**
 * Opens the flow cookies whose sealed provider id `accept` takes (single
 * sign-on binds its connection and issuer there); returns the flow and that
 * id, or `null` as {@link openFlowCookies} does.
 */
export async function openFlowCookiesMatching(
  jose: Jose,
  scope: FlowCookieScope,
  accept: (providerId: string) => boolean,
): Promise<{ flow: OpenedFlow; providerId: string } | null> {
  const opened = await Promise.all(FLOW_KEYS.map(async (key) => {
    const token = scope.cookies.get(scope.jar[key].name);
    if (!token) return null;
    try {
      const payload = await jose.decodeJWT(token);
      const ok = typeof payload.v === "string" && typeof payload.p === "string" &&
        accept(payload.p) && payload.k === key &&
        typeof payload.f === "string" &&
        (payload.n === undefined || typeof payload.n === "string") &&
        (payload.l === undefined || typeof payload.l === "string");
      if (!ok) return null;
      return {
        value: payload.v as string,
        provider: payload.p as string,
        flow: payload.f as string,
        nonce: payload.n as string | undefined,
        link: payload.l as string | undefined,
        exp: payload.exp,
      };
    } catch {
      return null;
    }
  }));
  const [state, verifier, redirectTo, redirectURI] = opened;
  if (state === null || verifier === null || redirectTo === null || redirectURI === null) {
    return null;
  }
  const flow = state.flow;
  if (verifier.flow !== flow || redirectTo.flow !== flow || redirectURI.flow !== flow) return null;
  const provider = state.provider;
  if (
    verifier.provider !== provider || redirectTo.provider !== provider ||
    redirectURI.provider !== provider
  ) return null;
  // The flow key always writes exp; its end bounds how long the state must stay single-use.
  if (typeof state.exp !== "number") return null;
  const values: OpenedFlow = {
    expiresAt: state.exp,
    state: state.value,
    codeVerifier: verifier.value,
    redirectTo: redirectTo.value,
    redirectURI: redirectURI.value,
  };
  if (state.nonce !== undefined) values.nonce = state.nonce;
  if (state.link !== undefined) values.link = state.link;
  return { flow: values, providerId: provider };
}

/**
 * Whether an authorization response answers this flow: it carries the
 * flow's `state` exactly once (compared in constant time). Only such a
 * response may end the flow (clear its cookies, use up its state): any site
 * can send a browser to the callback with a state of its own.
 */
export function answersFlow(params: URLSearchParams, flow: FlowValues): boolean {
  const states = params.getAll("state");
  return states.length === 1 && timingSafeEqual(states[0], flow.state);
}

/** Set-Cookie lines that remove every flow cookie. */
export function clearFlowCookieLines(scope: FlowCookieScope): string[] {
  return FLOW_KEYS.flatMap((key) => clearCookieLines(scope.jar[key], scope.cookies));
}

/**
 * Seals a whole flow into the one `state` cookie (single sign-on: one seal
 * instead of four); `k` is `"flow"`, so {@link openFlowCookies} never reads
 * it as a `state` cookie, nor {@link openSingleFlowCookie} a `state` cookie
 * as a flow. Returns the Set-Cookie line.
 */
export async function sealSingleFlowCookie(
  jose: Jose,
  scope: FlowCookieScope,
  flow: SealedFlow,
): Promise<string> {
  const { values } = flow;
  const payload: Record<string, string> = {
    p: flow.providerId,
    k: "flow",
    v: values.state,
    c: values.codeVerifier,
    r: values.redirectTo,
    u: values.redirectURI,
  };
  if (values.nonce !== undefined) payload.n = values.nonce;
  const spec = scope.jar.state;
  const value = await jose.encodeJWT(payload);
  const attributes = flowAttributes(spec, flow.crossSite === true);
  return serializeCookie({ name: spec.name, value, attributes }, scope.nowMs);
}

/**
 * Opens a flow sealed by {@link sealSingleFlowCookie} whose provider id
 * `accept` takes; `null` when missing, unreadable, expired or not such a flow.
 */
export async function openSingleFlowCookie(
  jose: Jose,
  scope: FlowCookieScope,
  accept: (providerId: string) => boolean,
): Promise<{ flow: OpenedFlow; providerId: string } | null> {
  const token = scope.cookies.get(scope.jar.state.name);
  if (!token) return null;
  let payload: Record<string, unknown>;
  try {
    payload = await jose.decodeJWT(token);
  } catch {
    return null;
  }
  const { p, k, v, c, r, u, n, exp } = payload;
  if (
    k !== "flow" || typeof p !== "string" || !accept(p) || typeof v !== "string" ||
    typeof c !== "string" || typeof r !== "string" || typeof u !== "string" ||
    (n !== undefined && typeof n !== "string") || typeof exp !== "number"
  ) return null;
  const flow: OpenedFlow = {
    expiresAt: exp,
    state: v,
    codeVerifier: c,
    redirectTo: r,
    redirectURI: u,
  };
  if (typeof n === "string") flow.nonce = n;
  return { flow, providerId: p };
}
