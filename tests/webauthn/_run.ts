/**
 * Runs a case of `_cases.ts` through our verifier or through
 * `@simplewebauthn/server`, with the same settings.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only peer for the differential test.
import * as peer from "npm:@simplewebauthn/server@13";
import { type VerifiedAssertion, verifyAssertion } from "../../src/webauthn/assertion.ts";
import { WebAuthnError, type WebAuthnReason } from "../../src/webauthn/errors.ts";
import { type VerifiedRegistration, verifyRegistration } from "../../src/webauthn/registration.ts";
import {
  type Alg,
  challenge,
  createAuthenticator,
  type JsonObject,
  ORIGIN,
  RP_ID,
  type SoftAuthenticator,
} from "./_authenticator.ts";
import type { AssertionCase, CaseContext, RegistrationCase } from "./_cases.ts";

export interface Fixture {
  auth: SoftAuthenticator;
  other: SoftAuthenticator;
  /** The SPKI our registration stored for `auth`. */
  spki: Uint8Array;
}

const fixtures = new Map<Alg, Promise<Fixture>>();

/** One authenticator pair per algorithm, registered once. */
export function fixture(alg: Alg): Promise<Fixture> {
  let f = fixtures.get(alg);
  if (!f) {
    f = (async () => {
      const auth = await createAuthenticator(alg);
      const other = await createAuthenticator(alg);
      const c = challenge();
      const reg = await verifyRegistration({
        response: await auth.register({ challenge: c }),
        expectedChallenge: c,
        expectedOrigins: [ORIGIN],
        rpID: RP_ID,
      });
      return { auth, other, spki: reg.publicKey };
    })();
    fixtures.set(alg, f);
  }
  return f;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof WebAuthnError) return { ok: false, reason: error.reason };
    return { ok: false, reason: `${(error as Error)?.name}: ${(error as Error)?.message}` };
  }
}

export interface Prepared<T> {
  ctx: CaseContext;
  response: JsonObject;
  fixture: Fixture;
  case: T;
}

export async function prepareRegistration(
  alg: Alg,
  c: RegistrationCase,
): Promise<Prepared<RegistrationCase>> {
  const f = await fixture(alg);
  const ctx = { auth: f.auth, other: f.other, challenge: challenge() };
  f.auth.counter = 0;
  const knobs = c.knobs(ctx);
  const response = await f.auth.register(knobs);
  // The verifier expects the ceremony's challenge; a case may send another.
  return { ctx, response, fixture: f, case: c };
}

export function oursRegistration(
  p: Prepared<RegistrationCase>,
  alg: Alg,
): Promise<Outcome<VerifiedRegistration>> {
  const s = p.case.settings ?? {};
  return outcome(() =>
    verifyRegistration({
      response: p.response,
      expectedChallenge: p.ctx.challenge,
      expectedOrigins: [ORIGIN],
      rpID: RP_ID,
      requireUserVerification: s.requireUserVerification,
      allowedAlgorithms: s.allowedAlgorithms?.(alg),
    })
  );
}

export function peerRegistration(
  p: Prepared<RegistrationCase>,
  alg: Alg,
): Promise<Outcome<unknown>> {
  const s = p.case.settings ?? {};
  return outcome(async () => {
    const result = await peer.verifyRegistrationResponse({
      response: structuredClone(p.response) as never,
      expectedChallenge: p.ctx.challenge,
      expectedOrigin: [ORIGIN],
      expectedRPID: RP_ID,
      requireUserVerification: s.requireUserVerification ?? true,
      supportedAlgorithmIDs: s.allowedAlgorithms?.(alg) ?? [-8, -7, -257],
    });
    if (!result.verified) throw new Error("not verified");
    return result.registrationInfo;
  });
}

export async function prepareAssertion(
  alg: Alg,
  c: AssertionCase,
): Promise<Prepared<AssertionCase> & { stored: number }> {
  const f = await fixture(alg);
  const ctx = { auth: f.auth, other: f.other, challenge: challenge() };
  f.auth.counter = c.counter ?? 0;
  const stored = c.settings?.storedCounter ?? f.auth.counter;
  const response = await f.auth.authenticate(c.knobs(ctx));
  return { ctx, response, fixture: f, case: c, stored };
}

export function oursAssertion(
  p: Prepared<AssertionCase> & { stored: number },
  publicKey?: CryptoKey,
): Promise<Outcome<VerifiedAssertion>> {
  const s = p.case.settings ?? {};
  return outcome(() =>
    verifyAssertion({
      response: p.response,
      expectedChallenge: p.ctx.challenge,
      expectedOrigins: [ORIGIN],
      rpID: RP_ID,
      requireUserVerification: s.requireUserVerification,
      requireUserHandle: s.requireUserHandle,
      credential: {
        id: s.storedId ?? p.fixture.auth.id,
        publicKey: publicKey ?? p.fixture.spki,
        algorithm: p.fixture.auth.alg,
        counter: p.stored,
        userHandle: s.storedUserHandle ?? p.fixture.auth.userHandle,
        backupEligible: s.backupEligible,
      },
    })
  );
}

export function peerAssertion(
  p: Prepared<AssertionCase> & { stored: number },
): Promise<Outcome<unknown>> {
  const s = p.case.settings ?? {};
  return outcome(async () => {
    const result = await peer.verifyAuthenticationResponse({
      response: structuredClone(p.response) as never,
      expectedChallenge: p.ctx.challenge,
      expectedOrigin: [ORIGIN],
      expectedRPID: RP_ID,
      requireUserVerification: s.requireUserVerification ?? true,
      credential: {
        id: s.storedId ?? p.fixture.auth.id,
        publicKey: p.fixture.auth.coseKeyBytes(),
        counter: p.stored,
      },
    });
    if (!result.verified) throw new Error("not verified");
    return result.authenticationInfo;
  });
}

export function applies(c: { algs?: readonly Alg[] }, alg: Alg): boolean {
  return !c.algs || c.algs.includes(alg);
}

export type { WebAuthnReason };
