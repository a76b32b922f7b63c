/**
 * `secret` and `jwt.mode`: the JOSE objects for each token purpose
 * (session, CSRF, OAuth flow), each with its own derived keys and `typ`.
 * A list of secrets rotates them: the first issues every token, all are
 * read, and each token's `kid` names its key.
 *
 * @module
 */

import type { Jose, JWTKey, JWTMode } from "../../jose.ts";
import { FLOW_COOKIE_MAX_AGE } from "../cookies/jar.ts";
import { purposeJose, purposeMode, type TokenPurpose } from "../jose/for_purpose.ts";
import { isKeyPair, isWebCryptoKey, type WebCryptoKit } from "../jose/keys.ts";
import type { WebCryptoKeyPair } from "../jose/types.ts";
import { secretLooksWeak } from "../jose/weak_secret.ts";
import { envAccessProblem, type EnvReader, lookupEnv } from "../env.ts";
import type { Logger } from "../logger.ts";
import { fail, knownKeys, optionalObject } from "./_check.ts";

/** Lifetime of a CSRF token, in seconds. */
export const CSRF_MAX_AGE = 2 * 60 * 60;

const MODES: readonly JWTMode[] = ["sealed", "signed", "encrypted"];

/** The JOSE object of each purpose. */
export interface KeySettings {
  /** Session tokens, in the configured mode. */
  readonly sessionJose: Jose;
  /** CSRF tokens: signed (encrypted with a lone encryption key). */
  readonly csrfJose: Jose;
  /** OAuth flow cookies: sealed where the key allows it. */
  readonly flowJose: Jose;
  /** Email links and codes: sealed where the key allows it; `exp` set per token. */
  readonly emailJose: Jose;
  /** Two-factor values (the sealed factor, the pending second step): always encrypted (JWE). */
  readonly twoFactorJose: Jose;
  /** Passkey challenge cookies: sealed where the key allows it; `exp` set per token. */
  readonly passkeyJose: Jose;
  /** Whether tokens of the sealed purposes (flow, email) can be read by whoever holds them. */
  readonly readableFlowTokens: boolean;
  /** In `signed` mode, the key pairs of `secret` (their public keys go into `GET /jwks`). */
  readonly sessionKeyPairs: readonly WebCryptoKeyPair[];
}

/** What the key resolver reads from the config. */
export interface KeyOptions {
  secret?: unknown;
  jwt?: unknown;
}

/**
 * The secrets, newest first. A configured `secret` (one key or a list) is
 * the whole key list: config wins over env, so env `SECRET` and
 * `PREVIOUS_SECRETS` are then not read at all. Without it, env `SECRET`
 * then env `PREVIOUS_SECRETS` (comma- or newline-separated).
 */
function secretList(secret: unknown, read: EnvReader): JWTKey[] {
  if (Array.isArray(secret)) return [...secret];
  if (secret !== undefined && secret !== null && secret !== "") return [secret as JWTKey];
  const current = secret ?? lookupEnv("SECRET", read);
  if (current === undefined || current === "") {
    const denied = envAccessProblem("SECRET", read);
    if (denied !== undefined) {
      fail(
        `no secret was found: ${denied}; expected --allow-env (or --allow-env=AUTH_SECRET, naming the variables you set), or the secret option.`,
      );
    }
    fail(
      "no secret was found; expected AUTH_SECRET (or SECRET) in the environment, or the secret option (generate one with `openssl rand -base64 32`).",
    );
  }
  const previous = (lookupEnv("PREVIOUS_SECRETS", read) ?? "")
    .split(/[,\r\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  return [current as JWTKey, ...previous];
}

/**
 * The configured secrets, newest first, and the salt, for a feature that
 * derives keys of its own (passkey user handles). Call it after
 * {@link resolveKeys}, which reports a missing secret.
 */
export function configuredSecrets(
  options: KeyOptions,
  read: EnvReader,
): { keys: readonly JWTKey[]; salt: string | undefined } {
  return { keys: secretList(options.secret, read), salt: lookupEnv("SALT", read) };
}

/** What {@link resolveKeys} needs besides the config. */
export interface KeyContext {
  read: EnvReader;
  maxAge: number;
  clock: () => number;
  logger: Logger;
  /**
   * Support for Web Crypto keys in `secret`: always with `createAuth` of
   * `mod.ts`, only with the `webCryptoKeys` feature with that of `core.ts`.
   */
  webCrypto: WebCryptoKit | undefined;
}

// Kept apart so that no message reads as an import statement to the import checks.
const CORE_ENTRY = '"@service-stack/auth/core"';

/** Resolves the secrets and `jwt.mode` into the per-purpose JOSE objects. */
export function resolveKeys(options: KeyOptions, context: KeyContext): KeySettings {
  const keys = secretList(options.secret, context.read);
  if (keys.length === 0) fail("secret is an empty list; expected at least one secret.");
  const { webCrypto } = context;
  if (webCrypto === undefined && keys.some(isWebCryptoKey)) {
    fail(
      `secret holds a CryptoKey, CryptoKeyPair or { sign, encrypt }, which needs the webCryptoKeys feature with createAuth of core.ts; expected import { webCryptoKeys } from ${CORE_ENTRY} and features: [webCryptoKeys].`,
    );
  }
  optionalObject(options.jwt, "jwt", '{ mode: "sealed" }');
  knownKeys(options.jwt, "jwt", ["mode"]);
  const mode = ((options.jwt ?? {}) as { mode?: JWTMode }).mode ?? "sealed";
  if (!MODES.includes(mode)) {
    fail('jwt.mode is unknown; expected "sealed", "signed" or "encrypted".');
  }
  const common = { salt: lookupEnv("SALT", context.read), clock: context.clock, mode };
  const jose = (purpose: TokenPurpose, maxAge?: number) =>
    purposeJose(keys, { ...common, purpose, maxAge }, webCrypto);
  let settings: KeySettings;
  try {
    settings = Object.freeze({
      sessionJose: jose("session", context.maxAge),
      csrfJose: jose("csrf", CSRF_MAX_AGE),
      flowJose: jose("oauth-flow", FLOW_COOKIE_MAX_AGE),
      emailJose: jose("email", FLOW_COOKIE_MAX_AGE),
      twoFactorJose: jose("two-factor"),
      passkeyJose: jose("passkey", FLOW_COOKIE_MAX_AGE),
      readableFlowTokens: purposeMode(keys[0], "email", mode, webCrypto) === "signed",
      sessionKeyPairs: Object.freeze(mode === "signed" ? keys.filter(isKeyPair) : []),
    });
  } catch (error) {
    // A short or unusable secret is a config error like any other: TypeError, naming the option.
    fail(`the secret is invalid: ${error instanceof Error ? error.message : "unusable key"}`);
  }
  keys.forEach((key, index) => {
    if ((typeof key === "string" || key instanceof Uint8Array) && secretLooksWeak(key)) {
      context.logger.log("warn", "the secret looks weak: use 32 random bytes", {
        secret: index === 0 ? "current" : `previous #${index}`,
        expected: "openssl rand -base64 32",
      });
    }
  });
  return settings;
}
