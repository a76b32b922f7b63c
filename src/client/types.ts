/**
 * Public types of the browser client. Pure types: importing this file pulls
 * no code into a bundle.
 *
 * @module
 */

import type { ErrorBody, Session, User } from "../types.ts";

/**
 * A `fetch`-compatible function. The client always calls it with a string URL
 * and a full `RequestInit`, so a narrow fake is enough in tests.
 *
 * @example Route client calls to an in-process handler
 * ```ts
 * import type { ClientFetch } from "@service-stack/auth/client";
 *
 * const handler = (req: Request) => new Response(null, { status: 401 });
 * const viaHandler: ClientFetch = (url, init) =>
 *   Promise.resolve(handler(new Request(new URL(url, "http://localhost"), init)));
 * ```
 */
export type ClientFetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Header values in any form `new Headers(init)` takes: the `HeadersInit` of
 * the DOM, spelled out so that the published types need no DOM lib.
 *
 * @example
 * ```ts
 * import type { ClientHeadersInit } from "@service-stack/auth/client";
 *
 * const asObject: ClientHeadersInit = { "X-App": "shop" };
 * const asPairs: ClientHeadersInit = [["X-App", "shop"]];
 * ```
 */
export type ClientHeadersInit = Headers | Record<string, string> | [string, string][];

/**
 * Extra request headers: a plain object (or any {@linkcode ClientHeadersInit}),
 * or a function returning one, sync or async, evaluated before every HTTP request.
 *
 * @example A bearer token read fresh for each request
 * ```ts
 * import type { ClientHeaders } from "@service-stack/auth/client";
 *
 * let token = "t0";
 * const headers: ClientHeaders = () => ({ Authorization: `Bearer ${token}` });
 * ```
 */
export type ClientHeaders =
  | ClientHeadersInit
  | (() => ClientHeadersInit | Promise<ClientHeadersInit>);

/**
 * Options of `createAuthClient`. Every field is optional.
 *
 * @example
 * ```ts
 * import type { AuthClientOptions } from "@service-stack/auth/client";
 *
 * const options: AuthClientOptions = {
 *   baseURL: "https://auth.example.com",
 *   basePath: "/auth",
 *   headers: { "X-App": "shop" },
 * };
 * ```
 */
export interface AuthClientOptions {
  /**
   * Origin of the auth service (`https://auth.example.com`, optional port, no
   * path). Unset: URLs are relative (`/auth/session`), for same-origin pages.
   */
  baseURL?: string;
  /** Where the handlers are mounted; starts with `/`. Default `/auth`. */
  basePath?: string;
  /** Headers added to every request; a function is evaluated per request and may be async. */
  headers?: ClientHeaders;
  /** Custom `fetch`. Default: the global `fetch`, looked up at call time. */
  fetch?: ClientFetch;
  /** Fetch cache mode. Default `no-store`. */
  cache?: "default" | "no-store" | "reload" | "no-cache" | "force-cache" | "only-if-cached";
  /** Fetch credentials mode. Default `include`, so the session cookie is sent. */
  credentials?: "omit" | "same-origin" | "include";
  /** Fetch mode. Default `cors`. */
  mode?: "cors" | "no-cors" | "same-origin";
}

/**
 * An error result: the RFC 6749 body the server sent plus the HTTP status.
 * Failures without an HTTP answer (network error, a throwing `headers`
 * function, an argument the client refused) have `status` 0.
 *
 * @example
 * ```ts
 * import type { AuthClientError } from "@service-stack/auth/client";
 *
 * const denied: AuthClientError = {
 *   error: "access_denied",
 *   error_description: "Wrong username or password.",
 *   status: 401,
 * };
 * ```
 */
export interface AuthClientError extends ErrorBody {
  /** HTTP status of the answer, or 0 when no answer arrived. */
  status: number;
}

