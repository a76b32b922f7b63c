/**
 * A real OpenID provider for end-to-end tests: panva's `oidc-provider` (npm,
 * dev-only, pinned) run under Node by `fixtures/oidc_provider.mjs`, and a
 * driver that signs in through its development login and consent pages with
 * plain `fetch`, following its HTML forms.
 *
 * The package is installed once per machine with `npm install --prefix`
 * into `.tools/oidc-provider-<version>` (git-ignored), into a temporary
 * folder first and then renamed, so that concurrent test runs never see a
 * half-installed copy.
 *
 * @module
 */

import { HttpClient } from "./http_client.ts";
import { REPO_ROOT, type RunningServer, startServer } from "./server.ts";
import { toolPath } from "./tools.ts";

/** The pinned `oidc-provider` version. */
export const OIDC_PROVIDER_VERSION = "9.13.3";

const INSTALL_DIR = `${REPO_ROOT}/.tools/oidc-provider-${OIDC_PROVIDER_VERSION}`;
const NPM_TIMEOUT_MS = 3 * 60_000;

/** Where the installed package's main module is, or why it cannot be had. */
export type OidcProviderInstall = { entry: string } | { skipped: string };

async function readEntry(dir: string): Promise<string | undefined> {
  const packageDir = `${dir}/node_modules/oidc-provider`;
  try {
    const manifest = JSON.parse(await Deno.readTextFile(`${packageDir}/package.json`));
    if (manifest.version !== OIDC_PROVIDER_VERSION || typeof manifest.main !== "string") {
      return undefined;
    }
    const entry = `${packageDir}/${manifest.main}`;
    await Deno.stat(entry);
    return entry;
  } catch {
    return undefined;
  }
}

/** `npm`, next to the `node` the tests use when there is one there, else on PATH. */
async function npmPath(): Promise<string> {
  const node = toolPath("node");
  if (node !== undefined) {
    const beside = `${node.slice(0, node.lastIndexOf("/"))}/npm`;
    try {
      await Deno.stat(beside);
      return beside;
    } catch {
      // Not installed beside node.
    }
  }
  return "npm";
}

async function install(): Promise<OidcProviderInstall> {
  const ready = await readEntry(INSTALL_DIR);
  if (ready !== undefined) return { entry: ready };
  await Deno.mkdir(`${REPO_ROOT}/.tools`, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: `${REPO_ROOT}/.tools`, prefix: "oidc-provider-" });
  try {
    const child = new Deno.Command(await npmPath(), {
      args: [
        "install",
        "--prefix",
        staging,
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--loglevel=error",
        `oidc-provider@${OIDC_PROVIDER_VERSION}`,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already exited.
      }
    }, NPM_TIMEOUT_MS);
    const output = await child.output().finally(() => clearTimeout(timer));
    if (!output.success) {
      const stderr = new TextDecoder().decode(output.stderr).trim().split("\n").slice(-2);
      return {
        skipped: `oidc-provider (npm install oidc-provider@${OIDC_PROVIDER_VERSION} failed: ${
          stderr.join(" | ")
        })`,
      };
    }
    try {
      await Deno.rename(staging, INSTALL_DIR);
    } catch {
      // Another run renamed its copy first; that one is used.
    }
  } catch (error) {
    return { skipped: `oidc-provider (npm could not run: ${error})` };
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
  const entry = await readEntry(INSTALL_DIR);
  return entry === undefined
    ? { skipped: `oidc-provider (no usable install in ${INSTALL_DIR})` }
    : { entry };
}

let installing: Promise<OidcProviderInstall> | undefined;

/**
 * Makes `oidc-provider` available to Node, installing it the first time;
 * resolves the path of its main module, or a `skipped` reason when npm
 * cannot install it.
 *
 * @example
 * ```ts ignore
 * const install = await installOidcProvider();
 * if ("skipped" in install) console.log(`skipped: ${install.skipped}`);
 * ```
 */
export function installOidcProvider(): Promise<OidcProviderInstall> {
  installing ??= install();
  return installing;
}

/** Options of {@link startOidcProvider}. */
export interface OidcProviderOptions {
  /** The client's registered redirect URIs. */
  redirectURIs: string[];
  /** Default `"test-client"`. */
  clientId?: string;
  /** Default a fixed 40-character secret. */
  clientSecret?: string;
  /** The users' email domain; default `"example.com"`. */
  emailDomain?: string;
  /** The fixture to run; default `fixtures/oidc_provider.mjs`. */
  fixture?: string;
  /** More environment for the fixture. */
  env?: Record<string, string>;
}

/** The running provider; `await using` stops it. */
export interface OidcProviderServer extends AsyncDisposable {
  /** The issuer identifier, `http://127.0.0.1:PORT`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The Node process. */
  server: RunningServer;
  /** Stops the provider. */
  stop(): Promise<void>;
  /** How many requests the provider has answered at `path` (e.g. `/token`). */
  requests(path: string): Promise<number>;
}

