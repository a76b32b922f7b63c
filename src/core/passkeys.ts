/**
 * Passkeys (WebAuthn): the two ceremonies behind the routes and the API.
 * Registration and sign-in each get a 32-byte challenge sealed in the
 * `passkey_challenge` cookie (5 minutes, bound to the ceremony and, for
 * registration, to the session) and used once through the one-time store.
 * Every failed check of a sign-in answers the same 400 `access_denied`
 * (an unknown credential and a bad signature alike) and is logged with its
 * reason code, never with key, signature or challenge bytes.
 *
 * @module
 */

import type { AuthContext } from "../config.ts";
import type { Passkey } from "../config/feature.ts";
import { clearCookieLine, serializeCookie } from "../cookies/serialize.ts";
import { AuthError } from "../errors.ts";
import { clientDetails, type HttpContext } from "../http_context.ts";
import { encodeBase64Url } from "../jose/base64url.ts";
import { isRecord } from "../is_record.ts";
import type { StoredPasskey } from "../store/types.ts";
import { MAX_PASSKEY_ID_LENGTH, MAX_PASSKEY_NAME_LENGTH } from "../store/_validate.ts";
import type { Session } from "../types.ts";
import { verifyAssertion } from "../webauthn/assertion.ts";
import { importCredentialKey, isCoseAlgorithm } from "../webauthn/cose.ts";
import { WebAuthnError } from "../webauthn/errors.ts";
import {
  creationOptions,
  type CreationOptionsJSON,
  requestOptions,
  type RequestOptionsJSON,
} from "../webauthn/options.ts";
import { hashRpId, verifyRegistration } from "../webauthn/registration.ts";
import { deriveUserHandle } from "../webauthn/user_handle.ts";
import { callApp } from "./call_app.ts";
import type { CurrentSession } from "./session.ts";
import { finishSignIn } from "./sign_in.ts";
import type { TwoFactorRequired } from "./two_factor.ts";

/** Life of a challenge, in seconds (the options' `timeout` says the same in ms). */
const CHALLENGE_MAX_AGE = 300;
const CHALLENGE_PURPOSE = "passkey-challenge";
/** Imported public keys kept per instance, so a sign-in costs one digest and one verify. */
const MAX_CACHED_KEYS = 1000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type { Passkey };

type Ceremony = "register" | "signIn";
type PasskeyHooks = NonNullable<AuthContext["passkeys"]>;

/** The configured passkeys; 404 when `passkeys` is not configured. */
function passkeyHooks(ctx: AuthContext): PasskeyHooks {
  if (ctx.passkeys === undefined) {
    throw new AuthError(
      "invalid_request",
      "Passkeys are not configured; expected passkeys: { store, findUser } in createAuth.",
      { status: 404 },
    );
  }
  return ctx.passkeys;
}

/** The public view of a stored passkey. */
function publicPasskey(stored: StoredPasskey): Passkey {
  const passkey: Passkey = {
    id: stored.id,
    name: stored.name,
    createdAt: stored.createdAt,
    deviceType: stored.deviceType,
    backedUp: stored.backedUp,
    transports: [...stored.transports],
    aaguid: stored.aaguid,
    algorithm: stored.algorithm,
    counter: stored.counter,
  };
  if (stored.lastUsedAt !== undefined) passkey.lastUsedAt = stored.lastUsedAt;
  return passkey;
}

interface RelyingParty {
  id: string;
  name: string;
  origins: readonly string[];
  idHash: Uint8Array<ArrayBuffer>;
}

/** RP ID (config, else the service's host name), name and accepted origins for this request. */
async function relyingParty(
  http: HttpContext,
  hooks: PasskeyHooks,
): Promise<RelyingParty> {
  const id = hooks.rpID ?? new URL(http.origin).hostname;
  let idHash = hooks.rpIdHashes.get(id);
  if (idHash === undefined) {
    idHash = await hashRpId(id);
    // Bounded: without baseURL the host comes from the request.
    if (hooks.rpIdHashes.size < 64) hooks.rpIdHashes.set(id, idHash);
  }
  const origins = hooks.origins.includes(http.origin)
    ? hooks.origins
    : [http.origin, ...hooks.origins];
  return { id, name: hooks.rpName ?? id, origins, idHash };
}

