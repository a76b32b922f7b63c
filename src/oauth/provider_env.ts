/**
 * What a provider reads from the environment when its entry does not say
 * it: the client id and secret (`{ID}_CLIENT_ID`, `{ID}_CLIENT_SECRET`) and
 * a built-in's options (`{ID}_{OPTION}`, e.g. `OKTA_ISSUER`). Kept apart
 * from the checks so that every environment name is written here once.
 *
 * @module
 */

import { envAccessProblem, type EnvReader, lookupEnv } from "../env.ts";
import { fail } from "./provider_checks.ts";
import type { BuiltInOptionName, BuiltInOptionValues, BuiltInProvider } from "./types.ts";

/** Env key suffix of each built-in option. */
export const OPTION_ENV: Readonly<Record<BuiltInOptionName, string>> = {
  issuer: "ISSUER",
  tenant: "TENANT_ID",
  teamId: "TEAM_ID",
  keyId: "KEY_ID",
  privateKey: "PRIVATE_KEY",
};

/** The client id or secret from env `{ID}_CLIENT_ID` / `{ID}_CLIENT_SECRET` (or `AUTH_`-prefixed). */
export function envCredential(
  id: string,
  suffix: "CLIENT_ID" | "CLIENT_SECRET",
  read: EnvReader,
): string {
  const key = `${id.toUpperCase()}_${suffix}`;
  const value = lookupEnv(key, read);
  const denied = value === undefined ? envAccessProblem(key, read) : undefined;
  if (denied !== undefined) {
    fail(
      `provider "${id}" has no ${
        suffix === "CLIENT_ID" ? "client id" : "client secret"
      }: ${denied}; expected --allow-env (or --allow-env=AUTH_${key}, naming the variables you set), or the value in the provider object.`,
    );
  }
  if (value === undefined) {
    fail(
      `provider "${id}" has no ${
        suffix === "CLIENT_ID" ? "client id" : "client secret"
      }: set ${key} (or AUTH_${key}) in the environment, or pass it in the provider object.`,
    );
  }
  return value;
}

/** Reads a built-in's options from the entry, else from env `{ID}_{OPTION}`. */
export function readOptions(
  provider: BuiltInProvider,
  entry: Record<string, unknown>,
  read: EnvReader,
  clientId: string,
): BuiltInOptionValues {
  const values: BuiltInOptionValues = { clientId };
  for (const name of provider.options ?? []) {
    const given = entry[name];
    if (given !== undefined && typeof given !== "string") {
      fail(`provider "${provider.id}" ${name} must be a string; expected e.g. ${name}: "...".`);
    }
    const value = given ?? lookupEnv(`${provider.id.toUpperCase()}_${OPTION_ENV[name]}`, read);
    if (value !== undefined) values[name] = value;
  }
  return values;
}
