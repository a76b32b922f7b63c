/**
 * `GET /csrfToken`: a fresh signed CSRF token bound to the current session.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { issueCsrfToken } from "../core/csrf.ts";
import { readSession } from "../core/session.ts";
import { jsonResponse } from "../http.ts";
import type { HttpContext } from "../http_context.ts";

/** `GET /csrfToken`: 200 `{ csrfToken }` plus the CSRF cookie. */
export async function csrfTokenRoute(ctx: AuthContext, http: HttpContext): Promise<Response> {
  const session = await readSession(ctx, http);
  const { token, cookie } = await issueCsrfToken(ctx, http, session?.payload.jti ?? null);
  http.setCookies.push(cookie);
  return jsonResponse(http, { csrfToken: token }, 200);
}