/** Handles kept per instance: enough for the users signing in at once. */
const MAX_CACHED_HANDLES = 1000;

/** The user handle of `sub` under the current secret (cached per instance). */
async function userHandle(ctx: AuthContext, sub: string): Promise<string> {
  const cache = passkeyHooks(ctx).userHandles;
  const cached = cache.get(sub);
  if (cached !== undefined) return cached;
  const [current] = await passkeyHooks(ctx).userHandleKeys();
  const handle = await deriveUserHandle(current, sub);
  if (cache.size >= MAX_CACHED_HANDLES) cache.delete(cache.keys().next().value!);
  cache.set(sub, handle);
  return handle;
}

/**
 * The handle the response claims, when it is the owner's under any
 * configured secret (rotation); else the owner's under the current one,
 * which the core then refuses.
 */
async function ownerHandle(ctx: AuthContext, sub: string, claimed: unknown): Promise<string> {
  const first = await userHandle(ctx, sub);
  const keys = await passkeyHooks(ctx).userHandleKeys();
  if (first === claimed || typeof claimed !== "string" || keys.length === 1) return first;
  for (const key of keys.slice(1)) {
    const handle = await deriveUserHandle(key, sub);
    if (handle === claimed) return handle;
  }
  return first;
}

/** Seals a challenge into the `passkey_challenge` cookie. */
async function setChallengeCookie(
  ctx: AuthContext,
  http: HttpContext,
  challenge: { value: string; ceremony: Ceremony; sid?: string },
): Promise<void> {
  const claims: Record<string, string | number> = {
    pur: CHALLENGE_PURPOSE,
    c: challenge.value,
    k: challenge.ceremony,
    exp: http.now + CHALLENGE_MAX_AGE,
  };
  if (challenge.sid !== undefined) claims.sid = challenge.sid;
  const token = await ctx.passkeyJose.encodeJWT(claims);
  http.setCookies.push(serializeCookie({
    name: http.jar.passkeyChallenge.name,
    value: token,
    attributes: { ...http.jar.passkeyChallenge.attributes, maxAge: CHALLENGE_MAX_AGE },
  }, http.nowMs));
}

interface OpenedChallenge {
  value: string;
  expiresAt: number;
}

/** The request's challenge for `ceremony` (and session), or `null`. */
async function openChallenge(
  ctx: AuthContext,
  http: HttpContext,
  ceremony: Ceremony,
  sid?: string,
): Promise<OpenedChallenge | null> {
  const cookie = http.cookies.get(http.jar.passkeyChallenge.name);
  if (!cookie) return null;
  let claims: Record<string, unknown>;
  try {
    claims = await ctx.passkeyJose.decodeJWT(cookie, { clockTolerance: 0 });
  } catch {
    return null;
  }
  if (
    claims.pur !== CHALLENGE_PURPOSE || claims.k !== ceremony || typeof claims.c !== "string" ||
    typeof claims.exp !== "number" || claims.sid !== sid
  ) {
    return null;
  }
  return { value: claims.c, expiresAt: claims.exp };
}

/** Uses a challenge once; `false` when it was used before. */
async function consumeChallenge(
  ctx: AuthContext,
  http: HttpContext,
  challenge: OpenedChallenge,
): Promise<boolean> {
  // The mark lives as long as the challenge could still be read (plus the JOSE tolerance).
  const ttl = Math.max(1, challenge.expiresAt - http.now + 5);
  return await ctx.oneTimeStore.consume(`passkey:${challenge.value}`, ttl);
}

function clearChallengeCookie(http: HttpContext): string {
  return clearCookieLine(http.jar.passkeyChallenge);
}

