/**
 * What the Chromium tests of the demo share: Chromium's flags, the demo
 * servers' environment, screenshots, the page's signed-in state, and a
 * server that is stopped (and its output printed on failure) after a test.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import type { Page } from "npm:playwright-core@1";
import { REPO_ROOT, type RunningServer } from "../support/server.ts";

/** Where screenshots go. */
export const SCREENSHOTS = `${REPO_ROOT}/.out/screenshots`;

/** A secret from the developer's shell must not leak into the test servers. */
export const NO_SECRET = {
  AUTH_SECRET: "",
  SERVICE_AUTH_SECRET: "",
  SERVICE_SECRET: "",
  SECRET: "",
};

/** Keeps Chromium from reaching the network or doing work a test does not need. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Waits until the demo page says it is signed in or out. */
export async function waitForState(page: Page, state: "signed-in" | "signed-out"): Promise<void> {
  await page.waitForSelector(`body[data-state="${state}"]`);
}

/** Saves a full-page screenshot under `.out/screenshots/{name}.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
}

/** Runs `fn`, then stops the server; prints its output when `fn` failed. */
export async function withServer(
  server: RunningServer,
  fn: (server: RunningServer) => Promise<void>,
): Promise<void> {
  try {
    await fn(server);
  } catch (error) {
    console.error(`server output:\n${server.output()}`);
    throw error;
  } finally {
    await server.stop();
  }
}