/**
 * What every client method except `getSession` resolves to: exactly one of
 * `data` and `error` is non-null. Client methods never throw for HTTP or
 * network failures.
 *
 * @example
 * ```ts
 * import type { AuthResult } from "@service-stack/auth/client";
 *
 * function show(result: AuthResult<{ ok: true }>): string {
 *   return result.error ? result.error.error : "signed out";
 * }
 * ```
 */
export type AuthResult<T> =
  | { data: T; error: null }
  | { data: null; error: AuthClientError };

/**
 * Where to go after a successful call.
 *
 * @example
 * ```ts
 * import type { RedirectOptions } from "@service-stack/auth/client";
 *
 * const goHome: RedirectOptions = { redirectTo: "/home" };
 * const stay: RedirectOptions = { redirectTo: "/home", redirect: false };
 * ```
 */
export interface RedirectOptions {
  /**
   * A path on this site (`/account`) or an absolute http(s) URL the server
   * trusts. Sent to the server as the `redirectTo` query parameter, where it
   * is validated.
   */
  redirectTo?: string;
  /**
   * Navigate after success. Default: `true` when `redirectTo` is given, else
   * `false`. `true` without `redirectTo` reloads the current page. Never
   * navigates on an error or outside a browser.
   */
  redirect?: boolean;
}

/**
 * Options of `signIn` (OAuth).
 *
 * @example
 * ```ts
 * import type { SignInOptions } from "@service-stack/auth/client";
 *
 * const options: SignInOptions = { redirectTo: "/dashboard" };
 * ```
 */
export interface SignInOptions {
  /** Where the user lands after the OAuth callback; validated by the server. */
  redirectTo?: string;
  /**
   * Navigate the browser to the sign-in URL. Default `true`. With `false`, or
   * outside a browser, the URL is only returned.
   */
  redirect?: boolean;
}

/**
 * Options of `signIn.credentials`.
 *
 * @example
 * ```ts
 * import type { SignInCredentialsOptions } from "@service-stack/auth/client";
 *
 * const options: SignInCredentialsOptions = { username: "ada", password: "correct horse" };
 * ```
 */
export interface SignInCredentialsOptions extends RedirectOptions {
  /** The username, sent in the JSON body. */
  username: string;
  /** The password, sent in the JSON body. */
  password: string;
}

/**
 * Options of `signUp`: the sign-up payload (sent as the JSON body) plus
 * `redirectTo` and `redirect` (never sent in the body).
 *
 * @example
 * ```ts
 * import type { SignUpOptions } from "@service-stack/auth/client";
 *
 * const options: SignUpOptions<{ username: string; password: string }> = {
 *   username: "ada",
 *   password: "correct horse",
 *   redirectTo: "/welcome",
 * };
 * ```
 */
export type SignUpOptions<P extends Record<string, unknown> = Record<string, unknown>> =
  & P
  & RedirectOptions;

/**
 * Options of `updateSession` besides the user fields.
 *
 * @example
 * ```ts
 * import type { UpdateSessionOptions } from "@service-stack/auth/client";
 *
 * const soon = new Date(Date.now() + 60_000).toISOString();
 * const options: UpdateSessionOptions = { expires: soon };
 * ```
 */
export interface UpdateSessionOptions extends RedirectOptions {
  /** A new expiry (ISO 8601); the server only lets it shorten the session. */
  expires?: string;
}

/**
 * Reads the user type from a `createAuth` instance, structurally (the client
 * imports nothing from server code): the `user` of what `api.getSession`
 * resolves to. Anything else gives `never`.
 *
 * @example
 * ```ts
 * import { createAuthClient, type InferUser, type Session, type User } from "@service-stack/auth/client";
 *
 * // In a real app: `import { auth } from "./auth.ts"` (a type-only use).
 * type Auth = { api: { getSession(req: Request): Promise<Session<User & { role: string }> | null> } };
 * const client = createAuthClient<InferUser<Auth>>();
 * ```
 */
export type InferUser<T> = T extends { api: { getSession(req: Request): Promise<infer S> } }
  ? NonNullable<S> extends { user: infer U extends User } ? U : never
  : never;

