/**
 * `twoFactor`: TOTP codes and backup codes as a second step after every
 * first factor. The library seals each user's factor into one opaque
 * string; `save` keeps it in the app's user record and `load` returns it.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { fail, knownKeys, pageAppName } from "./_check.ts";
import type { FeatureInputs } from "./feature.ts";

/**
 * The `twoFactor` option of `createAuth`.
 *
 * @example
 * ```ts
 * import { createAuth, type TwoFactorConfig } from "@service-stack/auth";
 *
 * const factors = new Map<string, string>(); // your user records
 * const twoFactor: TwoFactorConfig = {
 *   load: (sub) => factors.get(sub) ?? null,
 *   save: (sub, value) => {
 *     if (value === null) factors.delete(sub);
 *     else factors.set(sub, value);
 *   },
 *   issuer: "My App",
 * };
 * const auth = createAuth({ oauth: [], secret: "a-secret-of-at-least-thirty-two-bytes!!", twoFactor });
 * ```
 */
export interface TwoFactorConfig {
  /**
   * The user's sealed factor as `save` last stored it, or `null` (or
   * `undefined`) when two-factor is off for them. Return exactly what
   * `save` was given: anything else is refused (500, logged), never taken
   * for "off".
   */
  load: (
    sub: string,
    request: Request,
  ) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * Stores the sealed factor in the user's record (an opaque string of
   * about 1,000 characters), or `null` to turn two-factor off. A throw
   * answers 500 `server_error` and is logged; nothing else is saved.
   */
  save: (sub: string, value: string | null, request: Request) => void | Promise<void>;
  /** The app's name shown in authenticator apps (no ":"); default the host name of the request. */
  issuer?: string;
}

/** The resolved `twoFactor` option. */
export interface TwoFactorSettings {
  readonly twoFactor?: {
    readonly load: (sub: string, request: Request) => unknown;
    readonly save: (sub: string, value: string | null, request: Request) => unknown;
    readonly issuer?: string;
    /** The app's name on the built-in second-step page. */
    readonly appName?: string;
  };
}

/** Resolves `twoFactor` (given); its routes answer 404 without it. */
export function resolveTwoFactor(value: unknown, inputs: FeatureInputs): TwoFactorSettings {
  if (!isRecord(value)) {
    fail("twoFactor is not an object; expected { load(sub, request), save(sub, value, request) }.");
  }
  knownKeys(value, "twoFactor", ["load", "save", "issuer"]);
  if (typeof value.load !== "function" || typeof value.save !== "function") {
    fail(
      "twoFactor is invalid; expected load(sub, request) and save(sub, value, request) functions.",
    );
  }
  const issuer = value.issuer;
  if (
    issuer !== undefined &&
    (typeof issuer !== "string" || issuer === "" || issuer.length > 64 || issuer.includes(":"))
  ) {
    fail('twoFactor.issuer is invalid; expected the app\'s name, 1 to 64 characters without ":".');
  }
  if (inputs.readableFlowTokens) {
    fail(
      "twoFactor needs values nobody can read, and a lone signing key cannot encrypt; expected a string secret, { sign, encrypt } or an encryption key.",
    );
  }
  const settings: NonNullable<TwoFactorSettings["twoFactor"]> = {
    load: value.load as NonNullable<TwoFactorSettings["twoFactor"]>["load"],
    save: value.save as NonNullable<TwoFactorSettings["twoFactor"]>["save"],
    ...(issuer === undefined ? {} : { issuer: issuer as string }),
    appName: pageAppName(inputs.config),
  };
  return Object.freeze({ twoFactor: Object.freeze(settings) });
}
