/**
 * The demo app shared by the Deno, Bun and Node examples: the page, its
 * script, the browser client's modules, an in-process mock OpenID Connect
 * provider under `/mock-oauth`, the "your devices" endpoints under
 * `/demo/sessions`, and the `createAuth` configuration (the mock provider,
 * found by discovery, username/password sign-in, sign-up into an in-memory
 * user table, sessions in a `memoryStore()` so that they can be listed and
 * ended), and email sign-in, verification, change of address and password
 * reset with a development outbox (`email_demo.mjs`).
 *
 * Each runtime's entry serves it and mounts `auth.handlers.ALL` under
 * `/auth/` itself. Plain JavaScript with JSDoc types, so that Node runs it as
 * it is and Deno and Bun type-check the entries that import it.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { AuthError, hashPassword, memoryStore, verifyPassword } from "@service-stack/auth";
import { createMockProvider } from "@service-stack/auth/testing";
import { createEmailDemo, RESET_PAGE, sessionUser } from "./email_demo.mjs";
import { createTwoFactorDemo } from "./two_factor_demo.mjs";
import { passkeyConfig } from "./passkey_demo.mjs";
import { createAccountsDemo } from "./accounts_demo.mjs";
import { createServiceTokensDemo } from "./service_tokens_demo.mjs";

/** The environment names `createAuth` reads the secret from, in its order. */
const SECRET_NAMES = ["SERVICE_AUTH_SECRET", "SERVICE_SECRET", "AUTH_SECRET", "SECRET"];
const DEMO_USERNAME = "demo";
const DEMO_EMAIL = "demo@example.com";
const USERNAME = /^[a-z0-9][a-z0-9._-]{2,31}$/;
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;
const MAX_NAME = 64;
// No 0/O, 1/l/I: the password is read off a console.
const PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** Accounts on the mock provider's consent page (no avatars: the demo needs no network). */
const MOCK_ACCOUNTS = [
  { sub: "mock-ada", name: "Ada Lovelace", email: "ada@example.com" },
  { sub: "mock-grace", name: "Grace Hopper", email: "grace@example.com" },
];

const SECURITY_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

/**
 * @typedef {object} DemoOptions
 * @property {string} origin Where the server listens, e.g. `http://127.0.0.1:8000`.
 * @property {Record<string, string | undefined>} env The process environment (secret lookup).
 * @property {string} runtime Shown on the page and the console, e.g. `Deno 2.5.0`.
 * @property {Map<string, string>} clientModules The browser client as ES modules, keyed by
 *   path below `/client/`; `client.js` is the entry the page imports.
 * @property {(line: string) => void} [log] Receives the console banner; default `console.log`.
 */

/**
 * @typedef {object} Demo
 * @property {import("@service-stack/auth").AuthConfig} authConfig What to pass to `createAuth`.
 * @property {(auth: DemoAuth) => (request: Request) => Promise<Response>} handler Given the
 *   instance made from `authConfig`, answers everything except `/auth/`: the page, its script
 *   and style, `/client/*`, the mock provider under `/mock-oauth/`, the device endpoints under
 *   `/demo/sessions`, the development outbox at `/demo/outbox` and the page again at
 *   `/reset-password` (where reset links land).
 */

/**
 * The part of `createAuth(...)` the device endpoints use.
 *
 * @typedef {object} DemoAuth
 * @property {object} api
 * @property {(request: Request) => Promise<{ user: { sub: string } } | null>} api.getSession
 * @property {(sub: string, options?: { request?: Request }) => Promise<DeviceSession[]>}
 *   api.listSessions
 * @property {(id: string) => Promise<boolean>} api.revokeSession
 * @property {(sub: string) => Promise<number>} api.revokeSessions
 * @property {(options?: { request?: Request }) => Promise<Response>} api.signOut
 */

