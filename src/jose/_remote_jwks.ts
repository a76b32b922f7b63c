/**
 * A remote JSON Web Key Set for {@link verifyAccessToken}: fetched over
 * `https:` (plain `http:` only on loopback hosts), at most 256 KiB, in 10
 * seconds, without following redirects; parsed strictly for signing keys
 * (RSA with an `alg`, EC P-256/384/521, Ed25519; `use` absent or `sig`; no
 * private members; symmetric keys skipped), each imported once. The set is
 * reused for 10 minutes; a token whose `kid` it lacks refetches it at once,
 * later unknown `kid`s at most once a minute, and concurrent callers share
 * one request. A failed fetch fails closed, and for 5 seconds after it no
 * token triggers another.
 *
 * @module
 */

import { fail } from "./_common.ts";
import { type JWSKey, prepareJWSKey } from "./jws.ts";
import type { JWSAlgorithm } from "./types.ts";

/** Age after which a cached set is fetched again, in ms. */
export const JWKS_MAX_AGE_MS = 10 * 60 * 1000;
/** Least time between two refetches for unknown `kid`s, in ms. */
export const JWKS_UNKNOWN_KID_COOLDOWN_MS = 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;
/** After a failed fetch, the time during which tokens that need a fetch are refused without one, in ms. */
export const JWKS_FAILURE_BACKOFF_MS = 5_000;
const MAX_JWKS_BYTES = 256 * 1024;
const MAX_KEYS = 100;
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];
const RSA_ALGS = new Set(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]);
const EC_ALGS: Readonly<Record<string, JWSAlgorithm>> = {
  "P-256": "ES256",
  "P-384": "ES384",
  "P-521": "ES512",
};

/** One key of a set: its kid, algorithm and import. */
interface RemoteKey {
  readonly kid?: string;
  readonly alg: JWSAlgorithm;
  readonly id: string;
  readonly jwk: Readonly<Record<string, string>>;
  imported?: Promise<JWSKey | null>;
}

/** What a remote key set needs: the fetch to use. */
export interface RemoteJwksOptions {
  fetch: typeof fetch;
}

/** A cached remote key set; {@link remoteJwks} returns the one of a URL. */
export interface RemoteJwks {
  /**
   * The one key for a token's `alg` and `kid` at `nowMs`; rejects with a
   * `JoseError` when there is none.
   */
  getKey(alg: string, kid: string | undefined, nowMs: number): Promise<JWSKey>;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= 4096 ? value : undefined;
}

function parseKey(jwk: unknown): RemoteKey | null {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) return null;
  const key = jwk as Record<string, unknown>;
  if (key.use !== undefined && key.use !== "sig") return null;
  if (
    key.key_ops !== undefined && !(Array.isArray(key.key_ops) && key.key_ops.includes("verify"))
  ) {
    return null;
  }
  if (key.kid !== undefined && text(key.kid) === undefined) return null;
  // A set that publishes private members is compromised: such a key verifies nothing.
  if (PRIVATE_MEMBERS.some((name) => key[name] !== undefined)) return null;
  let alg: JWSAlgorithm;
  let publicJwk: Record<string, string>;
  switch (key.kty) {
    case "RSA": {
      const [n, e] = [text(key.n), text(key.e)];
      // RS and PS keys look alike: an RSA key without its alg would let a token choose.
      if (n === undefined || e === undefined || !RSA_ALGS.has(key.alg as string)) return null;
      alg = key.alg as JWSAlgorithm;
      publicJwk = { kty: "RSA", n, e };
      break;
    }
    case "EC": {
      const [crv, x, y] = [text(key.crv), text(key.x), text(key.y)];
      if (crv === undefined || x === undefined || y === undefined) return null;
      if (!Object.hasOwn(EC_ALGS, crv)) return null;
      alg = EC_ALGS[crv];
      if (key.alg !== undefined && key.alg !== alg) return null;
      publicJwk = { kty: "EC", crv, x, y };
      break;
    }
    case "OKP": {
      const x = text(key.x);
      if (key.crv !== "Ed25519" || x === undefined) return null;
      if (key.alg !== undefined && key.alg !== "EdDSA" && key.alg !== "Ed25519") return null;
      alg = "EdDSA";
      publicJwk = { kty: "OKP", crv: "Ed25519", x };
      break;
    }
    default:
      return null;
  }
  return { kid: key.kid as string | undefined, alg, jwk: publicJwk, id: JSON.stringify(publicJwk) };
}

