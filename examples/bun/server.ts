/**
 * The demo on Bun: `Bun.serve` with the auth handlers mounted under `/auth/`
 * and the shared demo app (page, browser client, mock OAuth provider)
 * everywhere else.
 *
 * Run with `@service-stack/auth` installed (the README's Install, or the
 * steps of docs/develop.md, which link the npm build here):
 * `bun examples/bun/server.ts`.
 * `PORT` picks the port (default 8000, `0` for any free one); `AUTH_SECRET`
 * the secret (else a random one is generated at startup).
 *
 * The browser client is served as the package ships it: `client.js` and the
 * modules it imports, read once from the installed package, no build step.
 *
 * @module
 */

import process from "node:process";
import { createAuth } from "@service-stack/auth";
import {
  createDemo,
  portFromEnv,
  portInUseMessage,
  readPackageClientModules,
} from "../shared/demo.mjs";

// The part of Bun's API used here, so that `deno check` accepts this file.
declare const Bun: {
  version: string;
  env: Record<string, string | undefined>;
  serve(options: {
    port: number;
    hostname: string;
    fetch(request: Request): Response | Promise<Response>;
  }): { port: number };
};

let handle: (request: Request) => Response | Promise<Response> = () =>
  new Response("Starting, try again in a moment.", { status: 503 });

const port = portFromEnv(Bun.env);
let server: { port: number };
try {
  server = Bun.serve({ port, hostname: "127.0.0.1", fetch: (request) => handle(request) });
} catch (error) {
  if ((error as { code?: unknown }).code !== "EADDRINUSE") throw error;
  console.error(portInUseMessage(port, "npx -y bun@1 examples/bun/server.ts"));
  process.exit(1);
}
const origin = `http://127.0.0.1:${server.port}`;

const demo = await createDemo({
  origin,
  env: Bun.env,
  runtime: `Bun ${Bun.version}`,
  clientModules: await readPackageClientModules(),
});
const auth = createAuth(demo.authConfig);
const handleDemo = demo.handler(auth);

handle = (request) => {
  const { pathname } = new URL(request.url);
  return pathname.startsWith("/auth/") ? auth.handlers.ALL(request) : handleDemo(request);
};
console.log(`listening on ${origin}`);
console.log(`Open ${origin}/ in a browser.`);
