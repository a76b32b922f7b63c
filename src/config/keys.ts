/**
 * `secret` and `jwt.mode`: the JOSE objects for each token purpose
 * (session, CSRF, OAuth flow), each with its own derived keys and `typ`.
 *
 * @module
 */

import { createJose, type Jose, type JWTKey, type JWTMode } from "../../jose.ts";
import { FLOW_COOKIE_MAX_AGE } from "../cookies/jar.ts";
import type { EnvReader } from "../env.ts";
import { lookupEnv } from "../env.ts";
import { isRecord } from "../is_record.ts";
import { fail, knownKeys, optionalObject } from "./_check.ts";

/** Lifetime of a CSRF token, in seconds. */
export const CSRF_MAX_AGE = 2 * 60 * 60;

const MODES: readonly JWTMode[] = ["sealed", "signed", "encrypted"];

/** The JOSE object of each purpose. */
export interface KeySettings {
  /** Session tokens, in the configured mode. */
  readonly sessionJose: Jose;
  /** CSRF tokens: signed. */
  readonly csrfJose: Jose;
  /** OAuth flow cookies: sealed where the secret allows it. */
  readonly flowJose: Jose;
}

/** What the key resolver reads from the config. */
export interface KeyOptions {
  secret?: unknown;
  jwt?: unknown;
}

/** Resolves the secret (config, else env `SECRET`) and `jwt.mode` into the per-purpose JOSE objects. */
export function resolveKeys(
  options: KeyOptions,
  context: { read: EnvReader; maxAge: number; clock: () => number },
): KeySettings {
  const secret = (options.secret ?? lookupEnv("SECRET", context.read)) as JWTKey | undefined;
  if (secret === undefined || secret === "") {
    fail(
      "no secret was found; expected AUTH_SECRET (or SECRET) in the environment, or the secret option (generate one with `openssl rand -base64 32`).",
    );
  }
  optionalObject(options.jwt, "jwt", '{ mode: "sealed" }');
  knownKeys(options.jwt, "jwt", ["mode"]);
  const mode = ((options.jwt ?? {}) as { mode?: JWTMode }).mode ?? "sealed";
  if (!MODES.includes(mode)) {
    fail('jwt.mode is unknown; expected "sealed", "signed" or "encrypted".');
  }
  const common = { salt: lookupEnv("SALT", context.read), clock: context.clock };
  try {
    return Object.freeze({
      sessionJose: createJose(secret, {
        ...common,
        mode,
        purpose: "session",
        maxAge: context.maxAge,
      }),
      csrfJose: createJose(secret, {
        ...common,
        mode: "signed",
        purpose: "csrf",
        maxAge: CSRF_MAX_AGE,
      }),
      flowJose: createJose(secret, {
        ...common,
        mode: flowMode(secret, mode),
        purpose: "oauth-flow",
        maxAge: FLOW_COOKIE_MAX_AGE,
      }),
    });
  } catch (error) {
    // A short or unusable secret is a config error like any other: TypeError, naming the option.
    fail(`the secret is invalid: ${error instanceof Error ? error.message : "unusable key"}`);
  }
}

/**
 * Flow cookies must be confidential and tamper-proof: sealed when the secret
 * allows it; with a lone key pair the session mode decides.
 */
function flowMode(secret: JWTKey, mode: JWTMode): JWTMode {
  if (typeof secret === "string" || secret instanceof Uint8Array) return "sealed";
  if (isRecord(secret) && "sign" in secret && "encrypt" in secret) return "sealed";
  return mode;
}