/**
 * One entry of `auth.api.listSessions`.
 *
 * @typedef {object} DeviceSession
 * @property {string} id
 * @property {string} createdAt ISO 8601.
 * @property {string} expiresAt ISO 8601.
 * @property {string} [userAgent]
 * @property {boolean} current Whether it is the session of the request passed in.
 */

/**
 * The line printed instead of a stack trace when the port is taken.
 *
 * @param {number} port
 * @param {string} command How to start this example again, e.g. `deno task demo`.
 * @returns {string}
 */
export function portInUseMessage(port, command) {
  return `Port ${port} is already in use (another demo still running?): stop that server, ` +
    `or pick another port, e.g. PORT=${port === 8000 ? 8001 : 8000} ${command}`;
}

/**
 * Reads the port from `PORT` (`0` picks a free one); default 8000.
 *
 * @param {Record<string, string | undefined>} env
 * @returns {number}
 */
export function portFromEnv(env) {
  const value = env.PORT ?? "";
  if (value === "") return 8000;
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65535) {
    throw new TypeError(`Invalid PORT "${value}": expected a whole number from 0 to 65535.`);
  }
  return port;
}

/**
 * A random password of four groups of four characters, e.g. `k7qm-2xfd-9wpt-hs3c`.
 *
 * @returns {string}
 */
function randomPassword() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // 256 is a multiple of the alphabet's 32 letters, so every letter is equally likely.
  const letters = [...bytes].map((byte) => PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length]);
  return [0, 4, 8, 12].map((start) => letters.slice(start, start + 4).join("")).join("-");
}

/** @returns {string} 32 random bytes, base64url. */
function randomSecret() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * The sign-up body as a Standard Schema v1 object (what Zod, Valibot or
 * ArkType would give), written by hand so that the demo has no dependency.
 *
 * @type {import("@service-stack/auth").StandardSchemaV1<unknown, SignUpPayload>}
 */
const signUpSchema = {
  "~standard": {
    version: 1,
    vendor: "service-stack-demo",
    validate(value) {
      const body = typeof value === "object" && value !== null
        ? /** @type {Record<string, unknown>} */ (value)
        : {};
      /** @type {{ message: string, path: string[] }[]} */
      const issues = [];
      const { username, password, name, email } = body;
      if (typeof username !== "string" || !USERNAME.test(username)) {
        issues.push({
          message: "expected 3-32 lower-case letters, digits, dots, dashes or underscores",
          path: ["username"],
        });
      }
      if (
        typeof password !== "string" || password.length < MIN_PASSWORD ||
        password.length > MAX_PASSWORD
      ) {
        issues.push({
          message: `expected ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`,
          path: ["password"],
        });
      }
      if (name !== undefined && (typeof name !== "string" || name.trim().length > MAX_NAME)) {
        issues.push({ message: `expected at most ${MAX_NAME} characters`, path: ["name"] });
      }
      if (
        email !== undefined && email !== "" && (typeof email !== "string" || !EMAIL.test(email))
      ) {
        issues.push({ message: "expected one email address", path: ["email"] });
      }
      for (const key of Object.keys(body)) {
        if (!["username", "password", "name", "email"].includes(key)) {
          issues.push({ message: "unknown field", path: [key] });
        }
      }
      if (issues.length > 0) return { issues };
      const trimmed = typeof name === "string" ? name.trim() : "";
      return {
        value: {
          username: /** @type {string} */ (username),
          password: /** @type {string} */ (password),
          ...(trimmed === "" ? {} : { name: trimmed }),
          ...(typeof email === "string" && email !== "" ? { email } : {}),
        },
      };
    },
  },
};

/**
 * @typedef {object} SignUpPayload
 * @property {string} username
 * @property {string} password
 * @property {string} [name]
 * @property {string} [email]
 */

/** @typedef {import("./email_demo.mjs").EmailUser} StoredUser */

// Plain ASCII addresses, within what the library accepts as a user's email.
const EMAIL =
  /^(?=.{3,254}$)(?!\.)(?!.*\.\.)[A-Za-z0-9._%+-]{1,64}(?<!\.)@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * Builds the demo app for a server listening at `origin`.
 *
 * @param {DemoOptions} options
 * @returns {Promise<Demo>}
 */
