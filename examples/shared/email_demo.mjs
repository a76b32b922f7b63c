/**
 * The email part of the demo: the `email` option of `createAuth` over the
 * demo's in-memory user table, `credentials.resetPassword`, and the
 * development outbox at `GET /demo/outbox`, a page that lists the messages
 * `email.send` received instead of mailing them.
 *
 * Plain JavaScript with JSDoc types, like `demo.mjs`, which wires it in.
 *
 * @module
 */

import { AuthError, hashPassword } from "@service-stack/auth";

/** How many messages the outbox keeps: the newest ones. */
export const OUTBOX_SIZE = 50;
/** Where reset links point: the demo page, which shows its "new password" form there. */
export const RESET_PAGE = "/reset-password";
const OUTBOX_PATH = "/demo/outbox";
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;

const BANNER =
  "Development outbox: these messages were not sent; a real app delivers them through email.send.";

/**
 * One row of the demo's user table (the table is keyed by username; an account made by email
 * sign-in is keyed by its `sub`).
 *
 * @typedef {object} EmailUser
 * @property {string} sub
 * @property {string} name
 * @property {string} [passwordHash] What `hashPassword` returned; none for an account made by
 *   email until a password reset sets one.
 * @property {string} [email]
 * @property {boolean} [emailVerified] Whether a verification or change link proved `email`.
 */

/**
 * A message as the outbox keeps it.
 *
 * @typedef {object} OutboxEntry
 * @property {string} kind
 * @property {string} to
 * @property {string} url
 * @property {string} [code]
 * @property {Date} expiresAt
 * @property {Date} sentAt
 */

/**
 * The email side of the demo, over `users`.
 *
 * @param {Map<string, EmailUser>} users The demo's user table, shared with `demo.mjs`.
 */
export function createEmailDemo(users) {
  /** @type {OutboxEntry[]} */
  const outbox = [];

  /** @param {string} address */
  function userByEmail(address) {
    const wanted = address.toLowerCase();
    for (const user of users.values()) {
      if (user.email !== undefined && user.email.toLowerCase() === wanted) return user;
    }
    return undefined;
  }

  /** @param {string} sub */
  function userBySub(sub) {
    for (const user of users.values()) if (user.sub === sub) return user;
    return undefined;
  }

  /** @type {import("@service-stack/auth").EmailConfig} */
  const email = {
    send(message) {
      outbox.push({ ...message, sentAt: new Date() });
      // Bounded: the demo runs for hours, and only the newest messages matter.
      if (outbox.length > OUTBOX_SIZE) outbox.splice(0, outbox.length - OUTBOX_SIZE);
    },
    findUser(address) {
      const user = userByEmail(address);
      return user === undefined ? null : sessionUser(user);
    },
    // Any address can sign in by email: its account is made once the link or code is used.
    createUser(address) {
      const user = { sub: `user-${crypto.randomUUID()}`, name: address, email: address };
      users.set(user.sub, { ...user, emailVerified: true });
      return user;
    },
    onVerified({ sub, email }) {
      const user = userBySub(sub);
      if (user?.email !== undefined && user.email.toLowerCase() === email.toLowerCase()) {
        user.emailVerified = true;
      }
    },
    onChanged({ sub, to }) {
      const user = userBySub(sub);
      if (user === undefined) {
        throw new AuthError("invalid_grant", "That account no longer exists.");
      }
      const owner = userByEmail(to);
      if (owner !== undefined && owner !== user) {
        throw new AuthError(
          "invalid_request",
          "That address belongs to another account; choose another one.",
          { status: 409 },
        );
      }
      user.email = to;
      user.emailVerified = true;
    },
  };

  /** @type {(reset: { sub: string, email: string, password: string }) => Promise<void>} */
  async function resetPassword({ sub, password }) {
    const user = userBySub(sub);
    if (user === undefined) throw new AuthError("invalid_grant", "That account no longer exists.");
    if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
      throw new AuthError(
        "invalid_request",
        `The new password needs ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`,
      );
    }
    user.passwordHash = await hashPassword(password);
  }

  /**
   * Answers `GET /demo/outbox`, or `undefined` for any other path.
   *
   * @param {Request} request
   * @param {string} path
   * @returns {Response | undefined}
   */
  function handle(request, path) {
    if (path !== OUTBOX_PATH) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("Method not allowed: expected GET or HEAD.", {
        status: 405,
        headers: { "Content-Type": "text/plain; charset=utf-8", Allow: "GET, HEAD", ...HEADERS },
      });
    }
    return new Response(request.method === "HEAD" ? null : outboxPage(outbox), {
      headers: { "Content-Type": "text/html; charset=utf-8", ...OUTBOX_HEADERS, ...HEADERS },
    });
  }

  return { email, resetPassword, userByEmail, handle, outbox };
}

/**
 * The user fields a session gets from a table row (never the hash or the stored flag:
 * `emailVerified` is the library's to set).
 *
 * @param {EmailUser} user
 * @returns {{ sub: string, name: string, email?: string }}
 */
export function sessionUser(user) {
  return user.email === undefined
    ? { sub: user.sub, name: user.name }
    : { sub: user.sub, name: user.name, email: user.email };
}

const HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

// No script at all; the page's own style sheet only.
const OUTBOX_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** @param {string} value */
function escapeHTML(value) {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** @param {string} url A link is clickable only when it is http(s). */
function linkHTML(url) {
  let safe = false;
  try {
    safe = /^https?:$/.test(new URL(url).protocol);
  } catch {
    safe = false;
  }
  return safe
    ? `<a class="outbox-link" href="${escapeHTML(url)}">${escapeHTML(url)}</a>`
    : `<code>${escapeHTML(url)}</code>`;
}

/**
 * The outbox as HTML, newest first; every value escaped.
 *
 * @param {readonly OutboxEntry[]} messages
 * @returns {string}
 */
export function outboxPage(messages) {
  const rows = [...messages].reverse().map((message) =>
    `<li class="card outbox-message" data-kind="${escapeHTML(message.kind)}">
<p><strong class="outbox-kind">${escapeHTML(message.kind)}</strong> to <span class="outbox-to">${
      escapeHTML(message.to)
    }</span></p>
<p>Link: ${linkHTML(message.url)}</p>
${
      message.code === undefined
        ? ""
        : `<p>Code: <code class="outbox-code">${escapeHTML(message.code)}</code></p>\n`
    }<p class="muted">Sent ${
      escapeHTML(message.sentAt.toISOString())
    }, valid until <time class="outbox-expires" datetime="${
      escapeHTML(message.expiresAt.toISOString())
    }">${escapeHTML(message.expiresAt.toISOString())}</time></p>
</li>`
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Development outbox</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<h1>Development outbox</h1>
<p id="outbox-banner" class="message error" role="note">${escapeHTML(BANNER)}</p>
<p class="muted">The newest of the last ${OUTBOX_SIZE} messages first. Reload to see new ones.
Whoever can open this page can sign in as anyone: only the demo has it.
<a href="/">Back to the demo</a></p>
${
    rows.length === 0
      ? '<p id="outbox-empty" class="card">No messages yet.</p>'
      : `<ol id="outbox" class="outbox">\n${rows.join("\n")}\n</ol>`
  }
</body>
</html>
`;
}
