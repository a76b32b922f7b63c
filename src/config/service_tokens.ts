/**
 * `serviceTokens` (access tokens for other services, and `GET /jwks`) and
 * `apiKeys` (keys for scripts): validation, and the settings the routes
 * and the API share.
 *
 * @module
 */

import { isKeyPair } from "../jose/keys.ts";
import type { WebCryptoKeyPair } from "../jose/types.ts";
import { isRecord } from "../is_record.ts";
import { lookupEnv, readRuntimeEnv } from "../env.ts";
import { PREFIX_PATTERN } from "../service_tokens/api_key_format.ts";
import {
  type ApiKeyHashers,
  apiKeyHashers,
  secretBytesOf,
} from "../service_tokens/api_key_hash.ts";
import {
  signingAlgorithmOf,
  type SigningKeys,
  signingKeys,
} from "../service_tokens/signing_keys.ts";
import { bounded, DEFAULT_STORE_TIMEOUT_MS } from "../store/guard.ts";
import { checkApiKeyId, readApiKey } from "../store/_api_keys_validate.ts";
import type { ApiKeyStore, StoredApiKey } from "../store/types.ts";
import { fail, knownKeys } from "./_check.ts";
import type { FeatureInputs } from "./feature.ts";

/**
 * The `serviceTokens` option of `createAuth`: the key pairs that sign
 * access tokens for other services (`api.issueAccessToken`) and that `GET
 * /jwks` publishes.
 *
 * @example
 * ```ts
 * import { createAuth, type ServiceTokensConfig } from "@service-stack/auth";
 *
 * const pair = await crypto.subtle.generateKey("Ed25519", false, ["sign", "verify"]) as CryptoKeyPair;
 * const serviceTokens: ServiceTokensConfig = { keys: [pair], issuer: "https://auth.example.com" };
 * const auth = createAuth({ oauth: [], secret: "a-secret-of-at-least-thirty-two-bytes!!", serviceTokens });
 * ```
 */
export interface ServiceTokensConfig {
  /**
   * Key pairs (ES256, ES384, RS256, PS256 or EdDSA; any asymmetric JWS key
   * pair): the first signs, all are published, so add the next key second,
   * publish it for a while, then move it first. Each key's `kid` is its
   * RFC 7638 thumbprint.
   */
  keys: readonly WebCryptoKeyPair[];
  /** The tokens' `iss`; default `baseURL` (a token's issuer never follows a `Host` header). */
  issuer?: string;
  /** The tokens' `client_id` (RFC 9068); default the issuer. */
  clientId?: string;
}

/**
 * The `apiKeys` option of `createAuth`: API keys for scripts, kept in
 * `store` as keyed hashes only.
 *
 * @example
 * ```ts
 * import { type ApiKeysConfig, createAuth, memoryStore } from "@service-stack/auth";
 *
 * const apiKeys: ApiKeysConfig = { store: memoryStore(), prefix: "acme" };
 * const auth = createAuth({ oauth: [], secret: "a-secret-of-at-least-thirty-two-bytes!!", apiKeys });
 * ```
 */
export interface ApiKeysConfig {
  /** Where keys live: `memoryStore()`, `redisStore(client)`, `denoKvStore(kv)` or your own. */
  store: ApiKeyStore;
  /** The keys' first part, 2 to 8 lower-case letters; default `"sk"`. */
  prefix?: string;
}

/** The resolved `serviceTokens` and `apiKeys` options. */
export interface ServiceTokenSettings {
  readonly serviceTokens?: {
    readonly issuer: string;
    readonly clientId: string;
    /** The signing keys and the JWKS text, exported on first use. */
    readonly keys: () => Promise<SigningKeys>;
  };
  readonly apiKeys?: {
    /** The store, each call bounded by `session.storeTimeout` and its answers checked. */
    readonly store: ApiKeyStore;
    readonly prefix: string;
    /** The hash keys, newest first, derived on first use. */
    readonly hashers: () => Promise<ApiKeyHashers>;
    /** When this instance last touched each key (ms), bounded: `touchApiKey` at most once a minute. */
    readonly touched: Map<string, number>;
  };
}

const STORE_METHODS = [
  "saveApiKey",
  "getApiKey",
  "listApiKeys",
  "deleteApiKey",
  "touchApiKey",
] as const;

function issuerURL(value: string, name: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:") || url.hash) {
    fail(`${name} is not an http(s) URL; expected e.g. "https://auth.example.com".`);
  }
  return value;
}

/** The session's own key pairs in `signed` mode, listed in the JWKS too. */
export function sessionPairs(config: Readonly<Record<string, unknown>>, keys: readonly unknown[]) {
  const jwt = config.jwt;
  const mode = isRecord(jwt) ? jwt.mode : undefined;
  if (mode !== "signed") return [];
  return keys.filter((key): key is WebCryptoKeyPair =>
    isKeyPair(key) && signingAlgorithmOf(key) !== undefined
  );
}

