/**
 * The sign-in endpoints of each provider, each one overridable by an environment variable. This is the
 * test and enterprise hook: tests point every flow at a server on 127.0.0.1, and a company proxy can
 * stand in for the public endpoints. Unset variables leave the endpoints pi 1.6 uses.
 *
 * | variable | default |
 * |---|---|
 * | PI_OAUTH_ANTHROPIC_AUTHORIZE_URL | https://claude.ai/oauth/authorize |
 * | PI_OAUTH_ANTHROPIC_TOKEN_URL | https://platform.claude.com/v1/oauth/token |
 * | PI_OAUTH_OPENAI_AUTH_URL | https://auth.openai.com (authorize, token, device endpoints below it) |
 * | PI_OAUTH_GITHUB_URL | https://github.com (or https://<enterprise domain>) |
 * | PI_OAUTH_GITHUB_API_URL | https://api.github.com (or https://api.<enterprise domain>) |
 * | PI_OAUTH_COPILOT_BASE_URL | from the Copilot token's proxy-ep |
 * | PI_OAUTH_OPENROUTER_URL | https://openrouter.ai (authorize page `/auth`, key exchange `/api/v1/auth/keys`) |
 * | PI_OAUTH_XAI_URL | https://auth.x.ai (device code and token endpoints below it) |
 * | KIMI_CODE_OAUTH_HOST / KIMI_OAUTH_HOST | https://auth.kimi.com (pi's own variables) |
 * | PI_OAUTH_CALLBACK_HOST / PI_OAUTH_CALLBACK_PORT | 127.0.0.1 / the provider's port |
 */

/** The environment value `name`, trimmed, with a trailing slash removed; undefined when unset or empty. */
export function override(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value.replace(/\/+$/, "");
}

/** The loopback callback's host and port: the overrides, else 127.0.0.1 and `port`. */
export function callbackAddress(env: NodeJS.ProcessEnv, port: number): { host: string; port: number } {
  const host = override(env, "PI_OAUTH_CALLBACK_HOST") ?? "127.0.0.1";
  const fromEnv = override(env, "PI_OAUTH_CALLBACK_PORT");
  const chosen = fromEnv === undefined ? port : Number(fromEnv);
  if (!Number.isInteger(chosen) || chosen < 0 || chosen > 65535) {
    throw new Error(`PI_OAUTH_CALLBACK_PORT must be a port number (0-65535), got "${fromEnv}"`);
  }
  return { host, port: chosen };
}