export async function createDemo(options) {
  const { origin, env, runtime, clientModules } = options;
  const log = options.log ?? console.log;
  if (!clientModules.has("client.js")) {
    throw new TypeError("The browser client has no client.js entry: expected it in clientModules.");
  }

  const secretName = SECRET_NAMES.find((name) => (env[name] ?? "") !== "");
  // With a name found, createAuth reads the secret from the environment itself.
  const secret = secretName === undefined ? randomSecret() : undefined;

  const demoPassword = randomPassword();
  const demoHash = await hashPassword(demoPassword);
  /** @type {Map<string, StoredUser>} */
  const users = new Map([
    [DEMO_USERNAME, {
      sub: "user-demo",
      name: "Demo User",
      passwordHash: demoHash,
      email: DEMO_EMAIL,
    }],
  ]);
  const mail = createEmailDemo(users);

  const port = new URL(origin).port;
  const mock = createMockProvider({
    baseURL: `${origin}/mock-oauth`,
    interactive: true,
    // OpenID Connect by discovery: the app knows only the issuer, and checks a signed ID token.
    oidc: { discovery: true },
    users: MOCK_ACCOUNTS.map((account) => ({ ...account })),
    // Exact callback URLs, whichever loopback name the browser uses.
    redirectURIs: [
      ...new Set([origin, `http://localhost:${port}`, `http://127.0.0.1:${port}`]),
    ].map((base) => `${base}/auth/callback/mock`),
  });

  // Linked accounts and provider tokens: see accounts_demo.mjs.
  const accounts = createAccountsDemo({
    userinfo: `${origin}/mock-oauth/userinfo`,
    fetch: mock.fetch,
  });

  // Two-factor sign-in (TOTP and backup codes): see two_factor_demo.mjs.
  const twoFactor = await createTwoFactorDemo({ issuer: "service-stack demo" });
  // Tokens for a sample API on this server, and API keys: see service_tokens_demo.mjs.
  const serviceTokens = await createServiceTokensDemo({ origin });

  /** @type {import("@service-stack/auth").AuthConfig} */
  const authConfig = {
    oauth: [mock.provider],
    twoFactor: twoFactor.config,
    // Linked accounts: the mock's accounts, their tokens sealed, a token call at /demo/provider-token.
    accounts: accounts.config,
    callbacks: { signIn: accounts.signIn },
    ...serviceTokens.config,
    // The server's discovery, JWKS, token and user-info calls go to the in-process mock, not
    // over the network.
    fetch: mock.fetch,
    secret,
    credentials: {
      async authorize({ username, password }) {
        const login = username.trim().toLowerCase();
        // A username, or the address of an account (one made by email has no username).
        const user = users.get(login) ?? mail.userByEmail(login);
        // Without a user it hashes anyway (and answers false): timing does not reveal usernames.
        const valid = await verifyPassword(password, user?.passwordHash);
        return valid && user !== undefined ? sessionUser(user) : null;
      },
      resetPassword: mail.resetPassword,
    },
    // Messages go to the development outbox at /demo/outbox instead of a mail server.
    email: mail.email,
    pages: { resetPassword: RESET_PAGE },
    // Passkeys for the demo users and the mock provider's accounts.
    passkeys: passkeyConfig((sub) =>
      [...users.values()].find((user) => user.sub === sub) ??
        MOCK_ACCOUNTS.find((account) => account.sub === sub)
    ),
    // Sessions are recorded here, so that sign-out really ends them and the page can list and
    // end them; one process only (use redisStore or denoKvStore for several).
    session: { store: memoryStore() },
    signUp: {
      verifyEmail: true,
      schema:
        /** @type {import("@service-stack/auth").StandardSchemaV1<unknown, Record<string, unknown>>} */ (signUpSchema),
      async onCreateUser(payload) {
        const { username, password, name, email } = /** @type {SignUpPayload} */ (payload);
        if (email !== undefined && mail.userByEmail(email) !== undefined) {
          throw new AuthError("invalid_request", "That address has an account; sign in instead.", {
            status: 409,
          });
        }
        if (users.has(username)) {
          throw new AuthError("invalid_request", "That username is taken; choose another one.", {
            status: 409,
          });
        }
        const user = {
          sub: `user-${crypto.randomUUID()}`,
          name: name ?? username,
          passwordHash: await hashPassword(password),
          ...(email === undefined ? {} : { email }),
        };
        // Checked again: another sign-up may have taken the name while hashing.
        if (users.has(username)) {
          throw new AuthError("invalid_request", "That username is taken; choose another one.", {
            status: 409,
          });
        }
        users.set(username, user);
        return sessionUser(user);
      },
    },
  };

  const assets = await loadAssets(runtime, clientModules);

  /**
   * @param {DemoAuth} auth
   * @returns {(request: Request) => Promise<Response>}
   */
  function handler(auth) {
    const devices = deviceEndpoints(auth);
    const twoFactorRoutes = twoFactor.handler(auth);
    const serviceTokenRoutes = serviceTokens.handler(auth);
    return async (request) => {
      const url = new URL(request.url);
      if (twoFactor.handles(url.pathname)) return await twoFactorRoutes(request);
      if (url.pathname === "/demo/provider-token") return await accounts.token(auth, request);
      if (serviceTokens.handles(url.pathname)) return await serviceTokenRoutes(request);
      if (url.pathname === "/mock-oauth" || url.pathname.startsWith("/mock-oauth/")) {
        return await mock.handler(request);
      }
      if (url.pathname === "/demo/sessions" || url.pathname.startsWith("/demo/sessions/")) {
        return await devices(request, url.pathname);
      }
      const outbox = mail.handle(request, url.pathname);
      if (outbox !== undefined) return outbox;
      // Reset links land on the page itself, which shows its "new password" form.
      const asset = assets.get(url.pathname === RESET_PAGE ? "/" : url.pathname);
      if (asset === undefined) {
        return text(
          "Not found: this demo serves /, /app.js, /app.css, /client/*, /auth/*, /demo/sessions, /demo/token, /demo/provider-token, /demo/api/*, " +
            "/demo/outbox and /mock-oauth/*.",
          404,
        );
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        return text("Method not allowed: expected GET or HEAD.", 405, { Allow: "GET, HEAD" });
      }
      // A copy per response: some servers write into the init object (@hono/node-server adds
      // Content-Length to it), which would leak one file's length into the next response.
      return new Response(request.method === "HEAD" ? null : asset.body, {
        headers: { ...asset.headers },
      });
    };
  }

  const secretLine = secretName === undefined
    ? "Secret: AUTH_SECRET is not set, so a random one was generated at startup (sessions end when the server stops)."
    : `Secret: read from ${secretName}.`;
  for (
    const line of [
      `@service-stack/auth demo on ${runtime}`,
      secretLine,
      `Demo user: username "${DEMO_USERNAME}", password "${demoPassword}", email "${DEMO_EMAIL}"`,
      `Development outbox (email is not sent): ${origin}/demo/outbox`,
      `Mock OpenID Connect provider: ${mock.issuer} (consent page; accounts: ${
        MOCK_ACCOUNTS.map((account) => account.name).join(", ")
      })`,
    ]
  ) log(line);

  return { authConfig, handler };
}

