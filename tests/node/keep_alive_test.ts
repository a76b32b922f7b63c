/**
 * `toNodeHandler` after a refused body, on one keep-alive connection under
 * real Node and Bun (the `node:http` fixture from the npm build): after a
 * 413 (a body over the limit) or a 408 (a body that stalls), the next request
 * on the same connection is answered, or the refusal said `Connection: close`
 * and the connection then closes. Never a connection left hanging.
 *
 * @module
 */

import assert from "node:assert/strict";
import { stageApp } from "../support/npm_package.ts";
import { type Runtime, startServer } from "../support/server.ts";
import { missingTool } from "../support/tools.ts";

const SECRET = "node-keep-alive-secret-0123456789abcdefghijklmn";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One HTTP/1.1 response read off a raw connection. */
interface RawResponse {
  status: number;
  headers: Map<string, string[]>;
  body: string;
}

/** A raw keep-alive connection: writes requests, reads responses (Content-Length or chunked). */
class Connection {
  #buffer = new Uint8Array(0);
  #eof = false;
  constructor(readonly conn: Deno.Conn) {}

  static async open(port: number): Promise<Connection> {
    return new Connection(await Deno.connect({ hostname: "127.0.0.1", port }));
  }

  async write(data: string | Uint8Array): Promise<void> {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    for (let at = 0; at < bytes.length;) at += await this.conn.write(bytes.subarray(at));
  }

