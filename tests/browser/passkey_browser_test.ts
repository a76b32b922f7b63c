/**
 * Passkeys in a real browser: headless Chromium with a virtual authenticator
 * from the DevTools protocol's WebAuthn domain (CTAP2, internal transport,
 * resident keys, user verification), against the Deno and Node demos. Signs
 * in with a password, registers a passkey, signs out, signs in with the
 * passkey (the button, then autofill on the `username webauthn` field),
 * lists and deletes it. Every registration and assertion the browser sent is
 * also verified by `@simplewebauthn/server`: both verifiers agree.
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { type Browser, chromium, type Page } from "npm:playwright-core@1";
// deno-lint-ignore no-import-prefix -- dev-only peer for the differential check.
import * as peer from "npm:@simplewebauthn/server@13";
import { stageApp } from "../support/npm_package.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";
import { demoPassword } from "../runtimes/_demo_flow.ts";
import { verifyRegistration } from "../../src/webauthn/registration.ts";
import { verifyAssertion } from "../../src/webauthn/assertion.ts";
import { CHROMIUM_ARGS, NO_SECRET, waitForState, withServer } from "./_chromium.ts";

type Json = Record<string, unknown>;

/** One ceremony as the browser ran it: the options' challenge and the response it posted. */
interface Ceremony {
  challenge: string;
  response: Json;
  status: number;
}

/** Records every passkey ceremony the pages run through `/auth/passkey/...`, in order. */
function recordCeremonies() {
  const registrations: Ceremony[] = [];
  const assertions: Ceremony[] = [];
  const attach = (page: Page) => {
    page.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      if (path !== "/auth/passkey/register" && path !== "/auth/passkey/signIn") return;
      const body = JSON.parse(response.request().postData() ?? "{}");
      // The challenge the browser signed, as the options gave it (checked by both verifiers).
      const clientData = (body.response.response as Json).clientDataJSON as string;
      const decoded = atob(clientData.replace(/-/g, "+").replace(/_/g, "/"));
      const entry = {
        challenge: JSON.parse(decoded).challenge,
        response: body.response,
        status: response.status(),
      };
      (path.endsWith("register") ? registrations : assertions).push(entry);
    });
  };
  return { registrations, assertions, attach };
}

async function passkeyRows(page: Page, count: number): Promise<string[]> {
  await page.waitForFunction((n) => document.querySelectorAll("#passkeys li").length === n, count);
  return await page.$$eval("#passkeys li", (items) => items.map((item) => item.textContent ?? ""));
}

/**
 * Verifies what Chromium sent with `@simplewebauthn/server` and with our core, and checks
 * that they agree with each other and with the route's answer.
 */
async function differential(
  origin: string,
  rpID: string,
  registration: Ceremony,
  assertions: Ceremony[],
): Promise<void> {
  const ours = await verifyRegistration({
    response: registration.response,
    expectedChallenge: registration.challenge,
    expectedOrigins: [origin],
    rpID,
  });
  const theirs = await peer.verifyRegistrationResponse({
    response: registration.response as never,
    expectedChallenge: registration.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  });
  assert.equal(theirs.verified, true);
  assert.equal(registration.status, 201);
  const info = theirs.registrationInfo!;
  assert.equal(info.credential.id, ours.credentialId);
  assert.equal(info.credential.counter, ours.counter);
  assert.equal(info.aaguid, ours.aaguid);
  assert.equal(info.credentialDeviceType, ours.deviceType);
  assert.equal(info.credentialBackedUp, ours.backedUp);
  assert.equal(info.userVerified, ours.userVerified);
  assert.equal(info.fmt, ours.attestationFormat);
  let counter = ours.counter;
  for (const assertion of assertions) {
    const handle = (assertion.response.response as Json).userHandle as string;
    const mine = await verifyAssertion({
      response: assertion.response,
      expectedChallenge: assertion.challenge,
      expectedOrigins: [origin],
      rpID,
      credential: {
        id: ours.credentialId,
        publicKey: ours.publicKey,
        algorithm: ours.algorithm,
        counter,
        userHandle: handle,
      },
    });
    const other = await peer.verifyAuthenticationResponse({
      response: assertion.response as never,
      expectedChallenge: assertion.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: { id: info.credential.id, publicKey: info.credential.publicKey, counter },
    });
    assert.equal(other.verified, true);
    assert.equal(assertion.status, 200);
    assert.equal(other.authenticationInfo.newCounter, mine.newCounter);
    assert.equal(other.authenticationInfo.userVerified, mine.userVerified);
    assert.equal(other.authenticationInfo.credentialBackedUp, mine.backedUp);
    counter = mine.newCounter;
  }
  // A tampered signature: both refuse.
  const last = structuredClone(assertions.at(-1)!);
  const response = last.response.response as Json;
  const signature = (response.signature as string).split("");
  signature[10] = signature[10] === "A" ? "B" : "A";
  response.signature = signature.join("");
  await assert.rejects(
    verifyAssertion({
      response: last.response,
      expectedChallenge: last.challenge,
      expectedOrigins: [origin],
      rpID,
      credential: {
        id: ours.credentialId,
        publicKey: ours.publicKey,
        algorithm: ours.algorithm,
        counter: 0,
        userHandle: response.userHandle as string,
      },
    }),
  );
  const refused = await peer.verifyAuthenticationResponse({
    response: last.response as never,
    expectedChallenge: last.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: info.credential.id, publicKey: info.credential.publicKey, counter: 0 },
  }).then((result) => result.verified, () => false);
  assert.equal(refused, false);
}

