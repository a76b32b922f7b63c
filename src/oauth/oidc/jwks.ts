/**
 * A provider's JSON Web Key Set (RFC 7517) for verifying its ID tokens:
 * fetched from `jwks_uri` within the provider-call limits, parsed leniently
 * (keys of unknown type, curve, algorithm or use are skipped, never fatal),
 * imported once per key and algorithm, and refreshed on the schedule
 * DECISIONS.md fixes: after an hour, and at once for the first token whose
 * `kid` the cached set lacks, then at most once a minute for unknown `kid`s.
 *
 * @module
 */

import { type JWSKey, prepareJWSKey } from "../../jose/jws.ts";
import type { JWSAlgorithm } from "../../jose/types.ts";
import type { AuthError } from "../../errors.ts";
import { isRecord } from "../../is_record.ts";
import { providerError } from "../provider_fetch.ts";
import { getProviderJSON, providerURL } from "./_http.ts";

/** What a token's protected header says about its key. */
export interface KeyLookup {
  /** The token's `alg`, already checked against the allow-list. */
  alg: string;
  /** The token's `kid`, when it has one. */
  kid?: string;
}

/** A source of verification keys for ID tokens; {@link createJwks} makes one. */
export interface IdTokenKeySource {
  /**
   * The one key that verifies a token with this header, or a 502 `AuthError`
   * when the set has none (or several) for it.
   */
  getKey(lookup: KeyLookup): Promise<JWSKey>;
  /**
   * Makes sure the set has been read (fetching it when it was never read or
   * is older than its maximum age); a 502 `AuthError` when it cannot be.
   * Optional: sources other than {@link createJwks} need not have it.
   */
  load?(): Promise<void>;
  /** Whether the set has been read and is younger than its maximum age (nothing to load). */
  fresh?(): boolean;
}

/**
 * The public members of a key as imported (`kty` and `n`, `e` or `crv`,
 * `x`, `y`): plain strings, so that the published declarations need no DOM
 * `JsonWebKey` type.
 */
export type PublicJwk = Readonly<Record<string, string>>;

/** One usable key of a set and the algorithms it may verify. */
export interface JwkEntry {
  /** The key's `kid`, when it has one. */
  readonly kid?: string;
  /** The algorithms this key may verify (its `alg`, or every one its type allows). */
  readonly algorithms: readonly JWSAlgorithm[];
  /** The public members only, as imported. */
  readonly jwk: PublicJwk;
  /** A stable text of the public members, to keep imports across refreshes. */
  readonly id: string;
}

const RSA_ALGORITHMS: readonly JWSAlgorithm[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
];
const EC_ALGORITHMS: Readonly<Record<string, JWSAlgorithm>> = {
  "P-256": "ES256",
  "P-384": "ES384",
  "P-521": "ES512",
};
/** Keys past this many in one set are ignored. */
const MAX_KEYS = 100;
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k"];

function member(jwk: Record<string, unknown>, name: string): string | undefined {
  const value = jwk[name];
  return typeof value === "string" && value !== "" && value.length <= 4096 ? value : undefined;
}

/** The entry for one JWK, or `null` when the key is not one this module verifies with. */
function parseKey(jwk: unknown): JwkEntry | null {
  if (!isRecord(jwk)) return null;
  if (jwk.use !== undefined && jwk.use !== "sig") return null;
  if (
    jwk.key_ops !== undefined &&
    !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes("verify"))
  ) return null;
  if (jwk.kid !== undefined && (typeof jwk.kid !== "string" || jwk.kid.length > 256)) return null;
  // Private members in a published set: the key is compromised, so it verifies nothing.
  if (PRIVATE_MEMBERS.some((name) => jwk[name] !== undefined)) return null;
  if (jwk.alg !== undefined && typeof jwk.alg !== "string") return null;
  // RFC 9864 names EdDSA over Ed25519 "Ed25519".
  const alg = jwk.alg === "Ed25519" ? "EdDSA" : jwk.alg as string | undefined;
  let algorithms: readonly JWSAlgorithm[];
  let publicJwk: PublicJwk;
  switch (jwk.kty) {
    case "RSA": {
      const n = member(jwk, "n");
      const e = member(jwk, "e");
      if (n === undefined || e === undefined) return null;
      publicJwk = { kty: "RSA", n, e };
      algorithms = RSA_ALGORITHMS;
      break;
    }
    case "EC": {
      const crv = member(jwk, "crv");
      const x = member(jwk, "x");
      const y = member(jwk, "y");
      if (crv === undefined || !Object.hasOwn(EC_ALGORITHMS, crv)) return null;
      if (x === undefined || y === undefined) return null;
      publicJwk = { kty: "EC", crv, x, y };
      algorithms = [EC_ALGORITHMS[crv]];
      break;
    }
    case "OKP": {
      const x = member(jwk, "x");
      if (jwk.crv !== "Ed25519" || x === undefined) return null;
      publicJwk = { kty: "OKP", crv: "Ed25519", x };
      algorithms = ["EdDSA"];
      break;
    }
    default:
      return null;
  }
  if (alg !== undefined) {
    if (!algorithms.includes(alg as JWSAlgorithm)) return null;
    algorithms = [alg as JWSAlgorithm];
  }
  return entry(jwk.kid as string | undefined, algorithms, publicJwk);
}