/** `POST /passkey/register/options`: creation options for the session's user. */
export async function registrationOptions(
  ctx: AuthContext,
  http: HttpContext,
  session: CurrentSession,
): Promise<CreationOptionsJSON> {
  const hooks = passkeyHooks(ctx);
  const { sub } = session.payload;
  const [rp, existing, handle] = await Promise.all([
    relyingParty(http, hooks),
    hooks.store.listPasskeys(sub),
    userHandle(ctx, sub),
  ]);
  const payload = session.payload as Record<string, unknown>;
  const label = [payload.email, payload.name, sub].find(
    (value): value is string => typeof value === "string" && value !== "",
  )!;
  const display = [payload.name, payload.email, sub].find(
    (value): value is string => typeof value === "string" && value !== "",
  )!;
  const options = creationOptions({
    rp: { id: rp.id, name: rp.name },
    user: { id: handle, name: label.slice(0, 256), displayName: display.slice(0, 256) },
    excludeCredentials: existing,
    userVerification: hooks.userVerification,
  });
  await setChallengeCookie(ctx, http, {
    value: options.challenge,
    ceremony: "register",
    sid: session.payload.jti,
  });
  return options;
}

/** `POST /passkey/signIn/options`: request options with an empty `allowCredentials`. */
export async function signInOptions(
  ctx: AuthContext,
  http: HttpContext,
): Promise<RequestOptionsJSON> {
  const hooks = passkeyHooks(ctx);
  const rp = await relyingParty(http, hooks);
  const options = requestOptions({ rpId: rp.id, userVerification: hooks.userVerification });
  await setChallengeCookie(ctx, http, { value: options.challenge, ceremony: "signIn" });
  return options;
}

/** A reason code in words: the logger hides long runs without spaces as if they were tokens. */
function loggedReason(reason: string): string {
  return reason.replaceAll("_", " ");
}

/** A sign-in check of this module that failed, by reason code (the WebAuthn core throws its own). */
class Refusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

function reasonOf(error: unknown): string | null {
  return error instanceof WebAuthnError || error instanceof Refusal ? error.reason : null;
}

/** A failed registration check: 400 `invalid_request`, logged with its reason. */
function registrationRefused(ctx: AuthContext, http: HttpContext, reason: string): AuthError {
  ctx.logger.log("info", "passkey registration refused", {
    ...clientDetails(ctx, http),
    reason: loggedReason(reason),
  });
  return new AuthError(
    "invalid_request",
    "The passkey could not be registered; expected a response to this registration.",
  );
}

/** A passkey name: a string of at most 100 characters (trimmed), or empty. */
function checkedName(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value !== "string" || value.length > MAX_PASSKEY_NAME_LENGTH) {
    throw new AuthError(
      "invalid_request",
      `"name" is invalid; expected a string of at most ${MAX_PASSKEY_NAME_LENGTH} characters.`,
    );
  }
  return value.trim();
}

/** `POST /passkey/register`: verifies the response (W3C section 7.1) and stores the passkey. */
export async function registerPasskey(
  ctx: AuthContext,
  http: HttpContext,
  input: { session: CurrentSession; response: unknown; name?: unknown },
): Promise<Passkey> {
  const hooks = passkeyHooks(ctx);
  const name = checkedName(input.name);
  const { sub, jti } = input.session.payload;
  const challenge = await openChallenge(ctx, http, "register", jti);
  if (challenge === null) throw registrationRefused(ctx, http, "no_challenge");
  const rp = await relyingParty(http, hooks);
  let verified;
  try {
    verified = await verifyRegistration({
      response: input.response,
      expectedChallenge: challenge.value,
      expectedOrigins: rp.origins,
      rpID: rp.id,
      rpIdHash: rp.idHash,
      requireUserVerification: hooks.userVerification === "required",
    });
  } catch (error) {
    const reason = reasonOf(error);
    if (reason === null) throw error;
    throw registrationRefused(ctx, http, reason);
  }
  if (verified.credentialId.length > MAX_PASSKEY_ID_LENGTH) {
    throw registrationRefused(ctx, http, "credential_id");
  }
  if (!(await consumeChallenge(ctx, http, challenge))) {
    throw registrationRefused(ctx, http, "challenge_used");
  }
  // Step 26: a credential id registered before, by anyone, is refused.
  if ((await hooks.store.getPasskey(verified.credentialId)) !== null) {
    throw registrationRefused(ctx, http, "credential_registered");
  }
  const stored: StoredPasskey = {
    id: verified.credentialId,
    sub,
    publicKey: encodeBase64Url(verified.publicKey),
    algorithm: verified.algorithm,
    counter: verified.counter,
    transports: verified.transports,
    aaguid: verified.aaguid,
    backedUp: verified.backedUp,
    deviceType: verified.deviceType,
    name,
    createdAt: http.now,
  };
  if (!(await hooks.store.savePasskey(stored))) {
    throw registrationRefused(ctx, http, "credential_registered");
  }
  http.setCookies.push(clearChallengeCookie(http));
  ctx.logger.log("info", "passkey registered", { algorithm: String(verified.algorithm) });
  return publicPasskey(stored);
}

