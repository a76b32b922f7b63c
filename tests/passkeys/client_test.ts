// The browser client's passkey methods against the real handlers, with a fake WebAuthn
// browser API over the software authenticator: with the JSON helpers
// (parseCreationOptionsFromJSON, toJSON) and without them (base64url by hand).
import assert from "node:assert/strict";
import { browserClient } from "../support/browser_client.ts";
import {
  b64,
  createAuthenticator,
  fromB64,
  type SoftAuthenticator,
} from "../webauthn/_authenticator.ts";
import { ADA, ORIGIN, passkeyAuth } from "./_helpers.ts";

type Json = Record<string, unknown>;

/** What the fake `navigator.credentials` was asked. */
interface Calls {
  create: Json[];
  get: Json[];
}

const buffer = (text: string) => fromB64(text).buffer;

/** A credential object as a browser returns it, from the authenticator's JSON. */
function credentialObject(json: Json, withToJSON: boolean) {
  const response = json.response as Record<string, string | string[] | undefined>;
  const object: Record<string, unknown> = {
    id: json.id,
    rawId: buffer(json.rawId as string),
    type: "public-key",
    authenticatorAttachment: "platform",
    getClientExtensionResults: () => ({}),
    response: {
      clientDataJSON: buffer(response.clientDataJSON as string),
      ...(response.attestationObject
        ? {
          attestationObject: buffer(response.attestationObject as string),
          getTransports: () => response.transports,
        }
        : {
          authenticatorData: buffer(response.authenticatorData as string),
          signature: buffer(response.signature as string),
          userHandle: response.userHandle ? buffer(response.userHandle as string) : null,
        }),
    },
  };
  if (withToJSON) object.toJSON = () => json;
  return object;
}

/** Installs a fake WebAuthn browser API; `helpers` adds the JSON helpers. */
function installWebAuthn(
  options: { helpers: boolean; conditional?: boolean; holder: { soft?: SoftAuthenticator } },
): { calls: Calls; restore: () => void } {
  const calls: Calls = { create: [], get: [] };
  const original = (globalThis as Json).PublicKeyCredential;
  class FakePublicKeyCredential {
    static isConditionalMediationAvailable() {
      return Promise.resolve(options.conditional ?? true);
    }
  }
  if (options.helpers) {
    Object.assign(FakePublicKeyCredential, {
      parseCreationOptionsFromJSON: (json: Json) => ({ ...json, parsed: true }),
      parseRequestOptionsFromJSON: (json: Json) => ({ ...json, parsed: true }),
    });
  }
  const challengeOf = (publicKey: Json) =>
    options.helpers ? publicKey.challenge as string : b64(publicKey.challenge as Uint8Array);
  (globalThis as Json).PublicKeyCredential = FakePublicKeyCredential;
  Object.defineProperty(globalThis.navigator, "credentials", {
    configurable: true,
    value: {
      async create(request: { publicKey: Json }) {
        calls.create.push(request as unknown as Json);
        const user = request.publicKey.user as Json;
        const handle = options.helpers ? user.id as string : b64(user.id as Uint8Array);
        const soft = await createAuthenticator(-7, { userHandle: handle });
        options.holder.soft = soft;
        return credentialObject(
          await soft.register({ challenge: challengeOf(request.publicKey) }),
          options.helpers,
        );
      },
      async get(request: { publicKey: Json; signal?: AbortSignal; mediation?: string }) {
        calls.get.push(request as unknown as Json);
        if (request.mediation === "conditional") {
          // Waits for a pick that never comes, until aborted.
          await new Promise((_, reject) =>
            request.signal?.addEventListener("abort", () => reject(request.signal!.reason))
          );
        }
        const json = await options.holder.soft!.authenticate({
          challenge: challengeOf(request.publicKey),
        });
        return credentialObject(json, options.helpers);
      },
    },
  });
  return {
    calls,
    restore() {
      (globalThis as Json).PublicKeyCredential = original;
      delete (globalThis.navigator as unknown as Json).credentials;
    },
  };
}

for (const helpers of [true, false]) {
  const how = helpers ? "with the browser's JSON helpers" : "with base64url by hand";
  Deno.test(`client: passkey register, list, signIn and delete ${how}`, async () => {
    const holder: { soft?: SoftAuthenticator } = {};
    const fake = installWebAuthn({ helpers, holder });
    try {
      const { auth } = passkeyAuth();
      const { client } = browserClient(auth.handlers.ALL, ORIGIN);
      const signedIn = await client.signIn.credentials({
        username: "ada",
        password: "correct horse",
      });
      assert.ok(signedIn.data && "user" in signedIn.data, "a session, no second step");
      assert.equal(signedIn.data.user.sub, ADA.sub);
      const registered = await client.passkey.register({ name: "Laptop" });
      assert.equal(registered.error, null, JSON.stringify(registered.error));
      assert.equal(registered.data?.passkey.name, "Laptop");
      const publicKey = fake.calls.create[0].publicKey as Json;
      if (helpers) assert.equal(publicKey.parsed, true);
      else assert.ok(publicKey.challenge instanceof Uint8Array);
      const listed = await client.passkey.list();
      assert.deepEqual(listed.data?.passkeys.map((p) => p.id), [holder.soft!.id]);

      await client.signOut();
      assert.equal(await client.getSession(), null);
      const again = await client.passkey.signIn();
      assert.equal(again.data?.user.sub, ADA.sub, JSON.stringify(again.error));
      assert.equal(fake.calls.get[0].mediation, undefined);

      assert.deepEqual(await client.passkey.delete(holder.soft!.id), {
        data: { ok: true },
        error: null,
      });
      assert.equal((await client.passkey.delete(holder.soft!.id)).error?.status, 404);
      assert.deepEqual((await client.passkey.list()).data?.passkeys, []);
    } finally {
      fake.restore();
    }
  });
}

