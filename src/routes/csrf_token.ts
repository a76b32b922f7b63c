/**
 * `GET /csrfToken`: a fresh signed CSRF token bound to the current session.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { issueCsrfToken } from "../csrf.ts";
import { jsonResponse, type ResponseParts } from "../http.ts";
import type { RequestState } from "../request.ts";
import { readSession } from "../session.ts";

/** `GET /csrfToken`: 200 `{ csrfToken }` plus the CSRF cookie. */
export async function csrfTokenRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
): Promise<Response> {
  const session = await readSession(ctx, state);
  const { token, cookie } = await issueCsrfToken(ctx, state, session?.payload.jti ?? null);
  parts.cookies.push(cookie);
  return jsonResponse({ csrfToken: token }, 200, parts);
}
