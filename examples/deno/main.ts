/**
 * The demo on Deno: `Deno.serve` with the auth handlers mounted under
 * `/auth/` and the shared demo app (page, browser client, mock OAuth
 * provider) everywhere else.
 *
 * Run: `deno task demo` (or `deno run -A examples/deno/main.ts`). `PORT`
 * picks the port (default 8000, `0` for any free one); `AUTH_SECRET` the
 * secret (else a random one is generated at startup).
 *
 * The browser client is bundled once at startup with `deno bundle` from the
 * module's own `client.ts` and served as `/client/client.js`; nothing has to
 * be built beforehand.
 *
 * @module
 */

import { createAuth } from "@service-stack/auth";
import { createMockProvider } from "@service-stack/auth/testing";
import { createDemo, portFromEnv, portInUseMessage } from "../shared/demo.mjs";

/** Bundles `@service-stack/auth/client` into one browser ES module with `deno bundle`. */
async function bundleBrowserClient(): Promise<string> {
  const entry = import.meta.resolve("@service-stack/auth/client");
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--platform=browser", "--format=esm", entry],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    throw new Error(
      `deno bundle ${entry} failed; expected it to print the browser client:\n${
        new TextDecoder().decode(stderr)
      }`,
    );
  }
  return new TextDecoder().decode(stdout);
}

const env = Deno.env.toObject();
let handle: (request: Request) => Response | Promise<Response> = () =>
  new Response("Starting, try again in a moment.", { status: 503 });

const port = portFromEnv(env);
let server: Deno.HttpServer<Deno.NetAddr>;
try {
  server = Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, (request) => handle(request));
} catch (error) {
  if (!(error instanceof Deno.errors.AddrInUse)) throw error;
  console.error(portInUseMessage(port, "npx -y deno@2 task demo"));
  Deno.exit(1);
}
// Printed as localhost, not 127.0.0.1: browsers refuse passkeys (WebAuthn) on an IP address.
const origin = `http://localhost:${server.addr.port}`;

const demo = await createDemo({
  origin,
  env,
  runtime: `Deno ${Deno.version.deno}`,
  clientModules: new Map([["client.js", await bundleBrowserClient()]]),
});
// --- Enterprise single sign-on: "Example Corp" signs in through its own OpenID provider, a
// second in-process mock under /example-corp-idp; people of example.com start at /sso.
const exampleCorp = createMockProvider({
  baseURL: `${origin}/example-corp-idp`,
  id: "example-corp",
  interactive: true,
  oidc: { discovery: true },
  users: [
    { sub: "corp-alan", name: "Alan Turing (Example Corp)", email: "alan@example.com" },
    { sub: "corp-joan", name: "Joan Clarke (Example Corp)", email: "joan@example.com" },
  ],
  redirectURIs: [
    `${origin}/auth/callback/sso`,
    `http://localhost:${server.addr.port}/auth/callback/sso`,
  ],
});
const demoFetch = demo.authConfig.fetch ?? fetch;
const ssoConfig = {
  ...demo.authConfig,
  fetch:
    ((input: RequestInfo | URL, init?: RequestInit) =>
      String(input instanceof Request ? input.url : input).startsWith(`${exampleCorp.issuer}/`)
        ? exampleCorp.fetch(input, init)
        : demoFetch(input, init)) as typeof fetch,
  sso: {
    resolve: ({ domain, organization }: { domain?: string; organization?: string }) =>
      domain === "example.com" || organization === "example-corp"
        ? {
          id: "example-corp",
          issuer: exampleCorp.issuer,
          clientId: exampleCorp.provider.clientId,
          clientSecret: exampleCorp.provider.clientSecret as string,
          domains: ["example.com"],
        }
        : null,
  },
};
const SSO_PAGE = `<!doctype html><meta charset="utf-8"><title>Example Corp single sign-on</title>
<h1>Sign in with your company account</h1>
<form method="post" action="/auth/signIn/sso">
  <input type="hidden" name="csrfToken">
  <input type="hidden" name="redirectTo" value="/">
  <label>Work email <input name="email" type="email" value="alan@example.com" required></label>
  <button>Continue with single sign-on</button>
</form>
<script type="module">
  const { csrfToken } = await (await fetch("/auth/csrfToken")).json();
  document.querySelector("[name=csrfToken]").value = csrfToken;
</script>`;
// --- end of the single sign-on block.

const auth = createAuth(ssoConfig);
const handleDemo = demo.handler(auth);

handle = (request) => {
  const { pathname } = new URL(request.url);
  if (pathname === "/sso") {
    return new Response(SSO_PAGE, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  if (pathname.startsWith("/example-corp-idp/")) return exampleCorp.handler(request);
  return pathname.startsWith("/auth/") ? auth.handlers.ALL(request) : handleDemo(request);
};
console.log(`listening on ${origin}`);
console.log(`Open ${origin}/ in a browser.`);
console.log(`Example Corp single sign-on: ${origin}/sso (accounts: alan@, joan@example.com).`);