/**
 * Options of `signIn.email`.
 *
 * @example
 * ```ts
 * import type { EmailSignInOptions } from "@service-stack/auth/client";
 *
 * const options: EmailSignInOptions = { redirectTo: "/dashboard" };
 * ```
 */
export interface EmailSignInOptions {
  /** Where the link (or the code) lands once used; validated by the server. */
  redirectTo?: string;
}

/**
 * A passkey as `passkey.list()` and `passkey.register()` give it (never its public key).
 *
 * @example
 * ```ts
 * import type { ClientPasskey } from "@service-stack/auth/client";
 *
 * function label(passkey: ClientPasskey): string {
 *   return `${passkey.name || "Passkey"} (added ${new Date(passkey.createdAt * 1000).toLocaleDateString()})`;
 * }
 * ```
 */
export interface ClientPasskey {
  /** The credential id, base64url: pass it to `passkey.delete`. */
  id: string;
  /** The name the user gave it (may be empty). */
  name: string;
  /** When it was registered, in seconds since the epoch. */
  createdAt: number;
  /** When it last signed in, in seconds since the epoch. */
  lastUsedAt?: number;
  /** `"multiDevice"` for a syncable passkey (iCloud Keychain, Google Password Manager...). */
  deviceType: "singleDevice" | "multiDevice";
  /** Whether it is backed up (synced), as the authenticator said at its last sign-in or registration. */
  backedUp: boolean;
  /** Transport hints. */
  transports: string[];
  /** The authenticator model's AAGUID. */
  aaguid: string;
  /** Its COSE algorithm: -8 (EdDSA), -7 (ES256) or -257 (RS256). */
  algorithm: number;
  /** The signature counter last seen (0 for authenticators that keep none). */
  counter: number;
}

/**
 * Options of `passkey.signIn`.
 *
 * @example Autofill: start on page load, with an input `autocomplete="username webauthn"`
 * ```ts
 * import { createAuthClient, type PasskeySignInOptions } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * const options: PasskeySignInOptions = { autofill: true, redirectTo: "/dashboard" };
 * auth.passkey.signIn(options); // settles when the user picks a passkey from autofill
 * ```
 */
export interface PasskeySignInOptions extends RedirectOptions {
  /**
   * Conditional mediation: the browser offers the user's passkeys in the
   * autofill of an input with `autocomplete="username webauthn"` instead of
   * a dialog. The call settles once one is chosen; another passkey call of
   * the same client (the button) cancels it. An `invalid_request` error
   * with status 0 when the browser has no passkey autofill.
   */
  autofill?: boolean;
  /** Cancels the ceremony (an `access_denied` error with status 0). */
  signal?: AbortSignal;
}

/**
 * Passkeys (WebAuthn) from the browser. A ceremony the user cancels, or a
 * browser without WebAuthn, resolves an error with status 0
 * (`access_denied`, `invalid_request`) and sends nothing more.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * await auth.passkey.register({ name: "Laptop" }); // signed in
 * await auth.passkey.signIn({ redirectTo: "/dashboard" }); // signed out
 * const { data } = await auth.passkey.list();
 * if (data) await auth.passkey.delete(data.passkeys[0].id);
 * ```
 */
export interface PasskeyClient<U extends User = User> {
  /** Registers a new passkey for the signed-in user; resolves it. */
  register(options?: { name?: string }): Promise<AuthResult<{ passkey: ClientPasskey }>>;
  /** Signs in with a passkey (a dialog, or autofill with `autofill: true`); resolves the session. */
  signIn(options?: PasskeySignInOptions): Promise<AuthResult<Session<U>>>;
  /** `GET /passkeys`: the signed-in user's passkeys. */
  list(): Promise<AuthResult<{ passkeys: ClientPasskey[] }>>;
  /** `DELETE /passkeys/:id`: deletes one of the user's passkeys; resolves `{ ok: true }`. */
  delete(id: string): Promise<AuthResult<{ ok: true }>>;
}

