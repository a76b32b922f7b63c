/**
 * Counting one request against its route's rule: the client's key (the
 * app's `key`, else the address), one atomic `store.hit` on it, the
 * draft-ietf-httpapi-ratelimit-headers fields on the response, and 429
 * `temporarily_unavailable` with `Retry-After` over the limit. Every request
 * that reaches the check counts, refused ones included: a request turned
 * away later (Origin, CSRF, body) has still been made.
 *
 * @module
 */

import { sha256 } from "../crypto/sha256.ts";
import { AuthError, markChosenByApp, toAuthError } from "../errors.ts";
import type { ResponseHeaders } from "../http.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import type { Logger } from "../logger.ts";
import type { ProxyHeaders } from "../origins/proxy.ts";
import type { SessionStore } from "../store/types.ts";
import { clientAddress, type ClientInfo } from "./address.ts";
import type { RateLimitRule } from "./rules.ts";

/** A rule with its name and its `RateLimit-Policy` value, resolved once per instance. */
export interface NamedRule extends RateLimitRule {
  /** The rule's name, e.g. `"/signIn/credentials"`. */
  readonly name: string;
  /** `"<name>";q=<max>;w=<window>`. */
  readonly policy: string;
}

/**
 * The app's own counting key: a string, or `null`/`undefined` for the
 * client's address. `route` is the rule's name.
 *
 * @example
 * ```ts
 * import type { RateLimitKey } from "@service-stack/auth";
 *
 * // Behind a gateway that authenticates callers and names them in a header.
 * const key: RateLimitKey = (request) => request.headers.get("X-Caller-Id");
 * ```
 */
export type RateLimitKey = (
  request: Request,
  route: string,
) => string | null | undefined | Promise<string | null | undefined>;

/** An instance's resolved limits. */
export interface RateLimits {
  /** The enabled rules by route key (see `routeKey`). */
  readonly byRoute: ReadonlyMap<string, NamedRule>;
  /** The app's key function, when given. */
  readonly key?: RateLimitKey;
  /** Whether the instance has warned about a request without an address (once per instance). */
  readonly warned: { value: boolean };
}

/** What one check reads: the request, the runtime's info, and where counts and headers go. */
export interface LimitInput {
  readonly request: Request;
  readonly info: ClientInfo | undefined;
  readonly proxy: ProxyHeaders;
  readonly store: Pick<SessionStore, "hit">;
  readonly logger: Logger;
  readonly out: ResponseHeaders;
}

const encoder = new TextEncoder();

/** The app's key for this request, checked; `undefined` falls back to the address. */
async function appKey(key: RateLimitKey, input: LimitInput, rule: NamedRule) {
  let value: unknown;
  try {
    value = await key(input.request, rule.name);
  } catch (error) {
    markChosenByApp(error);
    throw toAuthError(error, input.logger, "rateLimit.key");
  }
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    const wrong = new TypeError("rateLimit.key returned no string; expected a string or null.");
    throw toAuthError(wrong, input.logger, "rateLimit.key");
  }
  return hashed(value);
}

/** An app's key (or a name that is no IP address), hashed: any length, and nothing in clear. */
function hashed(value: string): string {
  return `#${encodeBase64Url(sha256(encoder.encode(value)))}`;
}

const PLAIN_ADDRESS = /^[0-9a-f:.\/]{1,48}$/;

/**
 * Counts the request against `rule`, adds `RateLimit-Policy` and `RateLimit`
 * to `input.out`, and throws 429 (with `Retry-After`) over the limit. A
 * request with no key and no address is not counted (one warning per
 * instance). A failing store throws its 503.
 *
 * @example
 * ```ts ignore
 * await countRequest(limits, rule, { request, info, proxy: false, store, logger, out: http });
 * ```
 */
export async function countRequest(
  limits: RateLimits,
  rule: NamedRule,
  input: LimitInput,
): Promise<void> {
  const own = limits.key === undefined ? undefined : await appKey(limits.key, input, rule);
  const address = own === undefined
    ? clientAddress(input.request, input.info, input.proxy)
    : undefined;
  // An IP address (or /64) is short and goes in clear; anything else is hashed.
  const key = own ??
    (address === undefined || PLAIN_ADDRESS.test(address) ? address : hashed(address));
  if (key === undefined) {
    if (!limits.warned.value) {
      limits.warned.value = true;
      input.logger.log(
        "warn",
        "a rate-limited route got a request without a client address, so its limit was skipped; expected the handlers' second argument ({ remoteAddr: { hostname } }), toNodeHandler, trustedProxyHeaders or rateLimit.key",
        { route: rule.name },
      );
    }
    return;
  }
  const headers = input.out.headers;
  headers.push(["RateLimit-Policy", rule.policy]);
  const { count, resetIn } = await input.store.hit(`rate:${rule.name}:${key}`, rule.window);
  headers.push(["RateLimit", `"${rule.name}";r=${Math.max(0, rule.max - count)};t=${resetIn}`]);
  if (count > rule.max) {
    headers.push(["Retry-After", String(resetIn)]);
    throw new AuthError(
      "temporarily_unavailable",
      `Too many requests to ${rule.name}; expected at most ${rule.max} every ${rule.window} seconds.`,
      { status: 429 },
    );
  }
}