function importParams(alg: JWSAlgorithm): Algorithm | RsaHashedImportParams | EcKeyImportParams {
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

function importKey(key: RemoteKey): Promise<JWSKey | null> {
  key.imported ??= crypto.subtle.importKey(
    "jwk",
    key.jwk as JsonWebKey,
    importParams(key.alg),
    false,
    [
      "verify",
    ],
  ).then((imported) => {
    const jwsKey = prepareJWSKey(imported, "verify"); // refuses RSA moduli under 2048 bits
    return jwsKey.alg === key.alg ? jwsKey : null;
  }).catch(() => null);
  return key.imported;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" ||
    host === "[::1]";
}

/** Checks a JWKS URL: `https:`, or `http:` on a loopback host; throws a `TypeError` otherwise. */
export function checkJwksURL(value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === "string" || value instanceof URL ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (
    url === undefined || url.username !== "" || url.password !== "" || url.hash !== "" ||
    !(url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname)))
  ) {
    throw new TypeError(
      'jwksURL is invalid; expected an https URL such as "https://auth.example.com/auth/jwks" (http only for localhost).',
    );
  }
  return url.href;
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_JWKS_BYTES) {
      await reader.cancel().catch(() => {});
      fail("ERR_JOSE_INVALID", "The JWKS response is over 256 KiB; expected a small key set.");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

async function fetchKeys(url: string, fetchFn: typeof fetch): Promise<RemoteKey[]> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      headers: { Accept: "application/jwk-set+json, application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch {
    return fail(
      "ERR_JOSE_KID_UNKNOWN",
      "The JWKS could not be fetched; expected the issuer's key set.",
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    fail(
      "ERR_JOSE_KID_UNKNOWN",
      `The JWKS endpoint answered ${response.status}; expected 200 with keys.`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(await readCapped(response));
  } catch (error) {
    if (error instanceof Error && error.name === "JoseError") throw error;
    fail("ERR_JOSE_INVALID", "The JWKS is not JSON; expected { keys: [...] }.");
  }
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) {
    fail("ERR_JOSE_INVALID", "The JWKS has no keys array; expected { keys: [...] }.");
  }
  return keys.slice(0, MAX_KEYS).map(parseKey).filter((key) => key !== null);
}

function noKey(): never {
  return fail(
    "ERR_JOSE_KID_UNKNOWN",
    "No key of the JWKS fits the token's kid and alg; expected a token signed by a published key.",
  );
}

/** Creates the key set of one URL (see the module comment for its schedule). */
export function createRemoteJwks(url: string, options: RemoteJwksOptions): RemoteJwks {
  let keys: RemoteKey[] | undefined;
  let fetchedAt = 0;
  let lastUnknownRefetch = -Infinity;
  let pending: Promise<RemoteKey[]> | undefined;
  let failedAt = -Infinity;

  function refresh(nowMs: number): Promise<RemoteKey[]> {
    // A JWKS endpoint that just failed is not asked again by every token: fail closed a while.
    if (pending === undefined && nowMs - failedAt < JWKS_FAILURE_BACKOFF_MS && nowMs >= failedAt) {
      return Promise.resolve().then(noKey);
    }
    pending ??= fetchKeys(url, options.fetch).then((fresh) => {
      // Imports survive a refresh: a key listed again is not imported again.
      const previous = new Map((keys ?? []).map((key) => [key.id + key.alg, key]));
      keys = fresh.map((key) => previous.get(key.id + key.alg) ?? key);
      fetchedAt = nowMs;
      return keys;
    }, (error) => {
      failedAt = nowMs;
      throw error;
    }).finally(() => {
      pending = undefined;
    });
    return pending;
  }

  function select(set: RemoteKey[], alg: string, kid: string | undefined): RemoteKey | null {
    let found: RemoteKey | null = null;
    for (const key of set) {
      if (key.alg !== alg || (kid !== undefined && key.kid !== kid)) continue;
      // A token without kid, and two keys that fit it: refuse rather than guess.
      if (found !== null) return null;
      found = key;
    }
    return found;
  }

  async function use(key: RemoteKey | null): Promise<JWSKey> {
    const imported = key === null ? null : await importKey(key);
    return imported ?? noKey();
  }

  return {
    async getKey(alg: string, kid: string | undefined, nowMs: number): Promise<JWSKey> {
      let set: RemoteKey[];
      let fresh = false;
      if (pending !== undefined) {
        set = await pending;
        fresh = true;
      } else if (keys === undefined || nowMs - fetchedAt >= JWKS_MAX_AGE_MS) {
        set = await refresh(nowMs);
        fresh = true;
      } else {
        set = keys;
      }
      const key = select(set, alg, kid);
      if (key !== null || fresh) return await use(key);
      // Unknown kid: the first time refetch at once (a rotation just happened), then once a minute.
      let refetch = pending;
      if (refetch === undefined) {
        if (nowMs - lastUnknownRefetch < JWKS_UNKNOWN_KID_COOLDOWN_MS) noKey();
        lastUnknownRefetch = nowMs;
        refetch = refresh(nowMs);
      }
      return await use(select(await refetch, alg, kid));
    },
  };
}

const MAX_CACHED_SETS = 32;
/** Key sets by fetch function, then by URL: a cache the process shares, bounded. */
const cache = new WeakMap<typeof fetch, Map<string, RemoteJwks>>();

/**
 * The cached key set of a URL for a fetch function (created on first use;
 * the oldest of more than 32 URLs per fetch is dropped).
 */
export function remoteJwks(url: string, options: RemoteJwksOptions): RemoteJwks {
  let byURL = cache.get(options.fetch);
  if (byURL === undefined) cache.set(options.fetch, byURL = new Map());
  let set = byURL.get(url);
  if (set === undefined) {
    set = createRemoteJwks(url, options);
    if (byURL.size >= MAX_CACHED_SETS) byURL.delete(byURL.keys().next().value!);
    byURL.set(url, set);
  }
  return set;
}
