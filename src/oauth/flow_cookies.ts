/**
 * The OAuth flow cookies (`state`, `codeVerifier`, `redirectTo`,
 * `redirectURI`): each sealed with the flow key (purpose `oauth-flow`, its
 * own `typ`), bound to the provider id and to one flow id, so that values
 * from two flows or two providers can never be mixed.
 *
 * @module
 */

import type { Jose } from "../../jose.ts";
import { clearCookieLines } from "../cookies/chunks.ts";
import type { CookieJar } from "../cookies/jar.ts";
import { serializeCookie } from "../cookies/serialize.ts";
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

/** Seals each flow value into its cookie; returns the Set-Cookie lines. */
export async function sealFlowCookies(
  jose: Jose,
  scope: FlowCookieScope,
  flow: { providerId: string; values: FlowValues },
): Promise<string[]> {
  const id = randomToken(16);
  return await Promise.all(FLOW_KEYS.map(async (key) => {
    const value = await jose.encodeJWT({ v: flow.values[key], p: flow.providerId, f: id, k: key });
    const spec = scope.jar[key];
    return serializeCookie({ name: spec.name, value, attributes: spec.attributes }, scope.nowMs);
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
): Promise<FlowValues | null> {
  const opened = await Promise.all(FLOW_KEYS.map(async (key) => {
    const token = scope.cookies.get(scope.jar[key].name);
    if (!token) return null;
    try {
      const payload = await jose.decodeJWT(token);
      const ok = typeof payload.v === "string" && payload.p === providerId && payload.k === key &&
        typeof payload.f === "string";
      return ok ? { value: payload.v as string, flow: payload.f as string } : null;
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
  return {
    state: state.value,
    codeVerifier: verifier.value,
    redirectTo: redirectTo.value,
    redirectURI: redirectURI.value,
  };
}

/** Set-Cookie lines that remove every flow cookie. */
export function clearFlowCookieLines(scope: FlowCookieScope): string[] {
  return FLOW_KEYS.flatMap((key) => clearCookieLines(scope.jar[key], scope.cookies));
}
