// Each new built-in maps its provider's documented example response (the
// ID-token claims merged with user info for OpenID Connect) to the expected User.
import assert from "node:assert/strict";
import type { User } from "../../../src/types.ts";
import type { BuiltInProviderId } from "../../../src/oauth/types.ts";
import { builtInProviders } from "../../../src/oauth/providers/mod.ts";
import { context, fakeFetch, json } from "./_helpers.ts";

interface Case {
  id: BuiltInProviderId;
  raw: Record<string, unknown>;
  /** The provider's user-info URL, for mappers that make a follow-up call under it. */
  userInfo?: string;
  /** Documented responses of those follow-up calls, by URL. */
  followUps?: Record<string, unknown>;
  expected: User;
}

/** The mapper context of a case: its follow-up routes and its user-info endpoint. */
function caseContext({ userInfo, followUps = {} }: Case) {
  const routes = Object.fromEntries(
    Object.entries(followUps).map(([url, body]) => [url, () => json(body)]),
  );
  return context(fakeFetch(routes).fetch, { userInfo });
}

const CASES: Case[] = [
  {
    id: "google",
    raw: {
      iss: "https://accounts.google.com",
      azp: "1234987819200.apps.googleusercontent.com",
      aud: "1234987819200.apps.googleusercontent.com",
      sub: "10769150350006150715113082367",
      at_hash: "HK6E_P6Dh8Y93mRNtsDB1Q",
      hd: "example.com",
      email: "jsmith@example.com",
      email_verified: true,
      iat: 1353601026,
      exp: 1353604926,
      nonce: "0394852-3190485-2490358",
      name: "Jane Smith",
      picture: "https://lh3.googleusercontent.com/a/ACg8ocJ-jane=s96-c",
      given_name: "Jane",
      family_name: "Smith",
    },
    expected: {
      sub: "10769150350006150715113082367",
      name: "Jane Smith",
      email: "jsmith@example.com",
      image: "https://lh3.googleusercontent.com/a/ACg8ocJ-jane=s96-c",
    },
  },
  {
    id: "apple",
    raw: {
      iss: "https://appleid.apple.com",
      aud: "com.example.web",
      exp: 1732400000,
      iat: 1732313600,
      sub: "001234.5e3a7b9c1d2f4a6b8c0d1e2f3a4b5c6d.1234",
      c_hash: "c4a1dbbd2",
      email: "ab12cd34ef@privaterelay.appleid.com",
      email_verified: "true",
      is_private_email: "true",
      auth_time: 1732313600,
      nonce_supported: true,
      real_user_status: 2,
    },
    expected: {
      sub: "001234.5e3a7b9c1d2f4a6b8c0d1e2f3a4b5c6d.1234",
      email: "ab12cd34ef@privaterelay.appleid.com",
    },
  },
  {
    id: "microsoft",
    raw: {
      aud: "6cb04018-a3f5-46a7-b995-940c78f5aef3",
      iss: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0",
      iat: 1452285331,
      nbf: 1452285331,
      exp: 1452289231,
      name: "Babe Ruth",
      nonce: "12345",
      oid: "a1dbdde8-e4f9-4571-ad93-3059e3750d23",
      preferred_username: "thegreatbambino@nyy.onmicrosoft.com",
      email: "thegreatbambino@nyy.onmicrosoft.com",
      xms_edov: true,
      sub: "MF4f-ggWMEji12KynJUNQZphaUTvLcQug5jdF2nl01Q",
      tid: "b9419818-09af-49c2-b0c3-653adc1f376e",
      ver: "2.0",
    },
    expected: {
      sub: "MF4f-ggWMEji12KynJUNQZphaUTvLcQug5jdF2nl01Q",
      name: "Babe Ruth",
      email: "thegreatbambino@nyy.onmicrosoft.com",
    },
  },
  {
    id: "facebook",
    raw: {
      id: "10158284587591234",
      name: "Ada Lovelace",
      email: "ada@example.com",
      picture: {
        data: {
          height: 50,
          is_silhouette: false,
          url:
            "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158284587591234&height=50&width=50",
          width: 50,
        },
      },
    },
    expected: {
      sub: "10158284587591234",
      name: "Ada Lovelace",
      email: "ada@example.com",
      image:
        "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158284587591234&height=50&width=50",
    },
  },
  {
    id: "linkedin",
    raw: {
      sub: "782bbtaQ",
      name: "John Doe",
      given_name: "John",
      family_name: "Doe",
      picture:
        "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
      locale: "en-US",
      email: "doe@email.com",
      email_verified: true,
    },
    expected: {
      sub: "782bbtaQ",
      name: "John Doe",
      email: "doe@email.com",
      image:
        "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
    },
  },
  {
    id: "slack",
    raw: {
      ok: true,
      sub: "U0R7JM",
      "https://slack.com/user_id": "U0R7JM",
      "https://slack.com/team_id": "T0R7GR",
      email: "krane@slack-corp.com",
      email_verified: true,
      date_email_verified: 1622128723,
      name: "krane",
      picture: "https://secure.gravatar.com/avatar/krane.png",
      given_name: "Bront",
      family_name: "Labradoodle",
      locale: "en-US",
      "https://slack.com/team_name": "kraneflannel",
      "https://slack.com/team_domain": "kraneflannel",
    },
    expected: {
      sub: "U0R7JM",
      name: "krane",
      email: "krane@slack-corp.com",
      image: "https://secure.gravatar.com/avatar/krane.png",
    },
  },
  {
    id: "twitch",
    raw: {
      aud: "hof5gwx0su6owfnys0nyan9c87zr6t",
      exp: 1642014394,
      iat: 1642013494,
      iss: "https://id.twitch.tv/oauth2",
      sub: "713936733",
      azp: "hof5gwx0su6owfnys0nyan9c87zr6t",
      preferred_username: "MyUserName",
      email: "user@example.com",
      email_verified: true,
      picture: "https://static-cdn.jtvnw.net/jtv_user_pictures/713936733-profile_image-300x300.png",
    },
    expected: {
      sub: "713936733",
      name: "MyUserName",
      email: "user@example.com",
      image: "https://static-cdn.jtvnw.net/jtv_user_pictures/713936733-profile_image-300x300.png",
    },
  },
  {
    id: "reddit",
    raw: {
      is_employee: false,
      has_verified_email: true,
      icon_img:
        "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snooa1b2c3.png?width=256&amp;height=256&amp;crop=256:256,smart&amp;s=abc",
      id: "1w72",
      name: "spez",
      created_utc: 1118030400,
      snoovatar_img: "",
    },
    expected: {
      sub: "1w72",
      name: "spez",
      image:
        "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snooa1b2c3.png?width=256&height=256&crop=256:256,smart&s=abc",
    },
  },
  {
    id: "dropbox",
    raw: {
      account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      name: {
        given_name: "Franz",
        surname: "Ferdinand",
        familiar_name: "Franz",
        display_name: "Franz Ferdinand (Personal)",
        abbreviated_name: "FF",
      },
      email: "franz@dropbox.com",
      email_verified: true,
      disabled: false,
      locale: "en",
      referral_link: "https://db.tt/ZITNuhtI",
      is_paired: true,
      account_type: { ".tag": "basic" },
      country: "US",
      profile_photo_url:
        "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
    },
    expected: {
      sub: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      name: "Franz Ferdinand (Personal)",
      email: "franz@dropbox.com",
      image:
        "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
    },
  },
  {
    id: "notion",
    raw: {
      object: "user",
      id: "16d84278-ab0e-484c-9bdd-b35da3bd8905",
      name: "pied piper",
      avatar_url: null,
      type: "bot",
      bot: {
        owner: {
          type: "user",
          user: {
            object: "user",
            id: "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
            name: "christine makenotion",
            avatar_url: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avatar.png",
            type: "person",
            person: { email: "christine@makenotion.com" },
          },
        },
        workspace_name: "christine's Notion",
      },
    },
    expected: {
      sub: "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
      name: "christine makenotion",
      email: "christine@makenotion.com",
      image: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avatar.png",
    },
  },
  {
    id: "zoom",
    raw: {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      first_name: "Jill",
      last_name: "Chill",
      display_name: "Jill Chill",
      email: "jchill@example.com",
      type: 1,
      role_name: "Owner",
      pmi: 3542471135,
      use_pmi: false,
      timezone: "Asia/Shanghai",
      verified: 1,
      dept: "Developers",
      pic_url: "https://us05web.zoom.us/p/v2/KDcuGIm1QgePTO8WbOqwIQ",
      account_id: "q6gBJVO5TzexKYTb_I2rpg",
      status: "active",
    },
    expected: {
      sub: "KDcuGIm1QgePTO8WbOqwIQ",
      name: "Jill Chill",
      email: "jchill@example.com",
      image: "https://us05web.zoom.us/p/v2/KDcuGIm1QgePTO8WbOqwIQ",
    },
  },
  {
    id: "atlassian",
    raw: {
      account_type: "atlassian",
      account_id: "112233aa-bb11-cc22-33dd-445566abcabc",
      email: "mia@example.com",
      email_verified: true,
      name: "Mia Krystof",
      picture: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa.png",
      account_status: "active",
      nickname: "mkrystof",
      zoneinfo: "Australia/Sydney",
      locale: "en-US",
      extended_profile: { job_title: "Designer", organization: "mia@example.com" },
    },
    expected: {
      sub: "112233aa-bb11-cc22-33dd-445566abcabc",
      name: "Mia Krystof",
      email: "mia@example.com",
      image: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa.png",
    },
  },
  {
    id: "salesforce",
    raw: {
      sub: "https://login.salesforce.com/id/00Dx0000000A9y0EAC/005x0000000UnYmAAK",
      user_id: "005x0000000UnYmAAK",
      organization_id: "00Dx0000000A9y0EAC",
      preferred_username: "admin@example.com",
      nickname: "admin",
      name: "Admin User",
      email: "admin@example.com",
      email_verified: true,
      given_name: "Admin",
      family_name: "User",
      zoneinfo: "America/Los_Angeles",
      picture: "https://example.my.salesforce.com/profilephoto/005/F",
      user_type: "STANDARD",
    },
    expected: {
      sub: "https://login.salesforce.com/id/00Dx0000000A9y0EAC/005x0000000UnYmAAK",
      name: "Admin User",
      email: "admin@example.com",
      image: "https://example.my.salesforce.com/profilephoto/005/F",
    },
  },
  {
    id: "tiktok",
    raw: {
      data: {
        user: {
          avatar_url:
            "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg",
          open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
          union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
          display_name: "Tik Toker",
        },
      },
      error: { code: "ok", message: "", log_id: "20220829194722CBE87ED59D524E727021" },
    },
    expected: {
      sub: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
      name: "Tik Toker",
      image:
        "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg",
    },
  },
  {
    id: "line",
    raw: {
      iss: "https://access.line.me",
      sub: "U1234567890abcdef1234567890abcdef",
      aud: "1234567890",
      exp: 1504169092,
      iat: 1504263657,
      nonce: "0987654asdf",
      amr: ["pwd"],
      name: "Taro Line",
      picture: "https://sample_line.me/aBcdefg123456",
      email: "taro.line@example.com",
    },
    expected: {
      sub: "U1234567890abcdef1234567890abcdef",
      name: "Taro Line",
      email: "taro.line@example.com",
      image: "https://sample_line.me/aBcdefg123456",
    },
  },
  {
    id: "kakao",
    raw: {
      sub: "1234567890",
      name: "홍길동",
      nickname: "홍길동",
      picture: "http://yyy.kakao.com/dn/img_110x110.jpg",
      email: "sample@sample.com",
      email_verified: true,
      gender: "MALE",
      birthdate: "2002-11-30",
      phone_number: "+82 00-0000-0000",
      phone_number_verified: true,
    },
    expected: {
      sub: "1234567890",
      name: "홍길동",
      email: "sample@sample.com",
      image: "http://yyy.kakao.com/dn/img_110x110.jpg",
    },
  },
  {
    id: "naver",
    raw: {
      resultcode: "00",
      message: "success",
      response: {
        email: "openapi@naver.com",
        nickname: "OpenAPI",
        profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
        age: "40-49",
        gender: "F",
        id: "32742776",
        name: "오픈 API",
        birthday: "10-01",
      },
    },
    expected: {
      sub: "32742776",
      name: "OpenAPI",
      email: "openapi@naver.com",
      image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
    },
  },
  {
    id: "patreon",
    raw: {
      data: {
        attributes: {
          email: "corgi@example.com",
          full_name: "Corgi The Dev",
          image_url: "https://c8.patreon.com/2/200/12345678",
          is_email_verified: true,
        },
        id: "12345678",
        type: "user",
      },
      links: { self: "https://www.patreon.com/api/oauth2/v2/user/12345678" },
    },
    expected: {
      sub: "12345678",
      name: "Corgi The Dev",
      email: "corgi@example.com",
      image: "https://c8.patreon.com/2/200/12345678",
    },
  },
  {
    id: "strava",
    raw: {
      id: 134815,
      username: "marianne_t",
      resource_state: 3,
      firstname: "Marianne",
      lastname: "Teutenberg",
      city: "San Francisco",
      state: "CA",
      country: "US",
      sex: "F",
      premium: true,
      profile_medium:
        "https://xxxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/medium.jpg",
      profile: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg",
    },
    expected: {
      sub: "134815",
      name: "Marianne Teutenberg",
      image: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg",
    },
  },
  {
    id: "roblox",
    raw: {
      sub: "45348281",
      name: "Mighty",
      nickname: "Mighty",
      preferred_username: "MightyPart",
      created_at: 1373701800,
      profile: "https://www.roblox.com/users/45348281/profile",
      picture:
        "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-11BD4BBC67E3F95A4F4BED256CFB4591-Png/150/150/AvatarHeadshot/Png/noFilter",
    },
    expected: {
      sub: "45348281",
      name: "Mighty",
      image:
        "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-11BD4BBC67E3F95A4F4BED256CFB4591-Png/150/150/AvatarHeadshot/Png/noFilter",
    },
  },
  {
    id: "yahoo",
    raw: {
      sub: "FSVIDUW3D7FSVIDUW3D72F2F",
      name: "Jane Doe",
      given_name: "Jane",
      family_name: "Doe",
      locale: "en-US",
      email: "janedoe@example.com",
      email_verified: true,
      birthdate: "1994",
      profile_images: {},
      picture: "https://s.yimg.com/ag/images/default_user_profile_pic_192sq.jpg",
    },
    expected: {
      sub: "FSVIDUW3D7FSVIDUW3D72F2F",
      name: "Jane Doe",
      email: "janedoe@example.com",
      image: "https://s.yimg.com/ag/images/default_user_profile_pic_192sq.jpg",
    },
  },
  {
    id: "amazon",
    raw: {
      user_id: "amzn1.account.K2LI23KL2LK2",
      email: "mhashimoto-04@plaxo.com",
      name: "Mork Hashimoto",
      postal_code: "98052",
    },
    // No verification flag exists; the contract drops only addresses a provider calls unverified.
    expected: {
      sub: "amzn1.account.K2LI23KL2LK2",
      name: "Mork Hashimoto",
      email: "mhashimoto-04@plaxo.com",
    },
  },
  {
    id: "github",
    raw: {
      login: "ada-l",
      id: 583231,
      node_id: "MDQ6VXNlcjU4MzIzMQ==",
      avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
      gravatar_id: "",
      url: "https://api.github.com/users/ada-l",
      html_url: "https://github.com/ada-l",
      type: "User",
      site_admin: false,
      name: "Ada Lovelace",
      company: "Analytical Engines",
      blog: "https://ada.example.org",
      location: "London",
      email: "ada@example.org",
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: 8,
      public_gists: 1,
      followers: 42,
      following: 3,
      created_at: "2011-01-25T18:44:36Z",
      updated_at: "2026-11-01T09:12:03Z",
    },
    userInfo: "https://api.github.com/user",
    followUps: {
      "https://api.github.com/user/emails": [
        { email: "ada@example.org", verified: true, primary: true, visibility: "public" },
        { email: "ada@old.example.org", verified: false, primary: false, visibility: null },
      ],
    },
    expected: {
      sub: "583231",
      name: "Ada Lovelace",
      email: "ada@example.org",
      image: "https://avatars.githubusercontent.com/u/583231?v=4",
    },
  },
  {
    id: "bitbucket",
    raw: {
      type: "user",
      uuid: "{5c2b8e43-7a1f-4c0d-9e6b-3f2a1d0c9b8a}",
      account_id: "712020:5c2b8e43-7a1f-4c0d-9e6b-3f2a1d0c9b8a",
      nickname: "grace",
      display_name: "Grace Hopper",
      created_on: "2019-03-14T10:22:51.123456+00:00",
      account_status: "active",
      has_2fa_enabled: null,
      location: null,
      links: {
        self: {
          href: "https://api.bitbucket.org/2.0/users/%7B5c2b8e43-7a1f-4c0d-9e6b-3f2a1d0c9b8a%7D",
        },
        html: { href: "https://bitbucket.org/%7B5c2b8e43-7a1f-4c0d-9e6b-3f2a1d0c9b8a%7D/" },
        avatar: { href: "https://secure.gravatar.com/avatar/5c2b8e43?d=identicon" },
      },
    },
    userInfo: "https://api.bitbucket.org/2.0/user",
    followUps: {
      "https://api.bitbucket.org/2.0/user/emails": {
        pagelen: 10,
        page: 1,
        size: 2,
        values: [
          {
            type: "email",
            email: "grace@navy.example.org",
            is_primary: false,
            is_confirmed: true,
            links: {
              self: { href: "https://api.bitbucket.org/2.0/user/emails/grace@navy.example.org" },
            },
          },
          {
            type: "email",
            email: "grace@example.org",
            is_primary: true,
            is_confirmed: true,
            links: {
              self: { href: "https://api.bitbucket.org/2.0/user/emails/grace@example.org" },
            },
          },
        ],
      },
    },
    expected: {
      sub: "{5c2b8e43-7a1f-4c0d-9e6b-3f2a1d0c9b8a}",
      name: "Grace Hopper",
      email: "grace@example.org",
      image: "https://secure.gravatar.com/avatar/5c2b8e43?d=identicon",
    },
  },
  {
    id: "figma",
    raw: {
      id: "1187437710836229520",
      handle: "Katherine J.",
      img_url: "https://s3-alpha.figma.com/profile/6f1e0c2a-9d4b-4f3e-8a7c-5b2d1e0f9a8b",
      email: "katherine@example.org",
    },
    // No verification flag exists; the contract drops only addresses a provider calls unverified.
    expected: {
      sub: "1187437710836229520",
      name: "Katherine J.",
      email: "katherine@example.org",
      image: "https://s3-alpha.figma.com/profile/6f1e0c2a-9d4b-4f3e-8a7c-5b2d1e0f9a8b",
    },
  },
  {
    id: "discord",
    raw: {
      id: "613425648685547541",
      username: "hedy",
      global_name: null,
      discriminator: "0",
      avatar: "a_4f6e1c2b3a5d7e9f0b1c2d3e4f5a6b7c",
      verified: true,
      email: "hedy@example.org",
      flags: 0,
      banner: null,
      accent_color: null,
      premium_type: 0,
      public_flags: 0,
      mfa_enabled: false,
      locale: "en-GB",
      avatar_decoration_data: null,
    },
    expected: {
      sub: "613425648685547541",
      name: "hedy",
      email: "hedy@example.org",
      image:
        "https://cdn.discordapp.com/avatars/613425648685547541/a_4f6e1c2b3a5d7e9f0b1c2d3e4f5a6b7c.gif",
    },
  },
  {
    id: "gitlab",
    raw: {
      id: 4081,
      username: "mhamilton",
      name: "Margaret Hamilton",
      state: "active",
      locked: false,
      avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/4081/avatar.png",
      web_url: "https://gitlab.com/mhamilton",
      created_at: "2015-07-20T20:17:00.000Z",
      bio: "",
      location: "Boston",
      public_email: "",
      linkedin: "",
      twitter: "",
      website_url: "",
      organization: "",
      job_title: "",
      last_sign_in_at: "2026-11-20T08:01:14.000Z",
      confirmed_at: "2015-07-20T20:19:42.000Z",
      last_activity_on: "2026-11-22",
      email: "margaret@example.org",
      theme_id: 1,
      color_scheme_id: 1,
      projects_limit: 100000,
      current_sign_in_at: "2026-11-22T07:45:03.000Z",
      identities: [],
      can_create_group: true,
      can_create_project: true,
      two_factor_enabled: true,
      external: false,
      private_profile: false,
      commit_email: "margaret@example.org",
    },
    expected: {
      sub: "4081",
      name: "Margaret Hamilton",
      email: "margaret@example.org",
      image: "https://gitlab.com/uploads/-/system/user/avatar/4081/avatar.png",
    },
  },
  {
    id: "okta",
    raw: {
      sub: "00uid4BxXw6I6TV4m0g3",
      name: "John Doe",
      nickname: "Jimmy",
      given_name: "John",
      family_name: "Doe",
      preferred_username: "john.doe@example.com",
      email: "john.doe@example.com",
      email_verified: true,
      zoneinfo: "America/Los_Angeles",
      locale: "en-US",
      updated_at: 1311280970,
    },
    expected: { sub: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com" },
  },
  {
    id: "auth0",
    raw: {
      sub: "248289761001",
      name: "Jane Josephine Doe",
      given_name: "Jane",
      family_name: "Doe",
      preferred_username: "j.doe",
      email: "janedoe@example.com",
      email_verified: true,
      picture: "http://example.com/janedoe/me.jpg",
    },
    expected: {
      sub: "248289761001",
      name: "Jane Josephine Doe",
      email: "janedoe@example.com",
      image: "http://example.com/janedoe/me.jpg",
    },
  },
  {
    id: "keycloak",
    raw: {
      sub: "f1c5e4a3-2b1d-4e6f-9a8b-7c6d5e4f3a2b",
      email_verified: true,
      name: "Alice Liddell",
      preferred_username: "alice",
      given_name: "Alice",
      family_name: "Liddell",
      email: "alice@keycloak.org",
    },
    expected: {
      sub: "f1c5e4a3-2b1d-4e6f-9a8b-7c6d5e4f3a2b",
      name: "Alice Liddell",
      email: "alice@keycloak.org",
    },
  },
  {
    id: "cognito",
    raw: {
      sub: "a1b2c3d4-5678-90ab-cdef-EXAMPLE11111",
      email_verified: "true",
      "custom:mycustom1": "CustomValue",
      phone_number_verified: "true",
      phone_number: "+12065551212",
      email: "bob@example.com",
      username: "bob",
    },
    expected: { sub: "a1b2c3d4-5678-90ab-cdef-EXAMPLE11111", email: "bob@example.com" },
  },
];

for (const item of CASES) {
  Deno.test(`${item.id} maps its documented response to the expected user`, async () => {
    const user = await builtInProviders[item.id].profile(item.raw, caseContext(item));
    assert.deepEqual(user, item.expected);
  });
}

Deno.test("every built-in id except spotify and x has a documented-response case", () => {
  const covered = new Set(CASES.map((item) => item.id));
  const elsewhere = new Set(["spotify", "x"]);
  for (const id of Object.keys(builtInProviders)) {
    assert.ok(covered.has(id as BuiltInProviderId) || elsewhere.has(id), id);
  }
});

Deno.test("every built-in mapper refuses an object without its subject", async () => {
  for (const item of CASES) {
    const stripped = JSON.parse(
      JSON.stringify(item.raw).replace(
        /"(sub|id|uuid|open_id|account_id|user_id)":/g,
        '"gone_$1":',
      ),
    );
    await assert.rejects(
      async () => await builtInProviders[item.id].profile(stripped, caseContext(item)),
      item.id,
    );
  }
});

Deno.test("no built-in mapper returns an empty string for a blank field", async () => {
  for (const item of CASES) {
    const blanked = JSON.parse(
      JSON.stringify(item.raw).replace(
        /"(name|display_name|full_name|nickname|email|picture|avatar_url|image_url|pic_url|img_url|profile|icon_img|profile_image|profile_photo_url|firstname|lastname|preferred_username|handle|login|username|global_name)":"[^"]*"/g,
        '"$1":""',
      ),
    );
    const user = await builtInProviders[item.id].profile(blanked, caseContext(item));
    for (const [key, value] of Object.entries(user)) {
      assert.notEqual(value, "", `${item.id}.${key}`);
    }
  }
});
