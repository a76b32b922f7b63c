// The mappers of naver, x, dropbox, patreon, strava and zoom are declarations
// (providers/_fields.ts) now: each maps these sample answers exactly as its
// hand-written function did (the expected values were produced by those
// functions before the change), errors included.
import assert from "node:assert/strict";
import { naverProfile } from "../../../src/oauth/providers/naver.ts";
import { xProfile } from "../../../src/oauth/providers/x.ts";
import { dropboxProfile } from "../../../src/oauth/providers/dropbox.ts";
import { patreonProfile } from "../../../src/oauth/providers/patreon.ts";
import { stravaProfile } from "../../../src/oauth/providers/strava.ts";
import { zoomProfile } from "../../../src/oauth/providers/zoom.ts";
import { fieldProfile } from "../../../src/oauth/providers/_fields.ts";
import { ProfileError } from "../../../src/oauth/profile.ts";

type MapperId = "naver" | "x" | "dropbox" | "patreon" | "strava" | "zoom";
type Outcome = { user: Record<string, unknown> } | { error: string };

const MAPPERS: Record<MapperId, (raw: Record<string, unknown>) => unknown> = {
  naver: naverProfile,
  x: xProfile,
  dropbox: dropboxProfile,
  patreon: patreonProfile,
  strava: stravaProfile,
  zoom: zoomProfile,
};

const SAMPLES: Record<MapperId, unknown[]> = {
  naver: [
    {
      resultcode: "00",
      message: "success",
      response: {
        id: "32742776",
        nickname: "OpenAPI",
        name: "Open",
        email: "openapi@naver.com",
        profile_image: "https://phinf.pstatic.net/a.png",
      },
    },
    { resultcode: "00", response: { id: "1", name: "Only Name", email: "not-an-email" } },
    {
      resultcode: "00",
      response: {
        id: 42,
        nickname: "  ",
        name: "Fallback",
        profile_image: "http://insecure.example/x.png",
      },
    },
    { resultcode: "024", message: "Authentication failed", response: { id: "1" } },
    { resultcode: "00" },
    { resultcode: "00", response: { nickname: "No id" } },
    [],
  ],
  x: [
    {
      data: {
        id: "2244994945",
        name: "X Dev",
        username: "TwitterDev",
        profile_image_url: "https://pbs.twimg.com/a.jpg",
        confirmed_email: "dev@x.com",
      },
    },
    { data: { id: "1", username: "only_user" } },
    { data: { id: "1", name: "", username: "", confirmed_email: "bad" } },
    { data: "nope" },
    { errors: [{ message: "Unauthorized" }] },
    "text",
  ],
  dropbox: [
    {
      account_id: "dbid:AAH4f99",
      name: { display_name: "Franz Ferdinand" },
      email: "franz@dropbox.com",
      email_verified: true,
      profile_photo_url: "https://dl-web.dropbox.com/a.jpg",
    },
    {
      account_id: "dbid:1",
      name: { display_name: "Unverified" },
      email: "u@example.com",
      email_verified: false,
    },
    { account_id: "dbid:2", name: "flat name", email: "u@example.com" },
    {
      account_id: "dbid:3",
      name: { display_name: "Str flag" },
      email: "s@example.com",
      email_verified: "true",
    },
    { name: { display_name: "No id" } },
    null,
  ],
  patreon: [
    {
      data: {
        id: "12345678",
        type: "user",
        attributes: {
          full_name: "Corgi The Dev",
          email: "corgi@example.com",
          is_email_verified: true,
          image_url: "https://c8.patreon.com/a.png",
        },
      },
    },
    {
      data: {
        id: "1",
        attributes: { full_name: "Unverified", email: "u@example.com", is_email_verified: false },
      },
    },
    { data: { id: "2", attributes: "none" } },
    { data: { id: "3" } },
    { data: null },
    {},
  ],
  strava: [
    {
      id: 134815,
      username: "marianne_t",
      firstname: "Marianne",
      lastname: "Teutenberg",
      profile: "https://dgalywyr863hv.cloudfront.net/a.jpg",
    },
    { id: 1, username: "only_user", firstname: "", lastname: null },
    { id: 2, firstname: "Solo" },
    { id: 3, username: "u", profile: "avatar/athlete/large.png", email: "e@example.com" },
    { username: "no id" },
    42,
  ],
  zoom: [
    {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      first_name: "Jill",
      last_name: "Chill",
      email: "jchill@example.com",
      verified: 1,
      pic_url: "https://zoom.us/p/a.jpg",
    },
    {
      id: "1",
      display_name: "Display",
      first_name: "Jill",
      last_name: "Chill",
      email: "x@example.com",
      verified: 0,
    },
    { id: "2", first_name: "Jill", email: "x@example.com", verified: true },
    { id: "3", display_name: " ", last_name: "Last", email: "x@example.com", verified: "1" },
    { first_name: "No id" },
    undefined,
  ],
};