/**
 * `signIn`: OAuth by provider id, plus `signIn.email` and `signIn.credentials`.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * await auth.signIn.email("ada@example.com", { redirectTo: "/dashboard" });
 * ```
 */
export interface SignIn<U extends User = User> {
  /** Navigates the browser to `GET /signIn/:oauth`; resolves `{ data: { url } }`. */
  (oauth: string, options?: SignInOptions): Promise<AuthResult<{ url: string }>>;
  /**
   * `POST /signIn/email`: asks for a sign-in link and code; resolves `{ ok:
   * true }` for every well-formed address (known or not). Then the user
   * clicks the link, or types the code with `verifyEmailCode`.
   */
  email(email: string, options?: EmailSignInOptions): Promise<AuthResult<{ ok: true }>>;
  /**
   * `POST /signIn/credentials` with a CSRF token; resolves `{
   * twoFactorRequired: true }` when the user must still give a code.
   */
  credentials(
    options: SignInCredentialsOptions,
  ): Promise<AuthResult<Session<U> | TwoFactorRequired>>;
  /**
   * `POST /signIn/sso` (enterprise single sign-on): finds the organization's
   * identity provider by the address's domain or by the organization, then
   * navigates the browser there (unless `redirect: false`); resolves
   * `{ data: { url } }`, or the error (404 `invalid_request` when the domain
   * has no single sign-on).
   */
  sso(target: SsoSignInTarget, options?: SignInOptions): Promise<AuthResult<{ url: string }>>;
}

/**
 * Who `signIn.sso` signs in: an address (its domain picks the
 * organization) or the organization itself.
 *
 * @example
 * ```ts
 * import type { SsoSignInTarget } from "@service-stack/auth/client";
 *
 * const byEmail: SsoSignInTarget = { email: "ada@example.com" };
 * const byOrganization: SsoSignInTarget = { organization: "example" };
 * ```
 */
export type SsoSignInTarget = { email: string } | { organization: string };

/**
 * What a first factor resolves when the user has two-factor sign-in on: no
 * session yet; finish with `twoFactor.verify`.
 *
 * @example
 * ```ts
 * import { createAuthClient, type TwoFactorRequired } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * const { data } = await auth.signIn.credentials({ username: "ada", password: "pw" });
 * if (data && "twoFactorRequired" in data) {
 *   const pending: TwoFactorRequired = data;
 *   console.log(pending.twoFactorRequired); // true: ask for the code
 * }
 * ```
 */
export interface TwoFactorRequired {
  /** Always `true`. */
  twoFactorRequired: true;
}

/**
 * What `twoFactor.enroll` resolves: the new secret (base32, to type in) and
 * the `otpauth://` URI to show as a QR code.
 *
 * @example
 * ```ts
 * import { createAuthClient, type TwoFactorEnrollment } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * const { data } = await auth.twoFactor.enroll();
 * const enrollment: TwoFactorEnrollment | null = data;
 * ```
 */
export interface TwoFactorEnrollment {
  /** The TOTP secret in base32, for manual entry. */
  secret: string;
  /** The `otpauth://totp/...` key URI, for a QR code. */
  uri: string;
}

/**
 * The answer of a second step: the 6-digit code, or one backup code.
 *
 * @example
 * ```ts
 * import type { TwoFactorAnswer } from "@service-stack/auth/client";
 *
 * const answer: TwoFactorAnswer = { code: "123456" };
 * ```
 */
export type TwoFactorAnswer = { code: string } | { backupCode: string };

/**
 * `twoFactor`: turning two-factor sign-in on and off, and the second step.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * const { data } = await auth.signIn.credentials({ username: "ada", password: "pw" });
 * if (data && "twoFactorRequired" in data) {
 *   await auth.twoFactor.verify({ code: "123456" }, { redirectTo: "/dashboard" });
 * }
 * ```
 */