/**
 * Starts the provider under Node (`NODE_BIN`) on a free loopback port with
 * one client. Call {@link installOidcProvider} first.
 *
 * @example
 * ```ts ignore
 * await using op = await startOidcProvider({ redirectURIs: ["http://127.0.0.1:8000/cb"] });
 * const metadata = await discover(op.issuer, { fetch });
 * ```
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<
  OidcProviderServer
> {
  const install = await installOidcProvider();
  if ("skipped" in install) throw new Error(`oidc-provider is not available: ${install.skipped}`);
  const clientId = options.clientId ?? "test-client";
  const clientSecret = options.clientSecret ?? "test-client-secret-0123456789-abcdefghij";
  const fixture = options.fixture ?? "tests/support/fixtures/oidc_provider.mjs";
  const server = await startServer("node", fixture, {
    // Loading oidc-provider takes Node seconds, more while the parallel test run fills both cores.
    timeoutMs: 60_000,
    env: {
      OIDC_PROVIDER_ENTRY: install.entry,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_REDIRECT_URIS: JSON.stringify(options.redirectURIs),
      OIDC_EMAIL_DOMAIN: options.emailDomain ?? "example.com",
      ...options.env,
    },
  });
  const stop = () => server.stop();
  const requests = async (path: string) => {
    const counts = await (await fetch(`${server.url}/__counts`)).json();
    return counts[path] ?? 0;
  };
  return {
    issuer: server.url,
    clientId,
    clientSecret,
    server,
    stop,
    requests,
    [Symbol.asyncDispose]: stop,
  };
}

/** A form of an HTML page: where it posts and the values of its named inputs. */
interface HtmlForm {
  action: URL;
  fields: URLSearchParams;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (match, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16)
        : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return ENTITIES[name] ?? match;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, "i").exec(tag);
  return match === null ? undefined : unescapeHtml(match[2] ?? match[3]);
}

/** The first POST form of a page, with its inputs' names and values. */
function postForm(html: string, pageURL: string): HtmlForm | undefined {
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const [, formTag, body] = match;
    if ((attribute(formTag, "method") ?? "get").toLowerCase() !== "post") continue;
    const fields = new URLSearchParams();
    for (const input of body.matchAll(/<input\b([^>]*)>/gi)) {
      const name = attribute(input[1], "name");
      if (name !== undefined) fields.set(name, attribute(input[1], "value") ?? "");
    }
    return { action: new URL(attribute(formTag, "action") ?? pageURL, pageURL), fields };
  }
  return undefined;
}

/** Options of {@link completeDevInteractions}. */
export interface DevInteractionOptions {
  /** The redirect URI of the flow: the driver stops before requesting it. */
  redirectURI: string;
  /** The login typed into the development login page (it accepts any); default `"alice"`. */
  login?: string;
  /** A client whose cookies carry the provider session; default a new one. */
  client?: HttpClient;
}

/** Where the provider's pages end: a redirect to the client, or a form posting to it. */
type InteractionEnd = { redirect: URL } | { form: HtmlForm };

async function walkDevInteractions(
  authorizationURL: string | URL,
  options: DevInteractionOptions,
): Promise<InteractionEnd> {
  const client = options.client ?? new HttpClient();
  const stopBefore = (url: URL) => url.href.startsWith(options.redirectURI);
  let result = await client.follow(authorizationURL, {}, { stopBefore });
  for (let page = 0; page < 5; page++) {
    const location = result.response.headers.get("location");
    if (location !== null) {
      const target = new URL(location, result.url);
      if (stopBefore(target)) {
        await result.response.body?.cancel();
        return { redirect: target };
      }
    }
    const html = await result.response.text();
    const form = postForm(html, result.url);
    if (form === undefined) {
      throw new Error(
        `The provider answered ${result.response.status} at ${result.url} without a form or a redirect to the client; expected its login or consent page.`,
      );
    }
    // A form_post response: the page posts the authorization response to the client.
    if (stopBefore(form.action)) return { form };
    if (form.fields.has("login")) form.fields.set("login", options.login ?? "alice");
    if (form.fields.has("password")) form.fields.set("password", "any-password");
    result = await client.follow(form.action, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.fields.toString(),
    }, { stopBefore });
  }
  throw new Error("The provider asked for more than five pages; expected login and consent.");
}

/**
 * Signs in at the provider's development pages the way a browser would:
 * follows redirects from `authorizationURL`, fills the login form (any login
 * and password), submits the consent form, and returns the final redirect to
 * `redirectURI`, with its `code`, `state` and `iss` (or `error`).
 *
 * @example
 * ```ts ignore
 * const callback = await completeDevInteractions(url, { redirectURI });
 * callback.searchParams.get("code");
 * ```
 */
export async function completeDevInteractions(
  authorizationURL: string | URL,
  options: DevInteractionOptions,
): Promise<URL> {
  const end = await walkDevInteractions(authorizationURL, options);
  if ("form" in end) {
    throw new Error("The provider answered with a form_post page; expected a redirect.");
  }
  return end.redirect;
}

/**
 * Like {@link completeDevInteractions}, for `response_mode=form_post`:
 * returns the fields of the auto-submitting form the provider's last page
 * posts to `redirectURI` (`code`, `state`, `iss`), and that page's origin
 * (the `Origin` a browser sends with the cross-site POST).
 *
 * @example
 * ```ts ignore
 * const { fields, origin } = await completeDevInteractionsFormPost(url, { redirectURI });
 * ```
 */
export async function completeDevInteractionsFormPost(
  authorizationURL: string | URL,
  options: DevInteractionOptions,
): Promise<{ action: URL; fields: URLSearchParams; origin: string }> {
  const end = await walkDevInteractions(authorizationURL, options);
  if ("redirect" in end) {
    throw new Error("The provider redirected to the client; expected a form_post page.");
  }
  return {
    action: end.form.action,
    fields: end.form.fields,
    origin: new URL(authorizationURL).origin,
  };
}