/** Resolves `serviceTokens` (given). */
export function resolveServiceTokens(
  value: unknown,
  inputs: FeatureInputs,
): ServiceTokenSettings {
  if (!isRecord(value)) {
    fail("serviceTokens is not an object; expected { keys: [keyPair], issuer? }.");
  }
  knownKeys(value, "serviceTokens", ["keys", "issuer", "clientId"]);
  const keys = value.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    fail(
      'serviceTokens.keys is not a non-empty array; expected key pairs, e.g. [await crypto.subtle.generateKey("Ed25519", false, ["sign", "verify"])].',
    );
  }
  keys.forEach((pair, index) => {
    if (!isKeyPair(pair) || signingAlgorithmOf(pair) === undefined) {
      fail(
        `serviceTokens.keys[${index}] is not an asymmetric signing key pair; expected a CryptoKeyPair for ES256, ES384, RS256 (2048 bits or more), PS256 or EdDSA.`,
      );
    }
  });
  let issuer: string;
  if (value.issuer !== undefined) {
    if (typeof value.issuer !== "string") {
      fail('serviceTokens.issuer is not a string; expected e.g. "https://auth.example.com".');
    }
    issuer = issuerURL(value.issuer, "serviceTokens.issuer");
  } else {
    const config = inputs.config;
    const env = config.env;
    const read = isRecord(env)
      ? (name: string) => typeof env[name] === "string" ? env[name] as string : undefined
      : readRuntimeEnv;
    const base = typeof config.baseURL === "string" ? config.baseURL : lookupEnv("URL", read);
    if (base === undefined || base === "") {
      fail(
        'serviceTokens needs an issuer: neither serviceTokens.issuer nor baseURL is set; expected one of them, e.g. baseURL: "https://auth.example.com" (a token\'s issuer must not follow the Host header).',
      );
    }
    issuer = new URL(issuerURL(base, "baseURL")).origin;
  }
  const clientId = value.clientId ?? issuer;
  if (typeof clientId !== "string" || clientId === "" || clientId.length > 256) {
    fail("serviceTokens.clientId is invalid; expected a string of 1 to 256 characters.");
  }
  const pairs = sessionPairs(inputs.config, inputs.secrets().keys);
  return {
    serviceTokens: Object.freeze({
      issuer,
      clientId,
      keys: signingKeys(keys as WebCryptoKeyPair[], pairs),
    }),
  };
}

function isApiKeyStore(value: unknown): value is ApiKeyStore {
  return isRecord(value) &&
    STORE_METHODS.every((method) =>
      typeof (value as Record<string, unknown>)[method] === "function"
    );
}

/** Wraps the app's store: each call bounded in time, answers checked (garbage fails closed as 503). */
function guardApiKeyStore(
  store: ApiKeyStore,
  options: { timeoutMs: number; logger: FeatureInputs["logger"] },
): ApiKeyStore {
  const call = <T>(method: string, fn: () => Promise<T>) => bounded(method, fn, options);
  return Object.freeze({
    saveApiKey: (apiKey: StoredApiKey) =>
      call("saveApiKey", async () => {
        await store.saveApiKey(apiKey);
      }),
    getApiKey: (id: string) =>
      call("getApiKey", async () => {
        const found = await store.getApiKey(id);
        return found === null || found === undefined ? null : readApiKey(found, { id });
      }),
    listApiKeys: (sub: string) =>
      call("listApiKeys", async () => {
        const list = await store.listApiKeys(sub);
        if (!Array.isArray(list)) throw new TypeError("listApiKeys answered garbage.");
        return list.map((apiKey) => readApiKey(apiKey, { sub }));
      }),
    deleteApiKey: (id: string) =>
      call("deleteApiKey", async () => Boolean(await store.deleteApiKey(checkApiKeyId(id)))),
    touchApiKey: (id: string, lastUsedAt: number) =>
      call("touchApiKey", async () => {
        await store.touchApiKey(id, lastUsedAt);
      }),
  });
}

/** Resolves `apiKeys` (given). */
export function resolveApiKeys(value: unknown, inputs: FeatureInputs): ServiceTokenSettings {
  if (!isRecord(value)) fail("apiKeys is not an object; expected { store, prefix? }.");
  knownKeys(value, "apiKeys", ["store", "prefix"]);
  if (!isApiKeyStore(value.store)) {
    fail(
      "apiKeys.store is not an ApiKeyStore; expected memoryStore(), redisStore(client), denoKvStore(kv) or an object with saveApiKey, getApiKey, listApiKeys, deleteApiKey and touchApiKey.",
    );
  }
  const prefix = value.prefix ?? "sk";
  if (typeof prefix !== "string" || !PREFIX_PATTERN.test(prefix)) {
    fail('apiKeys.prefix is invalid; expected 2 to 8 lower-case letters, e.g. "sk".');
  }
  const { keys, salt } = inputs.secrets();
  if (keys.length === 0 || secretBytesOf(keys[0]) === null) {
    fail(
      "apiKeys needs a string or byte secret to derive the key hashes from; expected secret (or AUTH_SECRET) to be a string of 32 random bytes or more, first in the list.",
    );
  }
  const session = inputs.config.session;
  const timeout = isRecord(session) ? session.storeTimeout : undefined;
  const timeoutMs = typeof timeout === "number" ? timeout : DEFAULT_STORE_TIMEOUT_MS;
  return {
    apiKeys: Object.freeze({
      store: guardApiKeyStore(value.store, { timeoutMs, logger: inputs.logger }),
      prefix,
      hashers: apiKeyHashers(keys, salt),
      touched: new Map<string, number>(),
    }),
  };
}
