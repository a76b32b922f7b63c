/**
 * `createAuth`: builds the frozen context once and exposes the handlers, the
 * server API and the JOSE object.
 *
 * @module
 */

import { type AuthAPI, createAPI } from "./api.ts";
import { type AuthConfig, type AuthContext, buildContext, isBuildPhase } from "./config.ts";
import { createHandler, type Handler } from "./handler.ts";
import type { Jose } from "../jose.ts";
import type { AuthFeature } from "./config/feature.ts";
import { ALL_FEATURES } from "./features/mod.ts";
import { builtInProviders } from "./oauth/providers/mod.ts";
import type { BuiltInTable } from "./oauth/provider_lookup.ts";
import type { User } from "./types.ts";

/** The HTTP handlers: one per method, and `ALL` for every method (including CORS preflights). */
export interface AuthHandlers {
  /** Handles `GET` routes. */
  GET: Handler;
  /** Handles `POST` routes. */
  POST: Handler;
  /** Handles `PATCH` routes. */
  PATCH: Handler;
  /** Handles `DELETE` routes (`DELETE /passkeys/:id`). */
  DELETE: Handler;
  /** Handles every method, `OPTIONS` preflights included. */
  ALL: Handler;
}

/** An instance: handlers, server API and the session JOSE object. */
export interface Auth<U extends User = User> {
  /** HTTP handlers to mount at `basePath`. */
  handlers: AuthHandlers;
  /** The server API for trusted server code. */
  api: AuthAPI<U>;
  /** The JOSE object that signs and encrypts session tokens. */
  jose: Jose;
}

// A function, so that an instance deferred by the build phase resolves its context on use.
const contexts = new WeakMap<object, () => AuthContext>();

/** The context of an instance made by {@link createAuth} (for `signInAs`); throws for anything else. */
export function contextOf(auth: unknown): AuthContext {
  const ctx = typeof auth === "object" && auth !== null ? contexts.get(auth) : undefined;
  if (ctx === undefined) {
    throw new TypeError("auth is not an instance; expected the value createAuth returned.");
  }
  return ctx();
}

/**
 * Creates an instance. Throws a `TypeError` at once, naming the fix, when
 * the configuration is wrong (no secret, a short secret, a bad `basePath`,
 * a value of the wrong type, a built-in provider without credentials).
 *
 * One exception: while `next build` runs (`NEXT_PHASE` is
 * `phase-production-build`), which imports route modules without the
 * runtime secrets, a configuration that fails does not throw here: the
 * instance builds itself on first use and every handler or method throws
 * that `TypeError` until it can. `next start` and any other process still
 * throw at once.
 *
 * @example
 * ```ts
 * import { createAuth } from "@service-stack/auth";
 *
 * const auth = createAuth({
 *   oauth: ["github"],
 *   secret: Deno.env.get("AUTH_SECRET"),
 *   credentials: {
 *     authorize: ({ username, password }) =>
 *       username === "ada" && password === "correct horse" ? { sub: "1", name: "Ada" } : null,
 *   },
 * });
 *
 * Deno.serve((request) => auth.handlers.ALL(request));
 * ```
 */
export function createAuth<
  U extends User = User,
  P extends Record<string, unknown> = Record<string, unknown>,
>(config: AuthConfig<U, P>): Auth<U> {
  return authWith(config, { builtIns: builtInProviders, features: ALL_FEATURES });
}

/** What an entry point always includes: its built-in providers by id and its features. */
export interface Included {
  /** The built-in providers looked up by id. */
  builtIns: BuiltInTable;
  /** The optional features included whatever `config.features` says. */
  features: readonly AuthFeature[];
}

/**
 * Creates an instance whose provider ids are looked up in `builtIns` and
 * which always has `features`: the built-in table and every feature for
 * {@link createAuth}, none of either for `createAuth` of `core.ts`, which
 * then bundles only the providers and features an app passes.
 */
export function authWith<
  U extends User = User,
  P extends Record<string, unknown> = Record<string, unknown>,
>(config: AuthConfig<U, P>, included: Included): Auth<U> {
  try {
    return instantiate<U>(config as unknown as AuthConfig, included);
  } catch (error) {
    if (!(error instanceof TypeError) || !isBuildPhase(config)) throw error;
    return deferred<U>(config as unknown as AuthConfig, included);
  }
}

function instantiate<U extends User>(config: AuthConfig, included: Included): Auth<U> {
  const ctx = buildContext(config, included);
  const auth: Auth<U> = Object.freeze({
    handlers: Object.freeze({
      GET: createHandler(ctx, "GET"),
      POST: createHandler(ctx, "POST"),
      PATCH: createHandler(ctx, "PATCH"),
      DELETE: createHandler(ctx, "DELETE"),
      ALL: createHandler(ctx),
    }),
    api: createAPI<U>(ctx),
    jose: ctx.sessionJose,
  });
  contexts.set(auth, () => ctx);
  return auth;
}

/**
 * An instance for `next build`: the same handlers and methods, each of which
 * builds the real instance first (throwing its config error until it can).
 */
function deferred<U extends User>(config: AuthConfig, included: Included): Auth<U> {
  let real: Auth<U> | undefined;
  const resolve = () => (real ??= instantiate<U>(config, included));
  // A throwaway valid instance gives the exact method names, so none is missed.
  const shape = instantiate({
    oauth: [],
    secret: crypto.getRandomValues(new Uint8Array(32)),
    env: {},
    logger: false,
  }, included);
  function methods<T extends object>(pick: (auth: Auth<U>) => T, names: object): T {
    const entries = Object.keys(names).map((name) => [
      name,
      async (...args: unknown[]) =>
        await (pick(resolve()) as Record<string, (...args: unknown[]) => unknown>)[name](...args),
    ]);
    return Object.freeze(Object.fromEntries(entries)) as T;
  }
  const auth: Auth<U> = Object.freeze({
    handlers: methods((a) => a.handlers, shape.handlers),
    api: methods((a) => a.api, shape.api),
    jose: methods((a) => a.jose, shape.jose),
  });
  contexts.set(auth, () => contextOf(resolve()));
  return auth;
}
