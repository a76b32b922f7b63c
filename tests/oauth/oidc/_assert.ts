/**
 * Assertions shared by the OpenID Connect tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { AuthError } from "../../../mod.ts";

/**
 * Asserts that `action` (a promise, or a function run now) fails with an
 * `AuthError` of `code` (and status), whose description matches
 * `description` and quotes none of `secrets`.
 */
export async function assertRefused(
  action: Promise<unknown> | (() => unknown),
  expected: { code: string; status?: number; description?: RegExp; secrets?: string[] },
): Promise<AuthError> {
  let caught: unknown;
  try {
    await (typeof action === "function" ? action() : action);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof AuthError, `expected an AuthError, got ${caught}`);
  assert.equal(caught.code, expected.code);
  if (expected.status !== undefined) assert.equal(caught.status, expected.status);
  if (expected.description) assert.match(caught.description, expected.description);
  for (const secret of expected.secrets ?? []) {
    assert.ok(!caught.description.includes(secret), `the description quotes ${secret}`);
  }
  assert.ok(!caught.description.includes("\n"));
  return caught;
}

/** A settable clock in ms. */
export function manualClock(start = Date.now()): { now: () => number; advance(ms: number): void } {
  let time = start;
  return { now: () => time, advance: (ms) => time += ms };
}