export interface TwoFactorClient<U extends User = User> {
  /**
   * `POST /twoFactor/enroll` (signed in within the last 10 minutes):
   * resolves the secret and the URI to show; nothing is on until `confirm`.
   */
  enroll(): Promise<AuthResult<TwoFactorEnrollment>>;
  /**
   * `POST /twoFactor/confirm` with the app's current code: turns two-factor
   * on and resolves the ten backup codes (shown once: have the user keep them).
   */
  confirm(code: string): Promise<AuthResult<{ backupCodes: string[] }>>;
  /**
   * `POST /twoFactor/verify` with a code or a backup code, after a first
   * factor resolved `{ twoFactorRequired: true }`: resolves the new session.
   */
  verify(answer: TwoFactorAnswer, options?: RedirectOptions): Promise<AuthResult<Session<U>>>;
  /** `POST /twoFactor/disable` with a current code: turns two-factor off; resolves `{ ok: true }`. */
  disable(code: string): Promise<AuthResult<{ ok: true }>>;
}

/**
 * The client returned by `createAuthClient`.
 *
 * @example
 * ```ts
 * import { type AuthClient, createAuthClient } from "@service-stack/auth/client";
 *
 * const client: AuthClient = createAuthClient();
 * const session = await client.getSession();
 * ```
 */
export interface AuthClient<
  U extends User = User,
  P extends Record<string, unknown> = Record<string, unknown>,
> {
  /** `GET /session`: the current session, or `null` when there is none or anything failed. */
  getSession(): Promise<Session<U> | null>;
  /**
   * Starts an OAuth sign-in: navigates the browser to `GET /signIn/:oauth`.
   * Resolves `{ data: { url } }` (after navigation started, or instead of it
   * with `redirect: false` or outside a browser). `signIn.email` and
   * `signIn.credentials` are the other ways in.
   */
  signIn: SignIn<U>;
  /** `POST /signUp` with a CSRF token; resolves the new session. */
  signUp(options?: SignUpOptions<P>): Promise<AuthResult<Session<U>>>;
  /** `PATCH /session` with body `{ user: data, expires? }` and a CSRF token; resolves the updated session. */
  updateSession(data: Partial<U>, options?: UpdateSessionOptions): Promise<AuthResult<Session<U>>>;
  /** `POST /signOut` with a CSRF token; resolves `{ ok: true }`. */
  signOut(options?: RedirectOptions): Promise<AuthResult<{ ok: true }>>;
  /**
   * `POST /callback/email` with the 6-digit code of a sign-in message, from
   * the browser that asked for it; resolves the new session. Five wrong
   * codes end that sign-in. Resolves `{ twoFactorRequired: true }` instead
   * when the user must still give a second-factor code.
   */
  verifyEmailCode(
    code: string,
    options?: RedirectOptions,
  ): Promise<AuthResult<Session<U> | TwoFactorRequired>>;
  /** `POST /password/forgot`: a reset link to the address if it has an account; resolves `{ ok: true }` either way. */
  requestPasswordReset(email: string): Promise<AuthResult<{ ok: true }>>;
  /** `POST /password/reset` with the token from the reset link; resolves `{ ok: true }` (signs nobody in). */
  resetPassword(token: string, password: string): Promise<AuthResult<{ ok: true }>>;
  /** `POST /email/verify`: a verification link to the session's address; resolves `{ ok: true }`. */
  verifyEmail(): Promise<AuthResult<{ ok: true }>>;
  /** `POST /email/change`: a confirmation link to the new address; resolves `{ ok: true }`. */
  changeEmail(email: string): Promise<AuthResult<{ ok: true }>>;
  /** Two-factor sign-in: `enroll`, `confirm`, `verify` (the second step) and `disable`. */
  twoFactor: TwoFactorClient<U>;
  /** Passkeys: `register`, `signIn` (with autofill), `list`, `delete`. */
  passkey: PasskeyClient<U>;
  /** API keys of the signed-in user: `create`, `list`, `delete`. */
  apiKeys: ApiKeyClient;
  /**
   * `POST /link/:provider` with a CSRF token, then navigates the browser to
   * the provider (unless `redirect: false` or outside a browser): links
   * another provider account to the signed-in user. Resolves `{ data: { url } }`.
   */
  linkAccount(provider: string, options?: LinkAccountOptions): Promise<AuthResult<{ url: string }>>;
  /** Linked accounts: `list` and `unlink`. */
  accounts: AccountsClient;
}

