// Every W3C section 7.1 and 7.2 case of the WebAuthn core (tests/webauthn/_cases.ts), sent
// through the routes: accepted cases register (201) or sign in (200); refused ones answer
// 400 invalid_request (registration, nothing stored) or 400 access_denied (sign-in), and
// the log names the same reason the core gives.
import assert from "node:assert/strict";
import { type Alg, ALG_NAMES, ALGS, createAuthenticator } from "../webauthn/_authenticator.ts";
import { ASSERTION_CASES, REGISTRATION_CASES } from "../webauthn/_cases.ts";
import { applies } from "../webauthn/_run.ts";
import { assertError } from "../server/_helpers.ts";
import {
  ADA,
  browserFor,
  passkeyAuth,
  passwordSignIn,
  post,
  registerOptions,
  signInOptions,
} from "./_helpers.ts";

// Route-level reasons for a response whose id names no stored credential (the core
// would say credential_mismatch: the route looks the credential up by that id first).
const LOOKUP_REASONS = new Set(["unknown credential", "response malformed"]);

async function handleOfAda(): Promise<string> {
  const { auth } = passkeyAuth();
  const browser = browserFor(auth);
  await passwordSignIn(browser);
  return ((await registerOptions(browser)).user as { id: string }).id;
}

const handle = handleOfAda();
const authenticators = new Map<Alg, ReturnType<typeof pair>>();
function pair(alg: Alg) {
  return (async () => {
    const userHandle = await handle;
    return {
      auth: await createAuthenticator(alg, { userHandle }),
      other: await createAuthenticator(alg),
    };
  })();
}
function pairFor(alg: Alg) {
  let found = authenticators.get(alg);
  if (!found) authenticators.set(alg, found = pair(alg));
  return found;
}

for (const alg of ALGS) {
  for (const c of REGISTRATION_CASES) {
    // Settings the routes do not take (allowed algorithms, UV not required) are unit cases.
    if (!applies(c, alg) || c.settings) continue;
    const verb = c.reason ? `refuses (${c.reason})` : "accepts";
    Deno.test(`route registration ${c.step}, ${ALG_NAMES[alg]}: ${verb} ${c.name}`, async () => {
      const { auth: soft, other } = await pairFor(alg);
      soft.counter = 0;
      const { auth, store, logs } = passkeyAuth();
      const browser = browserFor(auth);
      await passwordSignIn(browser);
      const options = await registerOptions(browser);
      const json = await soft.register(
        c.knobs({ auth: soft, other, challenge: options.challenge as string }),
      );
      const response = await post(browser, "/auth/passkey/register", { response: json });
      if (!c.reason) {
        assert.equal(response.status, 201, await response.clone().text());
        assert.equal((await store.listPasskeys(ADA.sub)).length, 1);
        return;
      }
      await assertError(response, 400, "invalid_request");
      assert.deepEqual(await store.listPasskeys(ADA.sub), []);
      const refused = logs.find((entry) => entry.message === "passkey registration refused");
      assert.equal(refused?.details?.reason, c.reason.replaceAll("_", " "));
    });
  }

  for (const c of ASSERTION_CASES) {
    if (!applies(c, alg) || c.settings) continue;
    const verb = c.reason ? `refuses (${c.reason})` : "accepts";
    Deno.test(`route sign-in ${c.step}, ${ALG_NAMES[alg]}: ${verb} ${c.name}`, async () => {
      const { auth: soft, other } = await pairFor(alg);
      soft.counter = c.counter ?? 0;
      const { auth, store, logs } = passkeyAuth();
      const browser = browserFor(auth);
      await passwordSignIn(browser);
      const options = await registerOptions(browser);
      const registered = await post(browser, "/auth/passkey/register", {
        response: await soft.register({ challenge: options.challenge as string }),
      });
      assert.equal(registered.status, 201);
      const fresh = browserFor(auth);
      const signIn = await signInOptions(fresh);
      const json = await soft.authenticate(
        c.knobs({ auth: soft, other, challenge: signIn.challenge as string }),
      );
      const response = await post(fresh, "/auth/passkey/signIn", { response: json });
      if (!c.reason) {
        assert.equal(response.status, 200, await response.clone().text());
        return;
      }
      await assertError(response, 400, "access_denied");
      const refused = logs.find((entry) => entry.message.startsWith("passkey sign-in refused"));
      const reason = String(refused?.details?.reason);
      if (reason !== c.reason.replaceAll("_", " ")) {
        assert.ok(
          c.reason === "credential_mismatch" && LOOKUP_REASONS.has(reason),
          `expected ${c.reason}, logged ${reason}`,
        );
      }
      // A refused sign-in leaves the stored counter alone.
      assert.equal((await store.getPasskey(soft.id))?.counter, c.counter ?? 0);
    });
  }
}
