/**
 * Body helpers the feature routes share: the allowed keys of a body, whether
 * it is a form post, and a `redirectTo` sent in the body.
 *
 * @module
 */

import { checkedRedirectTarget, type RedirectIntent } from "../core/redirects.ts";
import { AuthError } from "../errors.ts";
import { type Body, mediaType } from "../http.ts";
import type { HttpContext } from "../http_context.ts";

/** Refuses body keys other than `allowed` (400 `invalid_request`). */
export function onlyKeys(body: Body, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw new AuthError(
        "invalid_request",
        allowed.length === 0
          ? "The body has a key; expected an empty object or no body."
          : `The body has an unknown key; expected only ${
            allowed.map((k) => `"${k}"`).join(", ")
          }.`,
      );
    }
  }
}

/** Whether the request is a plain HTML form post. */
export function isFormPost(http: HttpContext): boolean {
  return mediaType(http.request) === "application/x-www-form-urlencoded";
}

/**
 * A `redirectTo` from the body (where a later step lands), else the query's;
 * validated like the query's (400 `invalid_redirect_to`).
 */
export async function bodyRedirectTo(
  http: HttpContext,
  raw: unknown,
  intent: RedirectIntent,
): Promise<string | null> {
  if (raw !== undefined && typeof raw !== "string") {
    throw new AuthError("invalid_request", '"redirectTo" is not a string; expected a path or URL.');
  }
  if (raw === undefined || raw === "") return intent.redirectTo;
  return await checkedRedirectTarget(http, raw);
}