/**
 * @param {string} body
 * @param {number} status
 * @param {Record<string, string>} [headers]
 */
function text(body, status, headers = {}) {
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", ...SECURITY_HEADERS, ...headers },
  });
}

/**
 * @param {unknown} body
 * @param {number} status
 * @param {Headers} [headers]
 */
function json(body, status, headers = new Headers()) {
  headers.set("Content-Type", "application/json");
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * @param {string} error
 * @param {string} description
 * @param {number} status
 */
function jsonError(error, description, status) {
  return json({ error, error_description: description }, status);
}

const MAX_DEVICE_BODY = 1024;

/**
 * The "your devices" endpoints, over `auth.api.listSessions`, `revokeSession`
 * and `revokeSessions`, for the signed-in user only:
 *
 * - `GET /demo/sessions`: 200 `{ sessions }`, this request's session marked `current`;
 * - `POST /demo/sessions/end` with `{ id }`: ends one of the user's sessions (404 for any other);
 * - `POST /demo/sessions/end-all`: ends all of them and clears this browser's cookies.
 *
 * `auth.api` checks no CSRF token (it is for trusted server code), so the POSTs
 * check it the way a JSON API can: the `Origin` must be this server's and the
 * body `application/json`, which no cross-site form can send. Without a session
 * they answer 401; a store that fails, 503.
 *
 * @param {DemoAuth} auth
 * @returns {(request: Request, path: string) => Promise<Response>}
 */
function deviceEndpoints(auth) {
  /** @type {Record<string, { method: string, run: (request: Request, sub: string) => Promise<Response> }>} */
  const routes = {
    "/demo/sessions": {
      method: "GET",
      async run(request, sub) {
        const sessions = await auth.api.listSessions(sub, { request });
        return json({ sessions }, 200);
      },
    },
    "/demo/sessions/end": {
      method: "POST",
      async run(request, sub) {
        const body = await readJson(request);
        const id = body?.id;
        if (typeof id !== "string" || id === "" || id.length > 256) {
          return jsonError("invalid_request", "The body has no session id; expected { id }.", 400);
        }
        const mine = await auth.api.listSessions(sub);
        // Only the user's own sessions: an id from anyone else is the same 404 as an unknown one.
        if (!mine.some((session) => session.id === id)) {
          return jsonError("invalid_request", "No such session of yours; it may have ended.", 404);
        }
        await auth.api.revokeSession(id);
        return json({ ended: true }, 200);
      },
    },
    "/demo/sessions/end-all": {
      method: "POST",
      async run(request, sub) {
        const ended = await auth.api.revokeSessions(sub);
        // This browser's cookies go too, so the page shows it signed out at once.
        const signedOut = await auth.api.signOut({ request });
        const headers = new Headers();
        for (const line of signedOut.headers.getSetCookie()) headers.append("Set-Cookie", line);
        return json({ ended }, 200, headers);
      },
    },
  };

  return async (request, path) => {
    const route = routes[path];
    if (route === undefined) {
      return jsonError("invalid_request", "Unknown device endpoint.", 404);
    }
    if (request.method !== route.method) {
      const response = jsonError("invalid_request", `Expected ${route.method}.`, 405);
      response.headers.set("Allow", route.method);
      return response;
    }
    if (route.method === "POST") {
      if (request.headers.get("origin") !== new URL(request.url).origin) {
        return jsonError(
          "access_denied",
          "Cross-origin request; expected this site's Origin.",
          403,
        );
      }
      const type = request.headers.get("content-type") ?? "";
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        return jsonError("invalid_request", "Expected an application/json body.", 415);
      }
    }
    try {
      const session = await auth.api.getSession(request);
      if (session === null) {
        return jsonError("invalid_session_token", "Not signed in; expected a session.", 401);
      }
      return await route.run(request, session.user.sub);
    } catch (error) {
      if (error instanceof BodyError) {
        return jsonError("invalid_request", error.message, error.status);
      }
      // The store failed or timed out: nothing is listed or ended.
      console.error("demo: the session store failed:", error instanceof Error ? error.name : error);
      return jsonError(
        "temporarily_unavailable",
        "The session store is unavailable; try again later.",
        503,
      );
    }
  };
}

