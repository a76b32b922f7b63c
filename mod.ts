/**
 * `@service-stack/auth`: a framework-agnostic authentication core on Web
 * `Request`/`Response` and Web Crypto, with zero runtime dependencies.
 *
 * @example
 * ```ts
 * import { createAuth } from "@service-stack/auth";
 *
 * const auth = createAuth({ oauth: ["github"] }); // secret from AUTH_SECRET
 * Deno.serve((request) => auth.handlers.ALL(request));
 * ```
 *
 * @module
 */

export { type Auth, type AuthHandlers, createAuth } from "./src/create_auth.ts";
export type {
  AuthCallbacks,
  AuthConfig,
  AuthEvents,
  AuthFeature,
  Credentials,
  EmailConfig,
  HookLiterals,
  OAuthProviderEntry,
  PasskeysConfig,
  PasskeyUserVerification,
  PasswordReset,
  SignInParams,
  SignInResult,
  TwoFactorConfig,
  UserInput,
} from "./src/config.ts";
export type { EmailMessage, EmailMessageKind } from "./src/config/email.ts";
export type {
  AuthAPI,
  ListSessionsOptions,
  SessionInfo,
  SignInOptions,
  SignOutOptions,
  UpdateSessionOptions,
} from "./src/api.ts";
export { AuthError, type AuthErrorOptions } from "./src/errors.ts";
export { hashPassword, verifyPassword } from "./src/crypto/password.ts";
export type { Handler } from "./src/handler.ts";
export type { ClientInfo } from "./src/rate_limit/address.ts";
export type { RateLimitConfig } from "./src/config/rate_limit.ts";
export type { RateLimitKey } from "./src/rate_limit/limit.ts";
export type { RateLimitRule } from "./src/rate_limit/rules.ts";
export { memoryStore, type MemoryStoreOptions } from "./src/store/memory.ts";
export type {
  AccountStore,
  ApiKeyStore,
  HitCount,
  PasskeyStore,
  SessionStore,
  StoredAccount,
  StoredApiKey,
  StoredPasskey,
  StoredSession,
} from "./src/store/types.ts";
export type { Passkey } from "./src/core/passkeys.ts";
export type { ApiKeysConfig, ServiceTokensConfig } from "./src/config/service_tokens.ts";
export type { AccessTokenOptions } from "./src/service_tokens/access_token.ts";
export type {
  ApiKey,
  CreateApiKeyOptions,
  CreatedApiKey,
  VerifiedApiKey,
} from "./src/service_tokens/types.ts";
export type { LogEntry, LoggerConfig, LoggerOptions, LogLevel } from "./src/logger.ts";
export type {
  CookieAttributes,
  CookieConfig,
  CookieKey,
  CookieOverride,
  CookieStrategy,
} from "./src/cookies/jar.ts";
export type {
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from "./src/standard_schema.ts";
export type {
  AccessTokenErrorCode,
  AuthorizationErrorCode,
  ErrorBody,
  ErrorType,
  Session,
  TokenRevocationErrorCode,
  User,
} from "./src/types.ts";
export type {
  BuiltInOptionName,
  BuiltInOptionValues,
  BuiltInProvider,
  BuiltInProviderEntry,
  BuiltInProviderId,
  BuiltInProviderOptions,
  BuiltInSettings,
  ClientAuthMethod,
  ClientSecret,
  OAuthProviderBase,
  OAuthProviderConfig,
  OAuthProviderCredentials,
  OAuthTokens,
  OIDCProviderConfig,
  OIDCProviderCredentials,
  ProfileContext,
  ProfileMapper,
  ProviderEndpoints,
} from "./src/oauth/types.ts";
export { builtInProviders } from "./src/oauth/providers/mod.ts";
export * from "./src/oauth/providers/all.ts";
export type {
  CryptoSecret,
  Jose,
  JWTKey,
  JWTMode,
  JWTPayload,
  WebCryptoKey,
  WebCryptoKeyPair,
} from "./jose.ts";

export type { InferUser } from "./src/client/types.ts";
