/**
 * Turns the `oauth` config entries into validated, frozen providers, in
 * order: which provider an entry names (`provider_lookup.ts`), its
 * credentials and options from the entry or the environment
 * (`provider_env.ts`), the built-in's settings merged under the entry's
 * fields, each field checked (`provider_checks.ts`), and its profile mapper
 * (`provider_profile.ts`). What the flow does with a resolved provider at
 * sign-in is in `endpoints.ts`.
 *
 * @module
 */

import type { EnvReader } from "../env.ts";
import { defined } from "./_defined.ts";
import { definitionOf } from "./providers/_define.ts";
import {
  checkAlgorithms,
  checkAuthorizationParams,
  checkEndpoints,
  checkHeaders,
  checkIssuer,
  checkScope,
  fail,
  oneOf,
  optionalBoolean,
  optionalEndpoint,
  text,
} from "./provider_checks.ts";
import { envCredential, readOptions } from "./provider_env.ts";
import {
  builtInOf,
  type BuiltInTable,
  checkId,
  entryObject,
  ownDefinition,
} from "./provider_lookup.ts";
import { profileMapping } from "./provider_profile.ts";
import type { ResolvedProvider } from "./resolved_provider.ts";
import type { ClientAuthMethod, ClientSecret } from "./types.ts";

function resolveOne(entry: unknown, read: EnvReader, table: BuiltInTable): ResolvedProvider {
  const object = entryObject(entry);
  const id = checkId(object, entry, table);
  // Without the table, a built-in passed as an object (`oauth: [okta]`, `{ ...okta, issuer }`) is
  // found from the object; any other object is its own definition.
  const known = builtInOf(table, id) ?? definitionOf(object);
  const builtIn = known ?? ownDefinition(object, id);
  if (known === undefined && object.verifiesEmail !== undefined) {
    fail(
      `provider "${id}" has verifiesEmail, which only built-in providers declare; expected an email_verified claim in the profile instead.`,
    );
  }
  const clientIdValue = object.clientId ?? envCredential(id, "CLIENT_ID", read);
  const clientId = text({ clientId: clientIdValue }, "clientId", id);
  const settings = builtIn.configure?.(readOptions(builtIn, object, read, clientId)) ?? {};
  const merged: Record<string, unknown> = { ...builtIn, ...settings };
  // The entry's fields win over the settings, except those equal to the definition's (a built-in
  // passed or spread as an object), so that its options (a tenant) still apply.
  const definition = builtIn as unknown as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (object[key] !== definition[key]) merged[key] = object[key];
  }
  // An option that is also a field (issuer) keeps the form its provider gave it.
  for (const name of builtIn.options ?? []) {
    if (Object.hasOwn(settings, name)) merged[name] = (settings as Record<string, unknown>)[name];
  }
  merged.clientId = clientId;

  const clientAuthMethod = oneOf<ClientAuthMethod>(merged, "clientAuthMethod", id, [
    "client_secret_basic",
    "client_secret_post",
    "none",
  ]);
  let clientSecret: ClientSecret | undefined;
  if (clientAuthMethod !== "none") {
    const value = merged.clientSecret ?? envCredential(id, "CLIENT_SECRET", read);
    if (typeof value === "function") {
      clientSecret = value as () => Promise<string>;
    } else {
      clientSecret = text({ clientSecret: value }, "clientSecret", id);
    }
  }
  if ((merged.responseType ?? "code") !== "code") {
    fail(
      `provider "${id}" responseType must be "code": this version runs the authorization-code flow; expected responseType: "code".`,
    );
  }
  for (const key of ["profile", "issuerFor"]) {
    if (merged[key] !== undefined && typeof merged[key] !== "function") {
      fail(`provider "${id}" ${key} must be a function; expected (claims) => ... .`);
    }
  }
  const issuer = checkIssuer(merged.issuer, id);
  const configured = checkEndpoints(merged, { id, issuer, builtIn });
  const scope = checkScope(merged.scope, { id, issuer, configured });
  const clientIdParam = merged.clientIdParam ?? "client_id";
  if (typeof clientIdParam !== "string" || !/^[a-z_]{1,32}$/.test(clientIdParam)) {
    fail(`provider "${id}" clientIdParam must be a parameter name; expected e.g. "client_id".`);
  }
  const { authorizeURL, accessToken, userInfo } = configured;
  const { profile, verifiesEmail } = profileMapping(merged.profile, known, configured);
  return Object.freeze({
    id,
    name: text(merged, "name", id),
    ...defined({ authorizeURL, accessToken, userInfo }),
    scope,
    responseType: "code",
    clientId,
    ...defined({ clientSecret }),
    profile,
    verifiesEmail,
    ...defined({
      issuer,
      jwksURI: optionalEndpoint(merged, "jwksURI", id),
      idTokenAlgorithms: checkAlgorithms(merged.idTokenAlgorithms, id),
      issuerFor: merged.issuerFor as ResolvedProvider["issuerFor"],
    }),
    nonce: optionalBoolean(merged, "nonce", id),
    responseMode: oneOf(merged, "responseMode", id, ["query", "form_post"] as const),
    clientAuthMethod,
    clientIdParam,
    pkce: optionalBoolean(merged, "pkce", id),
    userInfoMethod: oneOf(merged, "userInfoMethod", id, ["GET", "POST"] as const),
    headers: Object.freeze(checkHeaders(merged.headers, id)),
    authorizationParams: Object.freeze(
      checkAuthorizationParams(merged.authorizationParams, id, clientIdParam),
    ),
  }) as ResolvedProvider;
}

/**
 * Resolves every entry against `table` (ids it lacks are unknown; an object
 * entry it lacks is its own definition); duplicate ids and missing
 * credentials throw, naming the fix.
 */
export function resolveProvidersWith(
  entries: readonly unknown[],
  read: EnvReader,
  table: BuiltInTable,
): ReadonlyMap<string, ResolvedProvider> {
  const providers = new Map<string, ResolvedProvider>();
  for (const entry of entries) {
    const provider = resolveOne(entry, read, table);
    if (providers.has(provider.id)) {
      fail(`provider id "${provider.id}" is configured twice; expected each id once.`);
    }
    providers.set(provider.id, provider);
  }
  return providers;
}