/**
 * An API key as `apiKeys.list()` and `apiKeys.create()` give it: never its
 * text (shown once, by `create`) nor its hash.
 *
 * @example
 * ```ts
 * import type { ClientApiKey } from "@service-stack/auth/client";
 *
 * function label(apiKey: ClientApiKey): string {
 *   return `${apiKey.name} (last used ${apiKey.lastUsedAt ?? "never"})`;
 * }
 * ```
 */
export interface ClientApiKey {
  /** The key's id: pass it to `apiKeys.delete`. */
  id: string;
  /** The name the user gave it. */
  name: string;
  /** Its scopes. */
  scopes: string[];
  /** When it was made, ISO 8601 UTC. */
  createdAt: string;
  /** When it stops working, ISO 8601 UTC, or `null`. */
  expiresAt: string | null;
  /** When it was last used, ISO 8601 UTC, or `null`. */
  lastUsedAt: string | null;
}

/**
 * The signed-in user's API keys.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * const { data } = await auth.apiKeys.create({ name: "CI", scopes: ["deploy"], expiresIn: 86400 });
 * if (data) console.log("Copy it now, it is shown once:", data.key);
 * ```
 */
export interface ApiKeyClient {
  /** `POST /apiKeys`: a new key; `key` is its text, shown this once. */
  create(options: {
    name: string;
    scopes?: string[];
    expiresIn?: number;
  }): Promise<AuthResult<{ key: string; apiKey: ClientApiKey }>>;
  /** `GET /apiKeys`: the user's keys. */
  list(): Promise<AuthResult<{ apiKeys: ClientApiKey[] }>>;
  /** `DELETE /apiKeys/:id`: deletes one of the user's keys; resolves `{ ok: true }`. */
  delete(id: string): Promise<AuthResult<{ ok: true }>>;
}

/**
 * Options of `linkAccount`.
 *
 * @example
 * ```ts
 * import type { LinkAccountOptions } from "@service-stack/auth/client";
 *
 * const options: LinkAccountOptions = { scope: "repo", redirectTo: "/settings" };
 * ```
 */
export interface LinkAccountOptions {
  /** Scopes to ask for beyond the provider's default, space-separated (re-consent). */
  scope?: string;
  /** Where the browser lands after the provider: a path or a trusted URL. */
  redirectTo?: string;
  /** `false` resolves the provider URL without navigating. */
  redirect?: boolean;
}

/**
 * A linked account as `accounts.list()` gives it (never its tokens).
 *
 * @example
 * ```ts
 * import type { ClientLinkedAccount } from "@service-stack/auth/client";
 *
 * const label = (account: ClientLinkedAccount) => `${account.provider} (${account.providerAccountId})`;
 * ```
 */
export interface ClientLinkedAccount {
  /** The provider id. */
  provider: string;
  /** The provider's id of the account. */
  providerAccountId: string;
  /** The scopes the provider granted. */
  scope: string;
  /** When it was linked (ISO 8601). */
  createdAt: string;
  /** When it last changed (ISO 8601). */
  updatedAt: string;
}

/**
 * The signed-in user's linked accounts.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * const { data } = await auth.accounts.list();
 * if (data) await auth.accounts.unlink(data.accounts[0].provider, data.accounts[0].providerAccountId);
 * ```
 */
export interface AccountsClient {
  /** `GET /accounts`: the user's linked accounts. */
  list(): Promise<AuthResult<{ accounts: ClientLinkedAccount[] }>>;
  /** `DELETE /accounts/:provider/:providerAccountId`; resolves `{ ok: true }`. */
  unlink(provider: string, providerAccountId: string): Promise<AuthResult<{ ok: true }>>;
}