/** A body that cannot be read as the small JSON object expected. */
class BodyError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads a small JSON object body.
 *
 * @param {Request} request
 * @returns {Promise<Record<string, unknown>>}
 */
async function readJson(request) {
  const text = await request.text();
  if (text.length > MAX_DEVICE_BODY) {
    throw new BodyError(`The body is too large; expected at most ${MAX_DEVICE_BODY} bytes.`, 413);
  }
  try {
    const value = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  } catch {
    // Falls through to the error below.
  }
  throw new BodyError("The body is not a JSON object; expected { id }.", 400);
}

/** @param {string} value */
function escapeHTML(value) {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** @param {string} value @returns {Promise<string>} base64 of its SHA-256 */
async function sha256Base64(value) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/**
 * The static files, read once: the page (with a Content-Security-Policy that
 * allows only this origin's scripts plus the page's inline import map, by
 * hash), its script and style, and the client modules.
 *
 * @param {string} runtime
 * @param {Map<string, string>} clientModules
 * @returns {Promise<Map<string, { body: string, headers: Record<string, string> }>>}
 */
async function loadAssets(runtime, clientModules) {
  /** @param {string} name */
  const read = (name) => readFile(new URL(`./${name}`, import.meta.url), "utf8");
  const [template, script, style, passkeyScript, accountsScript] = await Promise.all([
    read("page.html"),
    read("app.js"),
    read("page.css"),
    read("passkey_page.js"),
    read("accounts_page.js"),
  ]);
  if (!template.includes("%RUNTIME%")) throw new Error("page.html has no %RUNTIME% placeholder.");
  const html = template.replaceAll("%RUNTIME%", escapeHTML(runtime));
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html);
  if (importMap === null) throw new Error("page.html has no import map; expected one.");
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'sha256-${await sha256Base64(importMap[1])}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  const js = { "Content-Type": "text/javascript; charset=utf-8", ...SECURITY_HEADERS };
  /** @type {Map<string, { body: string, headers: Record<string, string> }>} */
  const assets = new Map([
    ["/", {
      body: html,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": csp,
        ...SECURITY_HEADERS,
      },
    }],
    ["/app.js", { body: script, headers: js }],
    ["/passkey.js", { body: passkeyScript, headers: js }],
    ["/accounts.js", { body: accountsScript, headers: js }],
    ["/app.css", {
      body: style,
      headers: { "Content-Type": "text/css; charset=utf-8", ...SECURITY_HEADERS },
    }],
  ]);
  for (const [path, source] of clientModules) {
    assets.set(`/client/${path}`, { body: source, headers: js });
  }
  return assets;
}

