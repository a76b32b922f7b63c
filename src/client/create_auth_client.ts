/**
 * The `createAuthClient` factory: the client methods on top of `send`.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import type { Session, User } from "../types.ts";
import { isSafeRedirectTarget, navigate, reload } from "./navigation.ts";
import { resolveClientOptions } from "./options.ts";
import { autofillSupported, ceremony, ipAddressRefusal, passkeysSupported } from "./passkey.ts";
import { apiKeyClient } from "./api_keys.ts";
import { buildURL, type ClientRequest, failure, send } from "./request.ts";
import type { ClientLinkedAccount, LinkAccountOptions } from "./types.ts";
import type {
  AuthClient,
  AuthClientOptions,
  AuthResult,
  ClientPasskey,
  EmailSignInOptions,
  PasskeyClient,
  PasskeySignInOptions,
  RedirectOptions,
  SignIn,
  SignInCredentialsOptions,
  SignInOptions,
  SsoSignInTarget,
  TwoFactorAnswer,
  TwoFactorEnrollment,
  TwoFactorRequired,
} from "./types.ts";

function isSession<U extends User>(body: unknown): body is Session<U> {
  return isRecord(body) && isRecord(body.user) && typeof body.user.sub === "string" &&
    typeof body.expires === "string";
}

function isUrlBody(body: unknown): body is { url: string } {
  return isRecord(body) && typeof body.url === "string";
}

function isOk(body: unknown): body is { ok: true } {
  return isRecord(body) && body.ok === true;
}

function isTwoFactorRequired(body: unknown): body is TwoFactorRequired {
  return isRecord(body) && body.twoFactorRequired === true;
}

/** A session, or the second step still due. */
function isSessionOrSecondStep<U extends User>(
  body: unknown,
): body is Session<U> | TwoFactorRequired {
  return isSession<U>(body) || isTwoFactorRequired(body);
}

function isEnrollment(body: unknown): body is TwoFactorEnrollment {
  return isRecord(body) && typeof body.secret === "string" && typeof body.uri === "string";
}

function isBackupCodes(body: unknown): body is { backupCodes: string[] } {
  return isRecord(body) && Array.isArray(body.backupCodes) &&
    body.backupCodes.every((code) => typeof code === "string");
}

function isCsrfTokenBody(body: unknown): body is { csrfToken: string } {
  return isRecord(body) && typeof body.csrfToken === "string" && body.csrfToken !== "";
}

function isOptions(body: unknown): body is Record<string, unknown> {
  return isRecord(body) && typeof body.challenge === "string";
}

function isPasskey(value: unknown): value is ClientPasskey {
  return isRecord(value) && typeof value.id === "string";
}

function isRegistered(body: unknown): body is { passkey: ClientPasskey } {
  return isRecord(body) && isPasskey(body.passkey);
}

function isPasskeyList(body: unknown): body is { passkeys: ClientPasskey[] } {
  return isRecord(body) && Array.isArray(body.passkeys) && body.passkeys.every(isPasskey);
}

function isLinkStart(body: unknown): body is { url: string } {
  return isRecord(body) && typeof body.url === "string";
}

function isAccountList(body: unknown): body is { accounts: ClientLinkedAccount[] } {
  return isRecord(body) && Array.isArray(body.accounts);
}

function isEmpty(body: unknown): body is undefined {
  return body === undefined;
}

/** A ceremony the browser ended: cancelled or timed out (`access_denied`), or refused. */
function ceremonyFailure(cause: unknown): ReturnType<typeof failure> {
  const name = (cause as Error)?.name;
  // On an IP address every ceremony is refused (a cancel included): say so, not "cancelled".
  const onIpAddress = name === "AbortError" ? null : ipAddressRefusal();
  if (onIpAddress !== null) return failure("invalid_request", onIpAddress, 0);
  return name === "NotAllowedError" || name === "AbortError"
    ? failure("access_denied", "The passkey prompt was cancelled or timed out.", 0)
    : failure("invalid_request", `The browser refused the passkey (${name}).`, 0);
}

function noPasskeys(): ReturnType<typeof failure> {
  return failure("invalid_request", "This browser does not support passkeys.", 0);
}

function badRedirectTo(): ReturnType<typeof failure> {
  return failure(
    "invalid_redirect_to",
    'The redirectTo option was refused: expected a path starting with a single "/" or an http(s) URL.',
    0,
  );
}

