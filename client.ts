/**
 * The browser client for `@service-stack/auth`: calls the auth HTTP handlers
 * over `fetch` (cookies included), fetching a CSRF token before every
 * state-changing call. It imports no server code, so bundling it pulls in only
 * a few kilobytes.
 *
 * Every method except `getSession` resolves `{ data, error }` and never
 * throws for HTTP or network failures; `error` is the server's RFC 6749 body
 * (`error`, `error_description`) plus the HTTP `status` (0 when no answer
 * arrived). Nothing is written to the console.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient({ basePath: "/auth" });
 * const { data, error } = await auth.signInCredentials({ username: "ada", password: "pw" });
 * if (error) console.error(error.status, error.error, error.error_description);
 * else console.log(`Signed in as ${data.user.sub}`);
 * ```
 *
 * @module
 */

export { createAuthClient } from "./src/client/create_auth_client.ts";
export type { ApiKeyClient, ClientApiKey } from "./src/client/types.ts";
export type {
  AccessTokenErrorCode,
  AuthorizationErrorCode,
  ErrorBody,
  ErrorType,
  Session,
  TokenRevocationErrorCode,
  User,
} from "./src/types.ts";
export type {
  AuthClient,
  AuthClientError,
  AuthClientOptions,
  AuthResult,
  ClientFetch,
  ClientHeaders,
  ClientHeadersInit,
  ClientPasskey,
  EmailSignInOptions,
  InferUser,
  PasskeyClient,
  PasskeySignInOptions,
  RedirectOptions,
  SignIn,
  SignInCredentialsOptions,
  SignInOptions,
  SignUpOptions,
  TwoFactorAnswer,
  TwoFactorClient,
  TwoFactorEnrollment,
  TwoFactorRequired,
  UpdateSessionOptions,
} from "./src/client/types.ts";