/** What the hand-written mappers returned (or threw) for each sample above. */
const EXPECTED: Record<MapperId, Outcome[]> = {
  "naver": [
    {
      "user": {
        "sub": "32742776",
        "name": "OpenAPI",
        "email": "openapi@naver.com",
        "image": "https://phinf.pstatic.net/a.png",
      },
    },
    {
      "user": {
        "sub": "1",
        "name": "Only Name",
      },
    },
    {
      "user": {
        "sub": "42",
        "name": "Fallback",
        "image": "http://insecure.example/x.png",
      },
    },
    {
      "error":
        'ProfileError: The Naver user-info response is not a success; expected { resultcode: "00", response }.',
    },
    {
      "error":
        'ProfileError: The Naver user-info response is not a success; expected { resultcode: "00", response }.',
    },
    {
      "error":
        "ProfileError: The Naver user-info response has no usable id; expected a non-empty string or an integer.",
    },
    {
      "error":
        "ProfileError: The Naver user-info response is not a JSON object; expected an object.",
    },
  ],
  "x": [
    {
      "user": {
        "sub": "2244994945",
        "name": "X Dev",
        "email": "dev@x.com",
        "image": "https://pbs.twimg.com/a.jpg",
      },
    },
    {
      "user": {
        "sub": "1",
        "name": "only_user",
      },
    },
    {
      "user": {
        "sub": "1",
      },
    },
    {
      "error":
        "ProfileError: The X user-info response has no data object: expected { data: { id } }.",
    },
    {
      "error":
        "ProfileError: The X user-info response has no data object: expected { data: { id } }.",
    },
    {
      "error": "ProfileError: The X user-info response is not a JSON object; expected an object.",
    },
  ],
  "dropbox": [
    {
      "user": {
        "sub": "dbid:AAH4f99",
        "name": "Franz Ferdinand",
        "email": "franz@dropbox.com",
        "image": "https://dl-web.dropbox.com/a.jpg",
      },
    },
    {
      "user": {
        "sub": "dbid:1",
        "name": "Unverified",
      },
    },
    {
      "user": {
        "sub": "dbid:2",
      },
    },
    {
      "user": {
        "sub": "dbid:3",
        "name": "Str flag",
        "email": "s@example.com",
      },
    },
    {
      "error":
        "ProfileError: The Dropbox user-info response has no usable id; expected a non-empty string or an integer.",
    },
    {
      "error":
        "ProfileError: The Dropbox user-info response is not a JSON object; expected an object.",
    },
  ],
  "patreon": [
    {
      "user": {
        "sub": "12345678",
        "name": "Corgi The Dev",
        "email": "corgi@example.com",
        "image": "https://c8.patreon.com/a.png",
      },
    },
    {
      "user": {
        "sub": "1",
        "name": "Unverified",
      },
    },
    {
      "user": {
        "sub": "2",
      },
    },
    {
      "user": {
        "sub": "3",
      },
    },
    {
      "error":
        "ProfileError: The Patreon user-info response has no data object; expected { data: { id } }.",
    },
    {
      "error":
        "ProfileError: The Patreon user-info response has no data object; expected { data: { id } }.",
    },
  ],
  "strava": [
    {
      "user": {
        "sub": "134815",
        "name": "Marianne Teutenberg",
        "image": "https://dgalywyr863hv.cloudfront.net/a.jpg",
      },
    },
    {
      "user": {
        "sub": "1",
        "name": "only_user",
      },
    },
    {
      "user": {
        "sub": "2",
        "name": "Solo",
      },
    },
    {
      "user": {
        "sub": "3",
        "name": "u",
      },
    },
    {
      "error":
        "ProfileError: The Strava user-info response has no usable id; expected a non-empty string or an integer.",
    },
    {
      "error":
        "ProfileError: The Strava user-info response is not a JSON object; expected an object.",
    },
  ],
  "zoom": [
    {
      "user": {
        "sub": "KDcuGIm1QgePTO8WbOqwIQ",
        "name": "Jill Chill",
        "email": "jchill@example.com",
        "image": "https://zoom.us/p/a.jpg",
      },
    },
    {
      "user": {
        "sub": "1",
        "name": "Display",
      },
    },
    {
      "user": {
        "sub": "2",
        "name": "Jill",
      },
    },
    {
      "user": {
        "sub": "3",
        "name": "Last",
      },
    },
    {
      "error":
        "ProfileError: The Zoom user-info response has no usable id; expected a non-empty string or an integer.",
    },
    {
      "error":
        "ProfileError: The Zoom user-info response is not a JSON object; expected an object.",
    },
  ],
};

