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
const auth = createAuth(demo.authConfig);
const handleDemo = demo.handler(auth);

handle = (request) => {
  const { pathname } = new URL(request.url);
  return pathname.startsWith("/auth/") ? auth.handlers.ALL(request) : handleDemo(request);
};
console.log(`listening on ${origin}`);
console.log(`Open ${origin}/ in a browser.`);
