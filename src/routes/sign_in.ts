/**
 * `GET /signIn/:oauth`: starts the authorization-code flow.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { browserFailure } from "../core/browser_failure.ts";
import { providerById, startOAuthSignIn } from "../core/oauth_sign_in.ts";
import { redirectIntent } from "../core/redirects.ts";
import { jsonResponse, redirectResponse } from "../http.ts";
import type { HttpContext } from "../http_context.ts";

/**
 * `GET /signIn/:oauth`: 302 to the provider, or 200 `{ url }` with
 * `redirect=false`. A failure is a browser failure (error page or
 * `pages.error`), except that `redirect=false` callers always get JSON.
 */
export async function signInRoute(
  ctx: AuthContext,
  http: HttpContext,
  params: { provider: string },
): Promise<Response> {
  const json = http.url.searchParams.get("redirect") === "false";
  try {
    providerById(ctx, params.provider);
    const intent = await redirectIntent(http);
    const url = await startOAuthSignIn(ctx, http, {
      providerId: params.provider,
      redirectTo: intent.redirectTo,
    });
    // redirectIntent has refused a repeated or other `redirect` value by now.
    return json ? jsonResponse(http, { url }, 200) : redirectResponse(http, url);
  } catch (error) {
    if (json) throw error;
    return browserFailure(ctx, http, { error, route: "signIn", provider: params.provider });
  }
}
