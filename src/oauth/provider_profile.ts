/**
 * Which profile mapper a resolved provider runs (its own, the built-in's,
 * or the default mapping) and what the mapper is handed at sign-in: the
 * endpoints (configured ones win over discovered ones) and a fetch bound to
 * the provider's hosts. Whether the mapped email counts as verified follows
 * from the same choice, so both are made here.
 *
 * @module
 */

import { defaultProfile } from "./profile.ts";
import type { ResolvedProvider } from "./resolved_provider.ts";
import type { BuiltInProvider, ProfileContext, ProfileMapper, ProviderEndpoints } from "./types.ts";
import { hostBoundFetch } from "./user_info.ts";

/** The configured endpoints win; discovered ones only fill gaps. */
export function boundProfile(
  mapper: ProfileMapper,
  configured: ProviderEndpoints,
): ResolvedProvider["profile"] {
  return async (raw, input) => {
    const endpoints: ProviderEndpoints = Object.freeze({
      authorizeURL: configured.authorizeURL ?? input.discovered?.authorizeURL,
      accessToken: configured.accessToken ?? input.discovered?.accessToken,
      userInfo: configured.userInfo ?? input.discovered?.userInfo,
    });
    const fetchFn = hostBoundFetch(input.fetch, [endpoints.accessToken, endpoints.userInfo]);
    const context: ProfileContext = { tokens: input.tokens, endpoints, fetch: fetchFn };
    if (input.postedUser !== undefined) context.postedUser = Object.freeze({ ...input.postedUser });
    return await mapper(raw, context);
  };
}

/**
 * The profile of a resolved provider and whether its email is verified:
 * only a built-in's own mapper carries the built-in's guarantee, a profile
 * of the app's does not.
 */
export function profileMapping(
  mapper: unknown,
  known: BuiltInProvider | undefined,
  configured: ProviderEndpoints,
): Pick<ResolvedProvider, "profile" | "verifiesEmail"> {
  const chosen = (mapper as ProfileMapper | undefined) ?? defaultProfile;
  return {
    profile: boundProfile(chosen, configured),
    verifiesEmail: known?.verifiesEmail === true && chosen === known.profile,
  };
}