/** A page in a fresh context with a virtual authenticator, recording its ceremonies. */
async function openPage(
  browser: Browser,
  ceremonies: ReturnType<typeof recordCeremonies>,
  options: { autofill: boolean },
) {
  const context = await browser.newContext({ viewport: { width: 900, height: 1400 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // The refusals the test provokes are logged by Chromium as failed requests.
    if (message.type() === "error" && !/status of 40[014]/.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  ceremonies.attach(page);
  // Records how the page calls navigator.credentials.get; `autofill: false` plays a browser
  // without passkey autofill, so that the button is the way in.
  await page.addInitScript((autofill: boolean) => {
    const calls: string[] = [];
    (globalThis as unknown as { passkeyCalls: string[] }).passkeyCalls = calls;
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      calls.push(options?.mediation ?? "optional");
      return get(options);
    };
    if (!autofill) {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    }
  }, options.autofill);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, problems, cdp, authenticatorId };
}

function calls(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as { passkeyCalls: string[] }).passkeyCalls);
}

/** The whole passkey flow on one demo server. */
async function passkeyFlow(server: RunningServer): Promise<void> {
  // WebAuthn needs a domain for its RP ID (an IP address is refused): the demo on localhost.
  const origin = server.url.replace("127.0.0.1", "localhost");
  const browser: Browser = await chromium.launch({
    executablePath: toolPath("chromium"),
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
  });
  try {
    const ceremonies = recordCeremonies();
    const laptop = await openPage(browser, ceremonies, { autofill: true });
    const { page, cdp, authenticatorId } = laptop;
    await page.goto(`${origin}/`);
    await waitForState(page, "signed-out");
    assert.equal(
      await page.getAttribute('#credentials-form input[name="username"]', "autocomplete"),
      "username webauthn",
    );
    // The signed-out page starts a conditional (autofill) request at once.
    await page.waitForFunction(() =>
      (globalThis as unknown as { passkeyCalls: string[] }).passkeyCalls.includes("conditional")
    );

    // A password first.
    await page.fill('#credentials-form input[name="username"]', "demo");
    await page.fill('#credentials-form input[name="password"]', demoPassword(server.output()));
    await page.click('#credentials-form button[type="submit"]');
    await waitForState(page, "signed-in");
    assert.equal(await page.textContent("#user-name"), "Demo User");
    await passkeyRows(page, 0);

    // Register a passkey on the virtual authenticator.
    await page.fill("#passkey-name", "Virtual laptop");
    await page.click("#passkey-register");
    await page.waitForSelector("#passkeys-message.info");
    assert.equal(await page.textContent("#passkeys-message"), "Added the passkey Virtual laptop.");
    assert.match((await passkeyRows(page, 1))[0], /Virtual laptop/);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0].isResidentCredential, true);
    assert.equal(credentials[0].rpId, "localhost");
    // The user handle is opaque: not the sub.
    assert.notEqual(atob(credentials[0].userHandle ?? ""), "user-demo");

    // Autofill: signed out, the page's conditional request is answered by the authenticator
    // (the virtual one answers at once, as a person picking the passkey from the field would).
    await page.click("#sign-out");
    await page.waitForFunction(() =>
      document.body.dataset.state === "signed-in" &&
      document.getElementById("signed-in-message")?.textContent === "Signed in with a passkey."
    );
    assert.equal(await page.textContent("#user-name"), "Demo User");
    assert.ok((await calls(page)).filter((c) => c === "conditional").length >= 2);
    assert.equal(ceremonies.assertions.at(-1)?.status, 200);

    // The button, in another browser without autofill holding the same passkey (synced).
    const phone = await openPage(browser, ceremonies, { autofill: false });
    await phone.cdp.send("WebAuthn.addCredential", {
      authenticatorId: phone.authenticatorId,
      credential: (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0],
    });
    await phone.page.goto(`${origin}/`);
    await waitForState(phone.page, "signed-out");
    await phone.page.click("#passkey-sign-in");
    // The page shows the state and then the message: wait for both, as a person would see them.
    await phone.page.waitForFunction(() =>
      document.body.dataset.state === "signed-in" &&
      document.getElementById("signed-in-message")?.textContent === "Signed in with a passkey."
    );
    assert.equal(await phone.page.textContent("#user-name"), "Demo User");
    assert.deepEqual(await calls(phone.page), ["optional"]);
    assert.match((await passkeyRows(phone.page, 1))[0], /Virtual laptop.*last used/);

    // Deleted: gone from the server and from the list.
    await phone.page.click("#passkeys li button.delete-passkey");
    await phone.page.waitForSelector("#passkeys-message.info");
    assert.equal(
      await phone.page.textContent("#passkeys-message"),
      "Deleted the passkey Virtual laptop.",
    );
    await passkeyRows(phone.page, 0);

    // The deleted passkey no longer signs in: the same refusal as any unknown credential.
    await phone.page.click("#sign-out");
    await waitForState(phone.page, "signed-out");
    await phone.page.click("#passkey-sign-in");
    await phone.page.waitForSelector("#passkey-message.error");
    assert.match(
      await phone.page.textContent("#passkey-message") ?? "",
      /^access_denied: .*HTTP 400/,
    );
    await waitForState(phone.page, "signed-out");

    assert.equal(ceremonies.registrations.length, 1);
    const accepted = ceremonies.assertions.filter((entry) => entry.status === 200);
    assert.equal(accepted.length, 2);
    await differential(origin, "localhost", ceremonies.registrations[0], accepted);
    assert.deepEqual([...laptop.problems, ...phone.problems], []);
  } finally {
    await browser.close();
  }
}

