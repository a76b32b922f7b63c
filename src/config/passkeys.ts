/**
 * `passkeys`: WebAuthn sign-in with no dependency. The app hands over where
 * passkeys live (`store`) and how to find a user by `sub` (`findUser`).
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import type { WebCryptoKey } from "../jose/types.ts";
import { DEFAULT_STORE_TIMEOUT_MS } from "../store/guard.ts";
import { bounded } from "../store/guard.ts";
import { checkPasskeyId, readPasskey } from "../store/_validate.ts";
import type { PasskeyStore, StoredPasskey } from "../store/types.ts";
import type { User } from "../types.ts";
import { fail, knownKeys } from "./_check.ts";
import type { FeatureInputs } from "./feature.ts";
import { canDeriveUserHandles, userHandleKeys } from "./passkey_handle.ts";

/** `UserVerificationRequirement` for both ceremonies. */
export type PasskeyUserVerification = "required" | "preferred" | "discouraged";

/** The `passkeys` option of `createAuth`; `U` is what `findUser` returns (default `User`). */
export interface PasskeysConfig<U = User> {
  /** Where passkeys live: `memoryStore()`, `redisStore(client)`, `denoKvStore(kv)` or your own table. */
  store: PasskeyStore;
  /** The user a passkey belongs to, by `sub`, or `null` (a deleted account cannot sign in). */
  findUser: (sub: string, request: Request) => U | null | Promise<U | null>;
  /** The RP ID; default the hostname of `baseURL` (else of the request). */
  rpID?: string;
  /** The name authenticators show; default `logger.appName`, else the RP ID. */
  rpName?: string;
  /** Origins ceremonies may also run on (e.g. a subdomain under `rpID`), beyond the service's own. */
  origins?: readonly string[];
  /** `"required"` (default), `"preferred"` or `"discouraged"`. */
  userVerification?: PasskeyUserVerification;
}

/** The resolved `passkeys` option. */
export interface PasskeySettings {
  readonly passkeys?: {
    /** The store, each call bounded by `session.storeTimeout` and its answers checked. */
    readonly store: PasskeyStore;
    readonly findUser: (sub: string, request: Request) => unknown;
    readonly rpID?: string;
    readonly rpName?: string;
    readonly origins: readonly string[];
    readonly userVerification: PasskeyUserVerification;
    /** SHA-256 of each RP ID seen, computed once. */
    readonly rpIdHashes: Map<string, Uint8Array<ArrayBuffer>>;
    /** User handles under the current secret, by `sub` (bounded): one HMAC saved per sign-in. */
    readonly userHandles: Map<string, string>;
    /** The HMAC keys user handles are derived with, newest first (derived on first use). */
    readonly userHandleKeys: () => Promise<readonly WebCryptoKey[]>;
  };
}

const KEYS = ["store", "findUser", "rpID", "rpName", "origins", "userVerification"];
const STORE_METHODS = [
  "savePasskey",
  "getPasskey",
  "listPasskeys",
  "deletePasskey",
  "updatePasskey",
] as const;
const VERIFICATION: readonly PasskeyUserVerification[] = ["required", "preferred", "discouraged"];
// A host name as an RP ID: letters, digits, dots and hyphens (IDNs in their A-label form).
const RP_ID =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Whether a value has every method of {@link PasskeyStore}. */
function isPasskeyStore(value: unknown): value is PasskeyStore {
  return isRecord(value) &&
    STORE_METHODS.every((method) =>
      typeof (value as Record<string, unknown>)[method] === "function"
    );
}

function originOf(value: unknown): string {
  if (typeof value === "string") {
    try {
      const url = new URL(value);
      if ((url.protocol === "https:" || url.protocol === "http:") && url.origin === value) {
        return url.origin;
      }
    } catch {
      // reported below
    }
  }
  return fail(
    'passkeys.origins holds a value that is not an origin; expected e.g. "https://app.example.com".',
  );
}

