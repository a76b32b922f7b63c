/**
 * `signInAs`: a signed-in cookie for an app's own tests, without any sign-in flow.
 *
 * @module
 */

import { contextOf } from "../create_auth.ts";
import { startSession } from "../core/sign_in.ts";
import { validateUser } from "../core/session.ts";
import { createHttpContext } from "../http_context.ts";
import type { User } from "../types.ts";

/** Options of {@link signInAs}. */
export interface SignInAsOptions {
  /**
   * The origin the cookie is for, e.g. `https://app.example.com` (decides
   * the `__Host-` names over HTTPS). Default: the instance's `baseURL`, else
   * `http://localhost`.
   */
  origin?: string;
}

/**
 * Resolves the `Cookie` header value that carries a valid session for `user`
 * on `auth` (the session cookie, chunked if large, and a CSRF cookie bound to
 * it), for tests that do not care how the user signed in. The user goes
 * through `identity.schema` and the user-field rules like any sign-in; with a
 * session store the session is saved there too.
 *
 * @example
 * ```ts
 * import { createAuth } from "@service-stack/auth";
 * import { signInAs } from "@service-stack/auth/testing";
 *
 * const auth = createAuth({ oauth: [], secret: "a-test-secret-of-at-least-32-bytes!!" });
 * const cookie = await signInAs(auth, { sub: "user-1", name: "Ada" });
 * const session = await auth.api.getSession(
 *   new Request("http://localhost/", { headers: { cookie } }),
 * );
 * console.log(session?.user.name); // "Ada"
 * ```
 */
export async function signInAs<U extends User>(
  auth: { api: { getSession(request: Request): Promise<unknown> } },
  user: U,
  options: SignInAsOptions = {},
): Promise<string> {
  const ctx = contextOf(auth);
  const origin = options.origin ?? ctx.publicOrigin?.origin ?? "http://localhost";
  const url = new URL("/", origin);
  const http = createHttpContext(ctx, new Request(url), url);
  await startSession(ctx, http, await validateUser(ctx, user, { source: "app" }));
  return http.setCookies
    .filter((line) => !/;\s*Max-Age=0(;|$)/i.test(line))
    .map((line) => line.slice(0, line.indexOf(";")))
    .join("; ");
}
