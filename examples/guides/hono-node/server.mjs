import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono } from "hono";
import { createAuth } from "@service-stack/auth";

const auth = createAuth({ oauth: ["github"] });
const app = new Hono();

// The client's address, which rate limits count by.
const remoteAddr = (c) => ({ hostname: getConnInfo(c).remote.address });
app.all("/auth/*", (c) => auth.handlers.ALL(c.req.raw, { remoteAddr: remoteAddr(c) }));
app.get("/me", async (c) => c.json(await auth.api.getSession(c.req.raw)));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" });