function entry(
  kid: string | undefined,
  algorithms: readonly JWSAlgorithm[],
  jwk: PublicJwk,
): JwkEntry {
  return Object.freeze({ kid, algorithms, jwk, id: JSON.stringify(jwk) });
}

/**
 * The usable keys of a JWKS document: RSA (RS256/384/512, PS256/384/512),
 * EC P-256/384/521 (ES256/384/512) and Ed25519 (EdDSA) public keys whose
 * `use` (if any) is `sig` and whose `alg` (if any) fits their type. Every
 * other key is skipped; a document without a `keys` array is a 502
 * `AuthError`.
 *
 * @example
 * ```ts
 * import { parseJwks } from "./jwks.ts";
 * const keys = parseJwks({ keys: [{ kty: "oct", k: "c2VjcmV0" }] });
 * keys.length; // 0: symmetric keys never verify ID tokens
 * ```
 */
export function parseJwks(document: unknown): JwkEntry[] {
  if (!isRecord(document) || !Array.isArray(document.keys)) {
    throw providerError("The provider's JWKS has no keys array; expected a JWK Set.");
  }
  const entries: JwkEntry[] = [];
  for (const jwk of document.keys.slice(0, MAX_KEYS)) {
    const parsed = parseKey(jwk);
    if (parsed !== null) entries.push(parsed);
  }
  return entries;
}

/** Web Crypto import parameters for a JWS algorithm. */
function importParams(alg: JWSAlgorithm): RsaHashedImportParams | EcKeyImportParams | Algorithm {
  const bits = alg.slice(2);
  switch (alg.slice(0, 2)) {
    case "RS":
      return { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${bits}` };
    case "PS":
      return { name: "RSA-PSS", hash: `SHA-${bits}` };
    case "ES":
      return { name: "ECDSA", namedCurve: bits === "512" ? "P-521" : `P-${bits}` };
    default:
      return { name: "Ed25519" };
  }
}

/** Options of {@link createJwks}. */
export interface JwksOptions {
  /** The fetch to use (the instance's); wrapped with a timeout and `redirect: "error"`. */
  fetch: typeof fetch;
  /** The clock, in ms since the epoch; default `Date.now`. */
  now?: () => number;
  /** Age after which the set is fetched again, in ms; default one hour. */
  maxAgeMs?: number;
  /** After a refetch for an unknown `kid`, the least time before the next one, in ms; default one minute. */
  unknownKeyCooldownMs?: number;
  /** Timeout of each request and of reading its body, in ms; default 10 s. */
  timeoutMs?: number;
}

/** A cached entry: the parsed key plus its imports by algorithm (`null`: failed to import). */
interface CachedKey {
  entry: JwkEntry;
  imports: Map<JWSAlgorithm, Promise<JWSKey | null>>;
}

function noKey(): AuthError {
  return providerError(
    "The provider's JWKS has no key for the ID token; expected its signing key.",
  );
}

/**
 * Creates the key set of one provider. Nothing is fetched until the first
 * {@link IdTokenKeySource.getKey}; then the set is reused until `maxAgeMs`
 * passes. A token whose key the set lacks refetches it at once the first
 * time, however recent the copy; later such refetches are at most one per
 * `unknownKeyCooldownMs`, so that a stream of unknown `kid`s cannot turn
 * into a stream of requests. Concurrent callers share one request. Each key
 * is imported once per algorithm, so a warm lookup costs no Web Crypto call.
 *
 * A token with a `kid` uses the key with that `kid`; one without uses the
 * single key that fits its `alg` (several fitting keys are refused).
 *
 * @example
 * ```ts ignore
 * import { createJwks } from "./jwks.ts";
 * const jwks = createJwks("https://www.googleapis.com/oauth2/v3/certs", { fetch });
 * const key = await jwks.getKey({ alg: "RS256", kid: "abc" }); // for verifyWithKey
 * ```
 */
export function createJwks(jwksUri: string, options: JwksOptions): IdTokenKeySource {
  if (providerURL(jwksUri, true) === null) {
    throw new TypeError(
      `The jwks_uri is not an https URL; expected e.g. "https://id.example.com/jwks" (http only for localhost).`,
    );
  }
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? 60 * 60 * 1000;
  const cooldownMs = options.unknownKeyCooldownMs ?? 60 * 1000;
  let keys: CachedKey[] | undefined;
  let fetchedAt = 0;
  let lastUnknownRefetch = -Infinity;
  let pending: Promise<CachedKey[]> | undefined;

  async function fetchKeys(): Promise<CachedKey[]> {
    const answer = await getProviderJSON(jwksUri, "JWKS", {
      ...options,
      accept: "application/jwk-set+json, application/json",
    });
    if (!answer.ok) {
      throw providerError(`The provider's JWKS endpoint answered ${answer.status}; expected keys.`);
    }
    const previous = new Map((keys ?? []).map((cached) => [cached.entry.id, cached.imports]));
    return parseJwks(answer.data).map((entry) => ({
      entry,
      imports: previous.get(entry.id) ?? new Map(),
    }));
  }

  function refresh(): Promise<CachedKey[]> {
    pending ??= fetchKeys().then((fresh) => {
      keys = fresh;
      fetchedAt = now();
      return fresh;
    }).finally(() => {
      pending = undefined;
    });
    return pending;
  }

  function importKey(cached: CachedKey, alg: JWSAlgorithm): Promise<JWSKey | null> {
    let imported = cached.imports.get(alg);
    if (imported === undefined) {
      imported = crypto.subtle.importKey(
        "jwk",
        cached.entry.jwk as JsonWebKey,
        importParams(alg),
        false,
        [
          "verify",
        ],
      ).then(
        // Pins the algorithm and refuses RSA moduli under 2048 bits.
        (key) => prepareJWSKey(key, "verify"),
      ).catch(() => null);
      cached.imports.set(alg, imported);
    }
    return imported;
  }

  /** The one usable key for the lookup, `null` when none, an error when several. */
  async function select(set: CachedKey[], lookup: KeyLookup): Promise<JWSKey | null> {
    const alg = lookup.alg as JWSAlgorithm;
    const candidates = set.filter((cached) =>
      cached.entry.algorithms.includes(alg) &&
      (lookup.kid === undefined || cached.entry.kid === lookup.kid)
    );
    const imported = (await Promise.all(candidates.map((cached) => importKey(cached, alg))))
      .filter((key): key is JWSKey => key !== null);
    if (imported.length > 1) {
      throw providerError(
        "The provider's JWKS has several keys for the ID token; expected exactly one.",
      );
    }
    return imported[0] ?? null;
  }

  async function getKey(lookup: KeyLookup): Promise<JWSKey> {
    let set: CachedKey[];
    let fresh = false;
    if (pending !== undefined) {
      set = await pending;
      fresh = true;
    } else if (keys === undefined || now() - fetchedAt >= maxAgeMs) {
      set = await refresh();
      fresh = true;
    } else {
      set = keys;
    }
    const key = await select(set, lookup);
    if (key !== null) return key;
    // A set fetched during this call is as new as the token: asking again gains nothing.
    if (fresh) throw noKey();
    // Joins a refetch already under way (another unknown kid) before counting a new one.
    let refetch = pending;
    if (refetch === undefined) {
      if (now() - lastUnknownRefetch < cooldownMs) throw noKey();
      lastUnknownRefetch = now();
      refetch = refresh();
    }
    const again = await select(await refetch, lookup);
    if (again === null) throw noKey();
    return again;
  }

  async function load(): Promise<void> {
    if (pending !== undefined) await pending;
    else if (keys === undefined || now() - fetchedAt >= maxAgeMs) await refresh();
  }

  function fresh(): boolean {
    return pending === undefined && keys !== undefined && now() - fetchedAt < maxAgeMs;
  }

  return { getKey, load, fresh };
}

