/**
 * The demo on Node 20+: `node:http` with a small bridge to Web
 * `Request`/`Response`, the auth handlers mounted under `/auth/` and the
 * shared demo app (page, browser client, mock OAuth provider) everywhere else.
 *
 * Run with `@service-stack/auth` installed (`npx jsr add @service-stack/auth`):
 * `node examples/node/server.mjs`. `PORT` picks the port (default 8000, `0`
 * for any free one); `AUTH_SECRET` the secret (else a random one is
 * generated at startup).
 *
 * The browser client is served as the package ships it: `client.js` and the
 * modules it imports, read once from the installed package, no build step.
 *
 * @module
 */

import { createServer } from "node:http";
import process from "node:process";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createAuth } from "@service-stack/auth";
import { createDemo, portFromEnv, readPackageClientModules } from "../shared/demo.mjs";

// A host name, IPv4 address or bracketed IPv6 address, with an optional port.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Turns a Node request into a Web `Request`, or `null` when its `Host` header
 * cannot be part of a URL. The request target is always read as a path, so
 * `//evil.example/x` cannot change the host; the body is streamed.
 *
 * @param {import("node:http").IncomingMessage} req
 * @param {AbortSignal} signal aborted when the client goes away
 * @returns {Request | null}
 */
function toWebRequest(req, signal) {
  const host = req.headers.host ?? "";
  if (!HOST.test(host)) return null;
  const target = req.url?.startsWith("/") ? req.url : "/";
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  // Appended, not resolved: `new URL("//evil.example/x", base)` would take that host.
  return new Request(new URL(`http://${host}${target}`), {
    method,
    headers,
    body: hasBody ? /** @type {ReadableStream} */ (Readable.toWeb(req)) : undefined,
    // @ts-ignore: Node's fetch needs `duplex` for a streamed body; the DOM types lack it.
    duplex: hasBody ? "half" : undefined,
    signal,
  });
}

/**
 * Writes a Web `Response` to a Node response: every `Set-Cookie` on its own
 * line (iterating `Headers` would join them with commas, which breaks their
 * `Expires` dates), the body streamed with backpressure, none for HEAD.
 *
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 * @param {string} method
 */
async function writeWebResponse(res, response, method) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (response.body === null || method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  // @ts-ignore: Node's web stream type differs nominally from the DOM one.
  await pipeline(Readable.fromWeb(response.body), res);
}

/** @type {(request: Request) => Response | Promise<Response>} */
let handle = () => new Response("Starting, try again in a moment.", { status: 503 });

const server = createServer(async (req, res) => {
  const aborter = new AbortController();
  res.on("close", () => aborter.abort());
  try {
    const request = toWebRequest(req, aborter.signal);
    if (request === null) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end(
        "Bad request: expected a Host header like 127.0.0.1:8000.",
      );
      return;
    }
    await writeWebResponse(res, await handle(request), request.method);
  } catch (error) {
    console.error(error);
    if (res.headersSent) res.destroy();
    else res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal error.");
  }
});

server.listen(portFromEnv(process.env), "127.0.0.1", async () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const demo = await createDemo({
    origin,
    env: process.env,
    runtime: `Node ${process.versions.node}`,
    clientModules: await readPackageClientModules(),
  });
  const auth = createAuth(demo.authConfig);
  handle = (request) => {
    const { pathname } = new URL(request.url);
    return pathname.startsWith("/auth/") ? auth.handlers.ALL(request) : demo.handle(request);
  };
  console.log(`listening on ${origin}`);
  console.log(`Open ${origin}/ in a browser.`);
});