  /** Reads more bytes; `false` at the end of the stream (the server closed the connection). */
  async #fill(deadline: number): Promise<boolean> {
    if (this.#eof) return false;
    const chunk = new Uint8Array(65_536);
    const left = deadline - Date.now();
    if (left <= 0) throw new Error("no answer in time; expected a response or a closed connection");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("no answer in time; expected a response or a closed connection")),
        left,
      );
    });
    try {
      const read = await Promise.race([this.conn.read(chunk), timeout]).catch((error) => {
        if (error instanceof Deno.errors.ConnectionReset) return null;
        throw error;
      });
      if (read === null) {
        this.#eof = true;
        return false;
      }
      const next = new Uint8Array(this.#buffer.length + read);
      next.set(this.#buffer);
      next.set(chunk.subarray(0, read), this.#buffer.length);
      this.#buffer = next;
      return true;
    } finally {
      clearTimeout(timer);
    }
  }

  #take(length: number): Uint8Array {
    const taken = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.slice(length);
    return taken;
  }

  async #line(deadline: number): Promise<string | null> {
    while (true) {
      const at = this.#buffer.findIndex((byte, i) => byte === 13 && this.#buffer[i + 1] === 10);
      if (at >= 0) {
        const line = decoder.decode(this.#take(at));
        this.#take(2);
        return line;
      }
      if (!(await this.#fill(deadline))) return null;
    }
  }

  async #bytes(length: number, deadline: number): Promise<Uint8Array> {
    while (this.#buffer.length < length) {
      if (!(await this.#fill(deadline))) throw new Error("the connection closed inside a body");
    }
    return this.#take(length);
  }

  /** The next response, or `null` when the server closed the connection first. */
  async response(timeoutMs: number): Promise<RawResponse | null> {
    const deadline = Date.now() + timeoutMs;
    const statusLine = await this.#line(deadline);
    if (statusLine === null) return null;
    const status = Number(statusLine.split(" ")[1]);
    const headers = new Map<string, string[]>();
    while (true) {
      const line = await this.#line(deadline);
      if (line === null) throw new Error("the connection closed inside the headers");
      if (line === "") break;
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...headers.get(name) ?? [], line.slice(colon + 1).trim()]);
    }
    let body = "";
    if (headers.get("transfer-encoding")?.[0]?.toLowerCase() === "chunked") {
      while (true) {
        const size = parseInt((await this.#line(deadline)) ?? "0", 16);
        if (size === 0) {
          await this.#line(deadline);
          break;
        }
        body += decoder.decode(await this.#bytes(size, deadline));
        await this.#line(deadline);
      }
    } else {
      body = decoder.decode(
        await this.#bytes(Number(headers.get("content-length")?.[0] ?? 0), deadline),
      );
    }
    return { status, headers, body };
  }

  /** Whether the server closes the connection within `timeoutMs` (reads to the end). */
  async closes(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    try {
      while (await this.#fill(deadline)) {
        // Anything after the refusal is unexpected, but reading on finds the end.
      }
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    try {
      this.conn.close();
    } catch {
      // Already closed.
    }
  }
}

function request(port: number, method: string, path: string, headers: Record<string, string>) {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** A CSRF token and its cookie, asked on `connection` (keep-alive). */
async function csrf(connection: Connection, port: number) {
  await connection.write(request(port, "GET", "/auth/csrfToken", {}));
  const answer = (await connection.response(10_000))!;
  assert.equal(answer.status, 200);
  const cookie = (answer.headers.get("set-cookie") ?? []).map((line) => line.split(";")[0])
    .join("; ");
  return { token: JSON.parse(answer.body).csrfToken as string, cookie };
}

/**
 * After `refused` on `connection`: the next request is answered, or `refused` said
 * `Connection: close` and the server closes the connection.
 */
async function nextRequestAnsweredOrClosed(
  connection: Connection,
  port: number,
  refused: RawResponse,
): Promise<"answered" | "closed"> {
  const closing = (refused.headers.get("connection") ?? []).some((v) => /close/i.test(v));
  if (closing) {
    assert.equal(await connection.closes(5_000), true, "Connection: close, then closed");
    return "closed";
  }
  await connection.write(request(port, "GET", "/auth/csrfToken", {}));
  const next = await connection.response(5_000);
  assert.ok(next !== null, "the next request on the connection is answered");
  assert.equal(next.status, 200);
  assert.ok(JSON.parse(next.body).csrfToken);
  return "answered";
}

const TARGETS: { runtime: Exclude<Runtime, "deno">; label: string }[] = [
  { runtime: "node", label: "Node" },
  { runtime: "bun", label: "Bun" },
];

for (const { runtime, label } of TARGETS) {
  Deno.test({
    name:
      `${label}: after a 413 (body too large) and a 408 (body stalled), the same keep-alive connection answers the next request or is closed`,
    ignore: missingTool(runtime),
    async fn() {
      await using app = await stageApp("tests/node/fixtures");
      await using server = await startServer(runtime, "http_server.mjs", {
        cwd: app.dir,
        env: { AUTH_SECRET: SECRET },
      });
      const port = server.port;
      const origin = `http://127.0.0.1:${port}`;

      // 413: a JSON body of 200 KiB, all of it sent, on a connection that asked a token first.
      const big = await Connection.open(port);
      try {
        const { token, cookie } = await csrf(big, port);
        const body = encoder.encode(
          JSON.stringify({ username: "ada", password: "x".repeat(204_800) }),
        );
        const sending = big.write(
          request(port, "POST", "/auth/signIn/credentials", {
            Origin: origin,
            Cookie: cookie,
            "X-CSRF-Token": token,
            "Content-Type": "application/json",
            "Content-Length": String(body.length),
          }),
        ).then(() => big.write(body)).catch(() => {});
        const refused = (await big.response(15_000))!;
        assert.equal(refused.status, 413);
        assert.equal(JSON.parse(refused.body).error, "invalid_request");
        await sending;
        await nextRequestAnsweredOrClosed(big, port, refused);
      } finally {
        big.close();
      }

      // 408: a body announced as 1,000 bytes of which 10 arrive; the server's deadline is 10 s.
      const stalled = await Connection.open(port);
      try {
        const { token, cookie } = await csrf(stalled, port);
        await stalled.write(
          request(port, "POST", "/auth/signIn/credentials", {
            Origin: origin,
            Cookie: cookie,
            "X-CSRF-Token": token,
            "Content-Type": "application/json",
            "Content-Length": "1000",
          }) + '{"usernam',
        );
        const refused = (await stalled.response(20_000))!;
        assert.equal(refused.status, 408);
        assert.equal(JSON.parse(refused.body).error, "invalid_request");
        // The rest of that body never comes: the connection cannot carry another request.
        assert.equal(await nextRequestAnsweredOrClosed(stalled, port, refused), "closed");
      } finally {
        stalled.close();
      }
    },
  });
}
