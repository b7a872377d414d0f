/**
 * OpenAI Codex (ChatGPT Plus/Pro): authorization code with PKCE through a loopback server on port 1455,
 * or OpenAI's device-code sign-in for a machine without a browser. The access token is a JWT whose
 * `https://api.openai.com/auth` claim names the ChatGPT account; requests send it as
 * `chatgpt-account-id` beside the bearer.
 */
import { randomBytes } from "node:crypto";
import type { LoginInteraction } from "pi-host";
import { codeFromCallbackOrPaste, startCallbackServer, type CallbackServer } from "./callback-server.js";
import { callbackAddress, override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { numberField, postForJson, readJson, sleep, stringField } from "./http.js";
import { createPkce } from "./pkce.js";

const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const SCOPE = "openid profile email offline_access";
const DEVICE_TIMEOUT_MS = 15 * 60 * 1000;

function base(env: NodeJS.ProcessEnv): string {
  return override(env, "PI_OAUTH_OPENAI_AUTH_URL") ?? "https://auth.openai.com";
}

/** The ChatGPT account id in the access token, or undefined when the token carries none. */
export function chatgptAccountId(access: string): string | undefined {
  const payload = access.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const auth = claims["https://api.openai.com/auth"] as { chatgpt_account_id?: unknown } | undefined;
    return typeof auth?.chatgpt_account_id === "string" && auth.chatgpt_account_id !== ""
      ? auth.chatgpt_account_id
      : undefined;
  } catch {
    return undefined;
  }
}

function credential(data: Record<string, unknown>): OAuthCredential {
  const what = "OpenAI token endpoint";
  const access = stringField(data, "access_token", what);
  const accountId = chatgptAccountId(access);
  if (accountId === undefined) throw new Error("OpenAI sign-in: the access token names no ChatGPT account");
  return {
    type: "oauth",
    access,
    refresh: stringField(data, "refresh_token", what),
    expires: Date.now() + numberField(data, "expires_in", what) * 1000,
    accountId,
  };
}

async function exchange(
  env: NodeJS.ProcessEnv,
  code: string,
  verifier: string,
  redirectUri: string,
  signal: AbortSignal,
) {
  const body = {
    grant_type: "authorization_code",
    client_id: CLIENT_ID,
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
  };
  return credential(await postForJson(`${base(env)}/oauth/token`, body, { form: true, signal }));
}

async function browserLogin(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const { verifier, challenge } = createPkce();
  const state = randomBytes(16).toString("hex");
  const address = callbackAddress(env, 1455);
  // Without a callback server (port taken) the pasted redirect URL finishes the login.
  const callback: CallbackServer | undefined = await startCallbackServer({
    ...address,
    path: "/auth/callback",
    state,
    providerName: "OpenAI",
  }).catch(() => undefined);
  const redirectUri = `http://localhost:${callback?.port ?? address.port}/auth/callback`;
  const url = new URL(`${base(env)}/oauth/authorize`);
  for (const [key, value] of Object.entries({
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state,
    id_token_add_organizations: "true",
    codex_cli_simplified_flow: "true",
    originator: "pi",
  }))
    url.searchParams.set(key, value);
  try {
    interaction.notify({
      type: "auth_url",
      url: url.toString(),
      instructions: "A browser window should open. Complete login to finish.",
    });
    const code = await codeFromCallbackOrPaste(
      callback,
      (signal) =>
        interaction.prompt({
          type: "manual_code",
          message: "Paste the authorization code or redirect URL",
          placeholder: redirectUri,
          signal,
        }),
      state,
    );
    return await exchange(env, code, verifier, redirectUri, interaction.signal);
  } finally {
    callback?.close();
  }
}

async function deviceLogin(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const start = await postForJson(
    `${base(env)}/api/accounts/deviceauth/usercode`,
    { client_id: CLIENT_ID },
    { signal: interaction.signal },
  );
  const deviceAuthId = stringField(start, "device_auth_id", "OpenAI device code");
  const userCode = stringField(start, "user_code", "OpenAI device code");
  const interval = Math.max(1, Number(start.interval ?? 5));
  interaction.notify({ type: "device_code", userCode, verificationUri: `${base(env)}/codex/device` });
  const deadline = Date.now() + DEVICE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await sleep(interval * 1000, interaction.signal);
    const response = await fetch(`${base(env)}/api/accounts/deviceauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ device_auth_id: deviceAuthId, user_code: userCode }),
      signal: interaction.signal,
    });
    // Until the user approves, the endpoint answers 403/404.
    if (response.status === 403 || response.status === 404) {
      await response.body?.cancel();
      continue;
    }
    const data = await readJson(`${base(env)}/api/accounts/deviceauth/token`, response, false);
    const code = stringField(data, "authorization_code", "OpenAI device token");
    const verifier = stringField(data, "code_verifier", "OpenAI device token");
    return exchange(env, code, verifier, `${base(env)}/deviceauth/callback`, interaction.signal);
  }
  throw new Error("Device flow timed out");
}

/** The Codex flow (provider id `openai-codex`). */
export const openaiCodexFlow: OAuthFlow = {
  id: "openai-codex",
  name: "OpenAI (ChatGPT Plus/Pro)",
  async login(interaction, env) {
    const method = await interaction.prompt({
      type: "select",
      message: "Select OpenAI Codex login method:",
      options: [
        { id: "browser", label: "Browser login (default)" },
        { id: "device_code", label: "Device code login (headless)" },
      ],
    });
    if (method === "device_code") return deviceLogin(interaction, env);
    if (method !== "browser") throw new Error(`Unknown OpenAI Codex login method: ${method}`);
    return browserLogin(interaction, env);
  },
  async refresh(current, env, signal) {
    const body = { grant_type: "refresh_token", refresh_token: current.refresh, client_id: CLIENT_ID };
    return {
      ...current,
      ...credential(await postForJson(`${base(env)}/oauth/token`, body, { form: true, signal, refresh: true })),
    };
  },
  requestAuth: (current) => ({
    apiKey: current.access,
    headers: typeof current.accountId === "string" ? { "chatgpt-account-id": current.accountId } : undefined,
  }),
};
