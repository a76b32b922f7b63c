/**
 * The OAuth flow cookies (`state`, `codeVerifier`, `redirectTo`,
 * `redirectURI`): each sealed with the flow key (purpose `oauth-flow`, its
 * own `typ`), bound to the provider id and to one flow id, so that values
 * from two flows or two providers can never be mixed.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { clearCookieLines, serializeCookie } from "../cookies.ts";
import type { RequestState } from "../request.ts";
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

const FLOW_KEYS = ["state", "codeVerifier", "redirectTo", "redirectURI"] as const;

/** Seals each flow value into its cookie; returns the Set-Cookie lines. */
export async function flowCookieLines(
  ctx: AuthContext,
  state: RequestState,
  providerId: string,
  values: FlowValues,
): Promise<string[]> {
  const flow = randomToken(16);
  return await Promise.all(FLOW_KEYS.map(async (key) => {
    const token = await ctx.flowJose.encodeJWT({ v: values[key], p: providerId, f: flow, k: key });
    const spec = state.jar[key];
    return serializeCookie(spec.name, token, spec.attributes, state.nowMs);
  }));
}

/**
 * Opens the flow cookies; `null` when any is missing, unreadable, expired,
 * for another provider, or from another flow.
 */
export async function readFlowCookies(
  ctx: AuthContext,
  state: RequestState,
  providerId: string,
): Promise<FlowValues | null> {
  const opened = await Promise.all(FLOW_KEYS.map(async (key) => {
    const token = state.cookies.get(state.jar[key].name);
    if (!token) return null;
    try {
      const payload = await ctx.flowJose.decodeJWT(token);
      const ok = typeof payload.v === "string" && payload.p === providerId && payload.k === key &&
        typeof payload.f === "string";
      return ok ? { value: payload.v as string, flow: payload.f as string } : null;
    } catch {
      return null;
    }
  }));
  if (opened.some((item) => item === null)) return null;
  const [stateValue, verifier, redirectTo, redirectURI] = opened as {
    value: string;
    flow: string;
  }[];
  const flow = stateValue.flow;
  if (verifier.flow !== flow || redirectTo.flow !== flow || redirectURI.flow !== flow) return null;
  return {
    state: stateValue.value,
    codeVerifier: verifier.value,
    redirectTo: redirectTo.value,
    redirectURI: redirectURI.value,
  };
}

/** Set-Cookie lines that remove every flow cookie. */
export function clearFlowCookieLines(state: RequestState): string[] {
  return FLOW_KEYS.flatMap((key) => clearCookieLines(state.jar[key], state.cookies));
}