Deno.test({
  name: "chromium passkeys on the Deno demo: register, sign in (button and autofill), list, delete",
  ignore: missingTool("chromium"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer("deno", "examples/deno/main.ts", { env: NO_SECRET });
    await withServer(server, () => passkeyFlow(server));
  },
});

Deno.test({
  name: "chromium passkeys on the Node demo: register, sign in (button and autofill), list, delete",
  ignore: missingTool("chromium") || missingTool("node"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using app = await stageApp("examples");
    const server = await startServer("node", "node/server.mjs", { cwd: app.dir, env: NO_SECRET });
    await withServer(server, () => passkeyFlow(server));
  },
});

Deno.test({
  name:
    "chromium passkeys on 127.0.0.1: the demo prints localhost, and a refused ceremony says WebAuthn needs a domain name",
  ignore: missingTool("chromium"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer("deno", "examples/deno/main.ts", { env: NO_SECRET });
    await withServer(server, async () => {
      // The URL the demo tells people to open is on localhost, where passkeys work.
      assert.match(server.url, /^http:\/\/localhost:\d+$/);
      assert.doesNotMatch(server.output(), /127\.0\.0\.1|0\.0\.0\.0/);
      const browser: Browser = await chromium.launch({
        executablePath: toolPath("chromium"),
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: 30_000,
      });
      try {
        const { page } = await openPage(browser, recordCeremonies(), { autofill: false });
        await page.goto(`http://127.0.0.1:${server.port}/`);
        await waitForState(page, "signed-out");
        await page.fill('#credentials-form input[name="username"]', "demo");
        await page.fill('#credentials-form input[name="password"]', demoPassword(server.output()));
        await page.click('#credentials-form button[type="submit"]');
        await waitForState(page, "signed-in");
        // Chromium refuses the ceremony on an IP address; the client says why and what to open.
        await page.click("#passkey-register");
        await page.waitForSelector("#passkeys-message.error");
        const message = await page.textContent("#passkeys-message") ?? "";
        assert.match(
          message,
          /^invalid_request: WebAuthn needs a domain name such as localhost, not an IP address/,
        );
        assert.ok(message.includes("(127.0.0.1)"), message);
      } finally {
        await browser.close();
      }
    });
  },
});
