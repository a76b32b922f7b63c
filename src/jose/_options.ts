/**
 * The options of `createJose`, checked once at creation.
 *
 * @module
 */

import type { JoseOptions, JWTMode } from "./types.ts";

const MODES: readonly JWTMode[] = ["sealed", "signed", "encrypted"];
const THIRTY_DAYS = 30 * 24 * 60 * 60;
const PURPOSE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The options every JOSE object needs, with their defaults filled in. */
export type CheckedOptions = Required<
  Pick<JoseOptions, "mode" | "purpose" | "maxAge" | "clock" | "clockTolerance">
>;

/** Checks a clock tolerance, from the factory or from one call. */
export function checkTolerance(tolerance: number): number {
  if (typeof tolerance !== "number" || !(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new TypeError(`The clockTolerance ${tolerance} is invalid; expected seconds >= 0.`);
  }
  return tolerance;
}

/** Checks the options and fills in the defaults; throws TypeError naming the bad option. */
export function checkOptions(options: JoseOptions): CheckedOptions {
  const mode = options.mode ?? "sealed";
  if (!MODES.includes(mode)) {
    throw new TypeError(
      `The mode ${JSON.stringify(mode)} is unknown; expected "sealed", "signed" or "encrypted".`,
    );
  }
  const purpose = options.purpose ?? "session";
  if (typeof purpose !== "string" || !PURPOSE.test(purpose)) {
    throw new TypeError(
      `The purpose ${
        JSON.stringify(purpose)
      } is invalid; expected letters, digits, ".", "_" or "-".`,
    );
  }
  const maxAge = options.maxAge ?? THIRTY_DAYS;
  if (typeof maxAge !== "number" || !(maxAge > 0) || !Number.isFinite(maxAge)) {
    throw new TypeError(`The maxAge ${maxAge} is invalid; expected a positive number of seconds.`);
  }
  const clockTolerance = checkTolerance(options.clockTolerance ?? 5);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") {
    throw new TypeError("The clock option is not a function; expected () => milliseconds.");
  }
  return { mode, purpose, maxAge, clock, clockTolerance };
}