/**
 * Creates a client for the auth handlers mounted at `{baseURL}{basePath}`.
 *
 * Options (all optional): `baseURL` (an http(s) origin; unset means relative
 * URLs for a same-origin page), `basePath` (default `/auth`), `headers` (an
 * object, or a function, possibly async, evaluated before every request; a
 * mutating call makes two requests: `GET /csrfToken`, then the call), `fetch`
 * (default the global one), `cache` (default `no-store`), `credentials`
 * (default `include`), `mode` (default `cors`). Invalid options throw a
 * `TypeError` at once. The client sets `Accept`, `Content-Type` and
 * `X-CSRF-Token` itself; those override the same names in `headers`.
 *
 * Redirects: `signIn` navigates with `location.assign` unless
 * `redirect: false` or there is no `location` (then it only returns the URL).
 * The other calls navigate after success only when asked: `redirect` defaults
 * to `true` when `redirectTo` is given; `redirect: true` without `redirectTo`
 * reloads the page. `redirectTo` must be a path starting with a single `/` or
 * an http(s) URL (else an `invalid_redirect_to` error with status 0, and no
 * request); it is also sent to the server, which checks that its origin is
 * trusted. The server is never asked to redirect: it always answers JSON.
 *
 * Mutating calls of one client run one after another, because each fetches a
 * CSRF token that replaces the previous CSRF cookie.
 *
 * @typeParam DefaultUser The user type of the sessions (see `InferUser`).
 * @typeParam SignUpPayload The fields `signUp` sends.
 * @param options How to reach the handlers and which fetch options to use.
 * @returns The client.
 *
 * @example Same-origin page, default mount point
 * ```ts
 * import { createAuthClient } from "@service-stack/auth/client";
 *
 * const auth = createAuthClient();
 * const session = await auth.getSession();
 * if (!session) await auth.signIn("github", { redirectTo: "/dashboard" });
 * ```
 *
 * @example Typed user and sign-up payload, service on another origin
 * ```ts
 * import { createAuthClient, type User } from "@service-stack/auth/client";
 *
 * interface AppUser extends User { role: "admin" | "member" }
 * const auth = createAuthClient<AppUser, { email: string; password: string }>({
 *   baseURL: "https://auth.example.com",
 *   headers: async () => ({ "X-Request-Id": crypto.randomUUID() }),
 * });
 * const { data } = await auth.signUp({ email: "ada@example.com", password: "pw" });
 * if (data) console.log(data.user.role);
 * ```
 */
export function createAuthClient<
  DefaultUser extends User = User,
  SignUpPayload extends Record<string, unknown> = Record<string, unknown>,
