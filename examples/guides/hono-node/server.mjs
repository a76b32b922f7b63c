import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createAuth } from "@service-stack/auth";

const auth = createAuth({ oauth: ["github"] });
const app = new Hono();

app.all("/auth/*", (c) => auth.handlers.ALL(c.req.raw));
app.get("/me", async (c) => c.json(await auth.api.getSession(c.req.raw)));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" });