Deno.test("client: passkey.signIn({ autofill }) asks for conditional mediation; the button cancels it", async () => {
  const holder: { soft?: SoftAuthenticator } = {};
  const fake = installWebAuthn({ helpers: true, holder });
  try {
    const { auth } = passkeyAuth();
    const { client } = browserClient(auth.handlers.ALL, ORIGIN);
    await client.signIn.credentials({ username: "ada", password: "correct horse" });
    await client.passkey.register();
    await client.signOut();
    const autofill = client.passkey.signIn({ autofill: true });
    // Let the autofill request reach navigator.credentials.get.
    while (fake.calls.get.length === 0) await new Promise((r) => setTimeout(r, 1));
    assert.equal(fake.calls.get[0].mediation, "conditional");
    const button = await client.passkey.signIn();
    assert.equal(button.data?.user.sub, ADA.sub, JSON.stringify(button.error));
    const cancelled = await autofill;
    assert.equal(cancelled.error?.error, "access_denied");
    assert.equal(cancelled.error?.status, 0);
  } finally {
    fake.restore();
  }
});

Deno.test("client: without WebAuthn or autofill, passkey calls fail with status 0 and send nothing", async () => {
  const { auth } = passkeyAuth();
  const { client, seen } = browserClient(auth.handlers.ALL, ORIGIN);
  assert.equal((await client.passkey.register()).error?.status, 0);
  assert.equal((await client.passkey.signIn()).error?.error, "invalid_request");
  assert.equal(seen.length, 0);
  const fake = installWebAuthn({ helpers: true, conditional: false, holder: {} });
  try {
    const result = await client.passkey.signIn({ autofill: true });
    assert.equal(result.error?.error, "invalid_request");
    assert.equal(
      (await client.passkey.signIn({ redirectTo: "//evil" })).error?.error,
      "invalid_redirect_to",
    );
    assert.equal(seen.length, 0);
  } finally {
    fake.restore();
  }
});

/** Runs `body` with `location` set to `href` (as a page opened there has it). */
async function onPage(href: string, body: () => Promise<void>): Promise<void> {
  const url = new URL(href);
  const page = { href, hostname: url.hostname, port: url.port, protocol: url.protocol };
  const had = Object.getOwnPropertyDescriptor(globalThis, "location");
  Object.defineProperty(globalThis, "location", { configurable: true, value: page });
  try {
    await body();
  } finally {
    if (had) Object.defineProperty(globalThis, "location", had);
    else delete (globalThis as Json).location;
  }
}

Deno.test("client: on an IP address, a refused passkey ceremony says WebAuthn needs a domain name such as localhost", async () => {
  const fake = installWebAuthn({ helpers: true, holder: {} });
  const credentials = globalThis.navigator.credentials as unknown as Json;
  // What Chromium throws on http://127.0.0.1: the RP ID is an IP address.
  const refuse = () =>
    Promise.reject(new DOMException("This is an invalid domain.", "SecurityError"));
  credentials.create = refuse;
  credentials.get = refuse;
  try {
    for (
      const [href, instead] of [
        ["http://127.0.0.1:8000/", "(127.0.0.1)"],
        ["http://[::1]:3000/account", "([::1])"],
        ["http://192.168.1.20/", "(192.168.1.20)"],
      ]
    ) {
      await onPage(href, async () => {
        const { auth } = passkeyAuth();
        const { client } = browserClient(auth.handlers.ALL, ORIGIN);
        await client.signIn.credentials({ username: "ada", password: "correct horse" });
        for (const result of [await client.passkey.register(), await client.passkey.signIn()]) {
          assert.equal(result.error?.error, "invalid_request");
          assert.equal(result.error?.status, 0);
          const description = result.error?.error_description ?? "";
          assert.match(
            description,
            /WebAuthn needs a domain name such as localhost, not an IP address/,
          );
          assert.ok(description.includes(instead), description);
        }
      });
    }
    // On a domain name the same refusal names the browser's error, not IP addresses.
    await onPage("http://localhost:8000/", async () => {
      const { auth } = passkeyAuth();
      const { client } = browserClient(auth.handlers.ALL, ORIGIN);
      await client.signIn.credentials({ username: "ada", password: "correct horse" });
      const result = await client.passkey.register();
      assert.equal(result.error?.error, "invalid_request");
      assert.doesNotMatch(result.error?.error_description ?? "", /IP address/);
      assert.match(result.error?.error_description ?? "", /SecurityError/);
    });
  } finally {
    fake.restore();
  }
});