>(options?: AuthClientOptions): AuthClient<DefaultUser, SignUpPayload> {
  const resolved = resolveClientOptions(options);
  // Each mutating call replaces the CSRF cookie, so they run one at a time per client.
  let queue: Promise<unknown> = Promise.resolve();

  function mutate<T>(
    request: Omit<ClientRequest, "query" | "csrfToken">,
    redirect: RedirectOptions,
    accept: (body: unknown) => body is T,
  ): Promise<AuthResult<T>> {
    const { redirectTo } = redirect;
    if (redirectTo !== undefined && !isSafeRedirectTarget(redirectTo)) {
      return Promise.resolve(badRedirectTo());
    }
    const run = queue.then(async (): Promise<AuthResult<T>> => {
      const token = await send(resolved, { method: "GET", path: "/csrfToken" }, isCsrfTokenBody);
      if (token.error) return token;
      const csrfToken = token.data.csrfToken;
      return await send(resolved, { ...request, query: { redirectTo }, csrfToken }, accept);
    });
    queue = run;
    return run.then((result) => {
      // A pending second step is no sign-in yet: stay on the page to ask for the code.
      const done = !result.error && !isTwoFactorRequired(result.data);
      if (done && (redirect.redirect ?? redirectTo !== undefined)) {
        if (redirectTo !== undefined) navigate(redirectTo);
        else reload();
      }
      return result;
    });
  }

  function oauthSignIn(oauth: string, signInOptions: SignInOptions = {}) {
    const { redirectTo, redirect } = signInOptions;
    if (typeof oauth !== "string" || oauth === "") {
      return Promise.resolve(
        failure(
          "invalid_request",
          "The provider id was refused: expected a non-empty string.",
          0,
        ),
      );
    }
    if (redirectTo !== undefined && !isSafeRedirectTarget(redirectTo)) {
      return Promise.resolve(badRedirectTo());
    }
    const url = buildURL(resolved, `/signIn/${encodeURIComponent(oauth)}`, { redirectTo });
    if (redirect !== false) navigate(url);
    return Promise.resolve({ data: { url }, error: null });
  }

  function signInCredentials(credentials: SignInCredentialsOptions) {
    const { username, password, ...redirect } = credentials;
    return mutate(
      { method: "POST", path: "/signIn/credentials", body: { username, password } },
      redirect,
      isSessionOrSecondStep<DefaultUser>,
    );
  }

  function signInEmail(email: string, emailOptions: EmailSignInOptions = {}) {
    const { redirectTo } = emailOptions;
    if (redirectTo !== undefined && !isSafeRedirectTarget(redirectTo)) {
      return Promise.resolve(badRedirectTo());
    }
    // redirectTo rides in the body: it is where the link lands later, not where to go now.
    const body = redirectTo === undefined ? { email } : { email, redirectTo };
    return mutate({ method: "POST", path: "/signIn/email", body }, { redirect: false }, isOk);
  }

  function signInSso(target: SsoSignInTarget, ssoOptions: SignInOptions = {}) {
    // Only the two known fields are sent (JSON drops the absent one); redirectTo rides in the
    // body, for after the callback, and the server validates it.
    const { email, organization } = target as { email?: string; organization?: string };
    const body = { email, organization, redirectTo: ssoOptions.redirectTo };
    return mutate({ method: "POST", path: "/signIn/sso", body }, {}, isUrlBody).then((result) => {
      if (!result.error && ssoOptions.redirect !== false) navigate(result.data.url);
      return result;
    });
  }

  // One passkey request at a time in a browser: a new ceremony cancels a pending autofill.
  let autofillRequest: AbortController | undefined;
  function takeOverCeremony(): void {
    autofillRequest?.abort(new DOMException("Another passkey ceremony started.", "AbortError"));
    autofillRequest = undefined;
  }

  const passkey: PasskeyClient<DefaultUser> = {
    async register(registerOptions = {}) {
      if (!passkeysSupported()) return noPasskeys();
      takeOverCeremony();
      const options = await mutate(
        { method: "POST", path: "/passkey/register/options", body: {} },
        { redirect: false },
        isOptions,
      );
      if (options.error) return options;
      let response: Record<string, unknown>;
      try {
        response = await ceremony(options.data, true);
      } catch (cause) {
        return ceremonyFailure(cause);
      }
      const body = registerOptions.name === undefined
        ? { response }
        : { response, name: registerOptions.name };
      return await mutate(
        { method: "POST", path: "/passkey/register", body },
        { redirect: false },
        isRegistered,
      );
    },

    async signIn(signInOptions: PasskeySignInOptions = {}) {
      const { autofill, signal, ...redirect } = signInOptions;
      if (redirect.redirectTo !== undefined && !isSafeRedirectTarget(redirect.redirectTo)) {
        return badRedirectTo();
      }
      if (!passkeysSupported()) return noPasskeys();
      if (autofill && !(await autofillSupported())) {
        return failure("invalid_request", "This browser does not offer passkeys in autofill.", 0);
      }
      takeOverCeremony();
      const controller = new AbortController();
      if (autofill) autofillRequest = controller;
      signal?.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
      const options = await mutate(
        { method: "POST", path: "/passkey/signIn/options", body: {} },
        { redirect: false },
        isOptions,
      );
      if (options.error) return options;
      let response: Record<string, unknown>;
      try {
        response = await ceremony(options.data, false, { autofill, signal: controller.signal });
      } catch (cause) {
        return ceremonyFailure(cause);
      } finally {
        if (autofillRequest === controller) autofillRequest = undefined;
      }
      return await mutate(
        { method: "POST", path: "/passkey/signIn", body: { response } },
        redirect,
        isSession<DefaultUser>,
      );
    },

    list() {
      return send(resolved, { method: "GET", path: "/passkeys" }, isPasskeyList);
    },

    async delete(id: string) {
      if (typeof id !== "string" || id === "") {
        return failure(
          "invalid_request",
          "The passkey id was refused: expected a non-empty string.",
          0,
        );
      }
      const result = await mutate(
        { method: "DELETE", path: `/passkeys/${encodeURIComponent(id)}` },
        { redirect: false },
        isEmpty,
      );
      return result.error ? result : { data: { ok: true as const }, error: null };
    },
  };

  const signIn: SignIn<DefaultUser> = Object.assign(oauthSignIn, {
    email: signInEmail,
    credentials: signInCredentials,
    sso: signInSso,
  });

  return {
    async getSession() {
      const result = await send(
        resolved,
        { method: "GET", path: "/session" },
        isSession<DefaultUser>,
      );
      return result.data;
    },

    signIn,

    signUp(signUpOptions) {
      const { redirectTo, redirect, ...payload } = signUpOptions ?? {};
      return mutate(
        { method: "POST", path: "/signUp", body: payload },
        { redirectTo, redirect },
        isSession<DefaultUser>,
      );
    },

    updateSession(data, updateOptions = {}) {
      const { expires, ...redirect } = updateOptions;
      const body = expires === undefined ? { user: data } : { user: data, expires };
      return mutate({ method: "PATCH", path: "/session", body }, redirect, isSession<DefaultUser>);
    },

    signOut(signOutOptions = {}) {
      return mutate({ method: "POST", path: "/signOut", body: {} }, signOutOptions, isOk);
    },

    verifyEmailCode(code, codeOptions = {}) {
      return mutate(
        { method: "POST", path: "/callback/email", body: { code } },
        codeOptions,
        isSessionOrSecondStep<DefaultUser>,
      );
    },

    requestPasswordReset(email) {
      return mutate(
        { method: "POST", path: "/password/forgot", body: { email } },
        { redirect: false },
        isOk,
      );
    },

    resetPassword(token, password) {
      return mutate(
        { method: "POST", path: "/password/reset", body: { token, password } },
        { redirect: false },
        isOk,
      );
    },

    verifyEmail() {
      return mutate({ method: "POST", path: "/email/verify", body: {} }, { redirect: false }, isOk);
    },

    changeEmail(email) {
      return mutate(
        { method: "POST", path: "/email/change", body: { email } },
        { redirect: false },
        isOk,
      );
    },

    twoFactor: {
      enroll() {
        return mutate(
          { method: "POST", path: "/twoFactor/enroll", body: {} },
          { redirect: false },
          isEnrollment,
        );
      },
      confirm(code: string) {
        return mutate(
          { method: "POST", path: "/twoFactor/confirm", body: { code } },
          { redirect: false },
          isBackupCodes,
        );
      },
      verify(answer: TwoFactorAnswer, verifyOptions: RedirectOptions = {}) {
        // Only the one field is sent: anything else would be refused by the server.
        const body = isRecord(answer) && "backupCode" in answer
          ? { backupCode: answer.backupCode }
          : { code: isRecord(answer) ? (answer as { code?: unknown }).code : undefined };
        return mutate(
          { method: "POST", path: "/twoFactor/verify", body },
          verifyOptions,
          isSession<DefaultUser>,
        );
      },
      disable(code: string) {
        return mutate(
          { method: "POST", path: "/twoFactor/disable", body: { code } },
          { redirect: false },
          isOk,
        );
      },
    },
    passkey,

    async linkAccount(provider: string, linkOptions: LinkAccountOptions = {}) {
      const { scope, redirectTo, redirect } = linkOptions ?? {};
      if (redirectTo !== undefined && !isSafeRedirectTarget(redirectTo)) return badRedirectTo();
      // JSON leaves undefined members out.
      const result = await mutate(
        {
          method: "POST",
          path: `/link/${encodeURIComponent(provider)}`,
          body: { scope, redirectTo },
        },
        { redirect: false },
        isLinkStart,
      );
      if (!result.error && redirect !== false) navigate(result.data.url);
      return result;
    },

    accounts: {
      list() {
        return send(resolved, { method: "GET", path: "/accounts" }, isAccountList);
      },
      async unlink(provider: string, providerAccountId: string) {
        if (!provider || !providerAccountId) {
          return failure("invalid_request", "expected a provider and an account id.", 0);
        }
        const path = `/accounts/${encodeURIComponent(provider)}/${
          encodeURIComponent(providerAccountId)
        }`;
        const result = await mutate({ method: "DELETE", path }, { redirect: false }, isEmpty);
        return result.error ? result : { data: { ok: true as const }, error: null };
      },
    },
    apiKeys: apiKeyClient({
      mutate: (request, accept) => mutate(request, { redirect: false }, accept),
      get: (path, accept) => send(resolved, { method: "GET", path }, accept),
    }),
  };
}
