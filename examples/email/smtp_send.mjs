// `email.send` over SMTP with nodemailer: the library hands each message
// ({ kind, to, url, code?, expiresAt }); the app picks the wording and the transport.
import nodemailer from "nodemailer";

const SUBJECTS = {
  "sign-in": "Your sign-in link",
  "no-account": "Sign-in attempt",
  "verify-email": "Confirm your email address",
  "change-email": "Confirm your new email address",
  "email-changed": "Your email address was changed",
  "reset-password": "Reset your password",
};

function text(message) {
  const until = message.expiresAt.toUTCString();
  switch (message.kind) {
    case "sign-in":
      return `Sign in: ${message.url}\n\nOr type this code: ${message.code}\n\nValid until ${until}.`;
    case "no-account":
      return `Someone asked to sign in or reset a password with this address, but it has no account.\n${message.url}`;
    case "email-changed":
      return `The email address of your account was changed. If this was not you, contact us.\n${message.url}`;
    default:
      return `${SUBJECTS[message.kind]}: ${message.url}\n\nValid until ${until}.`;
  }
}

/**
 * Builds `email.send` for `createAuth`: one SMTP message per call.
 *
 * @param {{ host: string, port: number, secure?: boolean, auth?: { user: string, pass: string }, from: string }} options
 */
export function smtpSend({ host, port, secure = false, auth, from }) {
  const transport = nodemailer.createTransport({ host, port, secure, auth });
  return async (message) => {
    await transport.sendMail({
      from,
      to: message.to,
      subject: SUBJECTS[message.kind],
      text: text(message),
    });
  };
}
