/**
 * The per-user password-reset mark: a reset ends every email sign-in link
 * and code, every other reset link and every pending second step issued for
 * that user before it, on every instance sharing the store (this process's
 * memory without one).
 *
 * The store keeps counters and marks, not values, so the mark is a hit
 * counter per user: each reset counts one hit. A token or pending sign-in
 * records the counter as it was when it was made (`count.windowEnd`, or
 * `""` when there was none) and is refused when the counter reads otherwise
 * later. The counter's window ends at least {@link LONGEST_TOKEN_SECONDS}
 * after the latest reset (a reset close to the window's end starts a new
 * window), so it cannot run out while something it ended is still valid.
 *
 * @module
 */

import { sha256 } from "../crypto/sha256.ts";
import type { AuthContext } from "../config.ts";
import { encodeBase64Url } from "../jose/base64url.ts";

/** The longest lifetime of what a reset ends: a reset link (1 hour), with clock slack. */
const LONGEST_TOKEN_SECONDS = 3600 + 120;
/** The counter's window: two lifetimes, so a window has room for many resets. */
const WINDOW_SECONDS = 2 * LONGEST_TOKEN_SECONDS;
/** How far two instances' clocks may put the same window's end apart. */
const TOLERANCE_SECONDS = 120;
const encoder = /* @__PURE__ */ new TextEncoder();

function markKey(sub: string): string {
  return `pw-reset:${encodeBase64Url(sha256(encoder.encode(sub)))}`;
}

/**
 * The user's reset mark now: `""` when no reset is recorded, else the
 * count and the window's end (base 36). One store read.
 */
export async function readResetMark(ctx: AuthContext, sub: string, now: number): Promise<string> {
  const counted = await ctx.throttleStore.hits(markKey(sub));
  if (counted === null) return "";
  return `${counted.count}.${Math.floor(now + counted.resetIn).toString(36)}`;
}

/** Records a reset for the user: everything made with an earlier mark stops working. */
export async function recordReset(ctx: AuthContext, sub: string): Promise<void> {
  const key = markKey(sub);
  const counted = await ctx.throttleStore.hits(key);
  // A window about to end would forget this reset while what it ended still lives: start anew.
  if (counted !== null && counted.resetIn < LONGEST_TOKEN_SECONDS) {
    await ctx.throttleStore.resetHits(key);
  }
  await ctx.throttleStore.hit(key, WINDOW_SECONDS);
}

/**
 * Whether no reset happened for the user since `mark` was read. A counter
 * that vanished before its window's end (an evicted entry) counts as a
 * reset: fail closed.
 */
export async function noResetSince(
  ctx: AuthContext,
  sub: string,
  mark: string | undefined,
  now: number,
): Promise<boolean> {
  const counted = await ctx.throttleStore.hits(markKey(sub));
  if (mark === undefined || mark === "") return counted === null;
  const match = /^([1-9][0-9]{0,8})\.([0-9a-z]{1,12})$/.exec(mark);
  if (match === null) return false;
  const count = Number(match[1]);
  const end = parseInt(match[2], 36);
  if (counted === null) return now >= end - TOLERANCE_SECONDS;
  return counted.count === count &&
    Math.abs(now + counted.resetIn - end) <= TOLERANCE_SECONDS;
}