/** A failed sign-in check: the one 400 `access_denied`, logged with its reason. */
function signInRefused(ctx: AuthContext, http: HttpContext, reason: string): AuthError {
  const details = { ...clientDetails(ctx, http), reason: loggedReason(reason) };
  if (reason === "counter") {
    ctx.logger.log("warn", "passkey sign-in refused: possible cloned authenticator", details);
  } else {
    ctx.logger.log("info", "passkey sign-in refused", details);
  }
  return new AuthError("access_denied", "The passkey could not be verified.", { status: 400 });
}

/** Imported public keys by credential id and key text: a re-registered id never hits a stale entry. */
const keyCache = new Map<string, CryptoKey>();

async function publicKeyOf(stored: StoredPasskey): Promise<CryptoKey> {
  const cacheKey = `${stored.id}.${stored.algorithm}.${stored.publicKey}`;
  const cached = keyCache.get(cacheKey);
  if (cached !== undefined) return cached;
  if (!isCoseAlgorithm(stored.algorithm)) {
    throw new WebAuthnError("key_algorithm", "Stored key algorithm is not supported.");
  }
  const key = await importCredentialKey(stored.publicKey, stored.algorithm);
  if (keyCache.size >= MAX_CACHED_KEYS) keyCache.delete(keyCache.keys().next().value!);
  keyCache.set(cacheKey, key);
  return key;
}

/** The credential id a response names, when it is one a store can hold. */
function responseId(response: unknown): string | null {
  if (!isRecord(response)) return null;
  const id = response.id;
  return typeof id === "string" && id.length <= MAX_PASSKEY_ID_LENGTH && BASE64URL.test(id)
    ? id
    : null;
}

function claimedHandle(response: unknown): unknown {
  if (!isRecord(response) || !isRecord(response.response)) return undefined;
  return response.response.userHandle;
}

/**
 * `POST /passkey/signIn`: verifies the assertion (W3C section 7.2), uses
 * the challenge once, records the counter, then `findUser`,
 * `callbacks.signIn` and a session through `finishSignIn`. A passkey with
 * user verification is two factors in one: the attempt says
 * `passkeyUserVerified`, which the second-factor gate reads to skip itself.
 */