/** Key sets per `jwks_uri`, for one instance; {@link createJwksCache} makes one. */
export interface JwksCache {
  /** The key set of `jwksUri`, the same object on every call for the same URI. */
  get(jwksUri: string): IdTokenKeySource;
}

/** Key sets a cache keeps; the oldest is dropped past this many. */
const MAX_KEY_SETS = 64;

/**
 * Creates one instance's key sets, one per `jwks_uri`, so that every sign-in
 * with a provider shares its cached keys and its refetch budget (a key set
 * made per request would refetch on every token). A `jwks_uri` that changes
 * with a refreshed discovery document gets a set of its own.
 *
 * @example
 * ```ts ignore
 * import { createJwksCache } from "./jwks.ts";
 * const keySets = createJwksCache({ fetch });
 * const keys = keySets.get(metadata.jwks_uri); // pass as `keys` to validateIdToken
 * ```
 */
export function createJwksCache(
  options: JwksOptions & {
    /** Key sets kept at most, least recently used dropped first; default 64. */
    maxSets?: number;
  },
): JwksCache {
  const sets = new Map<string, IdTokenKeySource>();
  const maxSets = options.maxSets ?? MAX_KEY_SETS;
  const lru = options.maxSets !== undefined;
  return {
    get(jwksUri: string): IdTokenKeySource {
      let set = sets.get(jwksUri);
      if (set === undefined) {
        set = createJwks(jwksUri, options);
        if (sets.size >= maxSets) sets.delete(sets.keys().next().value!);
        sets.set(jwksUri, set);
      } else if (lru) {
        // A hit moves the set last, so that the least recently used goes first.
        sets.delete(jwksUri);
        sets.set(jwksUri, set);
      }
      return set;
    },
  };
}