function outcome(map: (raw: Record<string, unknown>) => unknown, raw: unknown): Outcome {
  try {
    return { user: map(raw as Record<string, unknown>) as Record<string, unknown> };
  } catch (error) {
    assert.ok(error instanceof ProfileError, `expected a ProfileError, got ${error}`);
    return { error: `${error.name}: ${error.message}` };
  }
}

for (const id of Object.keys(MAPPERS) as MapperId[]) {
  Deno.test(`the ${id} profile declaration maps the sample answers as the hand-written mapper did`, () => {
    assert.equal(SAMPLES[id].length, EXPECTED[id].length);
    SAMPLES[id].forEach((raw, index) => {
      assert.deepEqual(outcome(MAPPERS[id], raw), EXPECTED[id][index], `${id} sample ${index}`);
    });
  });
}

Deno.test("a declared email with a verified flag is left out unless the flag is true", () => {
  const profile = fieldProfile({
    provider: "Corp",
    sub: ["id"],
    name: [],
    email: { path: ["email"], verified: { path: ["ok"] } },
  });
  assert.deepEqual(profile({ id: "1", email: "a@example.com", ok: true }), {
    sub: "1",
    email: "a@example.com",
  });
  assert.deepEqual(profile({ id: "1", email: "a@example.com" }), { sub: "1" });
  assert.deepEqual(profile({ id: "1", email: "a@example.com", ok: false }), { sub: "1" });
});

Deno.test("a declared wrapper that is missing or not a success throws its ProfileError", () => {
  const profile = fieldProfile({
    provider: "Corp",
    wrapper: { key: "user", success: { key: "status", equals: "ok" }, error: "Corp failed." },
    sub: ["id"],
    name: [["name"]],
  });
  assert.deepEqual(profile({ status: "ok", user: { id: 5, name: "Ada" } }), {
    sub: "5",
    name: "Ada",
  });
  assert.throws(() => profile({ status: "no", user: { id: 5 } }), ProfileError);
  assert.throws(() => profile({ status: "ok", user: "5" }), ProfileError);
  // A nested path through a non-object reads nothing rather than throwing.
  const nested = fieldProfile({ provider: "Corp", sub: ["id"], name: [["a", "b", "c"]] });
  assert.deepEqual(nested({ id: "1", a: "text" }), { sub: "1" });
});
