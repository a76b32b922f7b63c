/**
 * `POST /signUp`: validates the body with `signUp.schema` and creates the
 * user with `signUp.onCreateUser`.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import { AuthError } from "../errors.ts";
import { guardMutation } from "../guard.ts";
import type { ResponseParts } from "../http.ts";
import { finish, redirectIntent } from "../redirects.ts";
import type { RequestState } from "../request.ts";
import { validateWith } from "../standard_schema.ts";
import { callApp, startSession } from "./sign_in_session.ts";

/** `POST /signUp`: 201 `Session` plus cookies. */
export async function signUpRoute(
  ctx: AuthContext,
  state: RequestState,
  parts: ResponseParts,
): Promise<Response> {
  const onCreateUser = ctx.onCreateUser!;
  const guarded = await guardMutation(ctx, state, false);
  const intent = await redirectIntent(state);
  let payload: Record<string, unknown> = await guarded.body(true);
  if (ctx.signUpSchema) {
    const schema = ctx.signUpSchema;
    const result = await callApp(ctx, "signUp.schema", () => validateWith(schema, payload));
    if (!result.ok) {
      throw new AuthError(
        "invalid_request",
        `The sign-up data is invalid: ${result.issues.join("; ")}`,
      );
    }
    payload = result.value;
  }
  const user = await callApp(
    ctx,
    "signUp.onCreateUser",
    () => onCreateUser(payload, state.request),
  );
  const session = await startSession(ctx, state, user, parts);
  return finish(state, intent, session, 201, parts);
}