// Static `import`/`export ... from "./x.js"` and `import "./x.js"` at the start of a line, as
// TypeScript emits them (JSDoc examples start with " * " and are skipped).
const RELATIVE_IMPORT = /^(?:import|export)\b(?:[^;"']*?\bfrom)?\s*["'](\.{1,2}\/[^"']+\.js)["']/gm;

/**
 * The browser client as its package publishes it (the npm build, or JSR's
 * npm compatibility layer): `client.js` and every module it imports,
 * relatively, read once from the installed package. Used on Node and Bun,
 * which serve these files as they are; Deno bundles `client.ts` instead.
 *
 * @returns {Promise<Map<string, string>>} Paths relative to the package root, to source.
 */
export async function readPackageClientModules() {
  const resolved = import.meta.resolve("@service-stack/auth/client");
  const entry = resolved.startsWith("/") ? new URL(`file://${resolved}`) : new URL(resolved);
  const root = new URL("./", entry).href;
  /** @type {Map<string, string>} */
  const modules = new Map();
  const pending = [entry];
  while (pending.length > 0) {
    const url = /** @type {URL} */ (pending.pop());
    if (!url.href.startsWith(root)) {
      throw new Error(`The client imports ${url.href}, outside its package; expected it inside.`);
    }
    const path = url.href.slice(root.length);
    if (modules.has(path)) continue;
    const source = await readFile(url, "utf8");
    modules.set(path, source);
    for (const match of source.matchAll(RELATIVE_IMPORT)) pending.push(new URL(match[1], url));
  }
  return modules;
}