export async function signInWithPasskey(
  ctx: AuthContext,
  http: HttpContext,
  response: unknown,
  options: { redirectTo?: string } = {},
): Promise<Session | TwoFactorRequired> {
  const hooks = passkeyHooks(ctx);
  // The sealed challenge is opened while the store is asked and the signature checked.
  const opening = openChallenge(ctx, http, "signIn");
  const expectedChallenge = opening.then((opened) => {
    if (opened === null) throw new Refusal("no_challenge");
    return opened.value;
  });
  // Handled here at once: a check that fails before verifyAssertion reads the challenge must not
  // leave the refusal unhandled (that would end the process); awaiting it later still throws.
  expectedChallenge.catch(() => {});
  let challenge: OpenedChallenge;
  let stored: StoredPasskey | null;
  let verified;
  try {
    const id = responseId(response);
    if (id === null) throw new Refusal("response_malformed");
    stored = await hooks.store.getPasskey(id);
    if (stored === null) throw new Refusal("unknown_credential");
    const rp = await relyingParty(http, hooks);
    const [publicKey, handle] = await Promise.all([
      publicKeyOf(stored),
      ownerHandle(ctx, stored.sub, claimedHandle(response)),
    ]);
    verified = await verifyAssertion({
      response,
      expectedChallenge,
      expectedOrigins: rp.origins,
      rpID: rp.id,
      rpIdHash: rp.idHash,
      requireUserVerification: hooks.userVerification === "required",
      credential: {
        id: stored.id,
        publicKey,
        algorithm: stored.algorithm,
        counter: stored.counter,
        userHandle: handle,
        backupEligible: stored.deviceType === "multiDevice",
      },
    });
    // Resolved by now: verifyAssertion awaited it.
    challenge = (await opening)!;
  } catch (error) {
    // A missing challenge is the reason whatever else failed: nothing was asked of this browser.
    const reason = await opening.then((opened) =>
      opened === null ? "no_challenge" : reasonOf(error)
    );
    if (reason === null) throw error;
    throw signInRefused(ctx, http, reason);
  }
  if (!(await consumeChallenge(ctx, http, challenge))) {
    throw signInRefused(ctx, http, "challenge_used");
  }
  http.setCookies.push(clearChallengeCookie(http));
  if (!(await recordSignIn(hooks, stored, verified, http.now))) {
    throw signInRefused(ctx, http, "counter");
  }
  const user = await callApp(
    ctx,
    "passkeys.findUser",
    () => hooks.findUser(stored.sub, http.request),
  );
  if (user === null || user === undefined) {
    ctx.logger.log(
      "info",
      "passkey sign-in refused: passkeys.findUser found no user",
      clientDetails(ctx, http),
    );
    throw new AuthError("access_denied", "The sign-in was refused.");
  }
  if (!isRecord(user) || user.sub !== stored.sub) {
    ctx.logger.log("error", "passkeys.findUser returned another user", {});
    throw new AuthError("access_denied", "The sign-in was refused.");
  }
  return await finishSignIn(ctx, http, {
    user,
    provider: "passkey",
    source: "app",
    // A passkey verified by the user (PIN, biometrics) is two factors in itself.
    passkeyUserVerified: verified.userVerified,
    redirectTo: options.redirectTo,
  });
}

/** Compare-and-set attempts before a sign-in gives up on a passkey other sign-ins keep updating. */
const MAX_UPDATE_ATTEMPTS = 3;

/**
 * Saves the sign-in's counter, time and backed-up state over the counter it
 * read; `false` when the passkey is gone or another sign-in saved a counter
 * this one does not exceed (two sign-ins with the same counter at once: one
 * succeeds). When another sign-in saved a lower counter meanwhile, this one
 * is checked against it and saved over it.
 */
async function recordSignIn(
  hooks: PasskeyHooks,
  read: StoredPasskey,
  verified: { newCounter: number; backedUp: boolean },
  now: number,
): Promise<boolean> {
  let previous = read;
  for (let attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt++) {
    const saved = await hooks.store.updatePasskey(read.id, {
      counter: verified.newCounter,
      lastUsedAt: now,
      backedUp: verified.backedUp,
      previousCounter: previous.counter,
    });
    if (saved) return true;
    const current = await hooks.store.getPasskey(read.id);
    // Gone, or given to another user meanwhile: no sign-in.
    if (current === null || current.sub !== read.sub) return false;
    // The same rule as the first check: when either counter is non-zero the new one is greater.
    const counted = verified.newCounter !== 0 || current.counter !== 0;
    if (counted && verified.newCounter <= current.counter) return false;
    previous = current;
  }
  return false;
}

/** The user's passkeys, without public keys. */
export async function listPasskeys(ctx: AuthContext, sub: string): Promise<Passkey[]> {
  const hooks = passkeyHooks(ctx);
  const stored = await hooks.store.listPasskeys(sub);
  return stored.sort((a, b) => a.createdAt - b.createdAt).map(publicPasskey);
}

/** Deletes one of the user's passkeys; `false` for anyone else's and for unknown ids. */
export async function deletePasskey(ctx: AuthContext, sub: string, id: string): Promise<boolean> {
  const hooks = passkeyHooks(ctx);
  if (responseId({ id }) === null) return false;
  const stored = await hooks.store.getPasskey(id);
  if (stored === null || stored.sub !== sub) return false;
  const deleted = await hooks.store.deletePasskey(id);
  if (deleted) ctx.logger.log("info", "passkey deleted", {});
  return deleted;
}