/** Wraps the app's store: each call bounded in time, answers checked (garbage fails closed as 503). */
function guardPasskeyStore(
  store: PasskeyStore,
  options: { timeoutMs: number; logger: FeatureInputs["logger"] },
): PasskeyStore {
  const call = <T>(method: string, fn: () => Promise<T>) => bounded(method, fn, options);
  return Object.freeze({
    savePasskey: (passkey: StoredPasskey) =>
      call("savePasskey", async () => {
        const saved = await store.savePasskey(passkey);
        if (typeof saved !== "boolean") throw new TypeError("savePasskey answered garbage.");
        return saved;
      }),
    getPasskey: (id: string) =>
      call("getPasskey", async () => {
        const found = await store.getPasskey(id);
        return found === null || found === undefined ? null : readPasskey(found, { id });
      }),
    listPasskeys: (sub: string) =>
      call("listPasskeys", async () => {
        const list = await store.listPasskeys(sub);
        if (!Array.isArray(list)) throw new TypeError("listPasskeys answered garbage.");
        return list.map((passkey) => readPasskey(passkey, { sub }));
      }),
    deletePasskey: (id: string) =>
      call("deletePasskey", async () => Boolean(await store.deletePasskey(checkPasskeyId(id)))),
    updatePasskey: (
      id: string,
      update: { counter: number; lastUsedAt: number; backedUp: boolean; previousCounter: number },
    ) =>
      call("updatePasskey", async () => {
        const saved = await store.updatePasskey(id, update);
        // A store that does not answer the compare-and-set (an older contract) fails closed.
        if (typeof saved !== "boolean") {
          throw new TypeError(
            "updatePasskey answered garbage; expected true or false (saved only over previousCounter).",
          );
        }
        return saved;
      }),
  });
}

/** Resolves `passkeys` (given); the passkey routes answer 404 without it. */
export function resolvePasskeys(value: unknown, inputs: FeatureInputs): PasskeySettings {
  if (!isRecord(value)) {
    fail("passkeys is not an object; expected { store, findUser(sub, request) }.");
  }
  knownKeys(value, "passkeys", KEYS);
  if (!isPasskeyStore(value.store)) {
    fail(
      "passkeys.store is not a PasskeyStore; expected memoryStore(), redisStore(client), denoKvStore(kv) or an object with savePasskey, getPasskey, listPasskeys, deletePasskey and updatePasskey.",
    );
  }
  if (typeof value.findUser !== "function") {
    fail("passkeys.findUser is not a function; expected findUser(sub, request).");
  }
  const { rpID, rpName } = value;
  if (rpID !== undefined && (typeof rpID !== "string" || !RP_ID.test(rpID))) {
    fail('passkeys.rpID is not a host name; expected e.g. "example.com" (no scheme, no port).');
  }
  if (
    rpName !== undefined && (typeof rpName !== "string" || rpName === "" || rpName.length > 100)
  ) {
    fail("passkeys.rpName is invalid; expected a name of 1 to 100 characters.");
  }
  if (value.origins !== undefined && !Array.isArray(value.origins)) {
    fail('passkeys.origins is not an array; expected origins like ["https://app.example.com"].');
  }
  const origins = Object.freeze(((value.origins ?? []) as unknown[]).map(originOf));
  const userVerification = value.userVerification ?? "required";
  if (!VERIFICATION.includes(userVerification as PasskeyUserVerification)) {
    fail(
      'passkeys.userVerification is invalid; expected "required", "preferred" or "discouraged".',
    );
  }
  const { keys, salt } = inputs.secrets();
  if (inputs.readableFlowTokens || !canDeriveUserHandles(keys)) {
    fail(
      "passkeys need a secret to seal challenges and derive user handles, which a lone key pair cannot; expected a string secret or { sign, encrypt } with an HMAC sign key.",
    );
  }
  const { config, logger } = inputs;
  const session = isRecord(config.session) ? config.session : {};
  const timeoutMs = typeof session.storeTimeout === "number"
    ? session.storeTimeout
    : DEFAULT_STORE_TIMEOUT_MS;
  const appName = isRecord(config.logger) && typeof config.logger.appName === "string"
    ? config.logger.appName
    : undefined;
  return Object.freeze({
    passkeys: Object.freeze({
      store: guardPasskeyStore(value.store, { timeoutMs, logger }),
      findUser: value.findUser as (sub: string, request: Request) => unknown,
      rpID: rpID as string | undefined,
      rpName: (rpName as string | undefined) ?? (appName?.slice(0, 100) || undefined),
      origins,
      userVerification: userVerification as PasskeyUserVerification,
      rpIdHashes: new Map(),
      userHandles: new Map(),
      userHandleKeys: userHandleKeys(keys, salt),
    }),
  });
}
