/**
 * Sign in with ChatGPT for the `openai` provider (pi 1.6's "OpenAI (ChatGPT subscription)"): an
 * authorization code with PKCE through a loopback server on 127.0.0.1:1455. The client registers
 * itself on each sign-in (`dynamic_agent_client`); OpenAI names the issued client id in the redirect,
 * and refreshes use that id. The access token goes straight to api.openai.com as the API key, so the
 * account uses the Responses API like a key would (provider-openai leaves out the request fields such a
 * token is refused for).
 */
import { randomBytes } from "node:crypto";
import type { LoginInteraction } from "pi-host";
import { startCallbackServer, type CallbackServer } from "./callback-server.js";
import { callbackAddress, override } from "./endpoints.js";
import type { LoginContext, OAuthCredential, OAuthFlow } from "./flow.js";
import { RevokedTokenError, numberField, postForJson, stringField } from "./http.js";
import { createPkce } from "./pkce.js";

const DYNAMIC_CLIENT_ID = "dynamic_agent_client";
const AGENT_NAME_HINT = "Pi";
const RESOURCE = "https://api.openai.com/v1";
const DIRECT_TOKEN_SCOPE = "chatgpt.tokens.use.direct";
const SCOPE = `openid profile email offline_access resource.invoke ${DIRECT_TOKEN_SCOPE}`;
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
/** Stored expiry is this much before the real one, as pi stores it. */
const EXPIRY_MARGIN_MS = 3 * 60 * 1000;
const WHAT = "OpenAI OAuth token endpoint";

function base(env: NodeJS.ProcessEnv): string {
  return override(env, "PI_OAUTH_OPENAI_AUTH_URL") ?? "https://auth.openai.com";
}

function credential(data: Record<string, unknown>, clientId: string): OAuthCredential {
  const seconds = numberField(data, "expires_in", WHAT);
  if (seconds <= 0) throw new Error(`${WHAT}: the answer has no "expires_in"`);
  const scopes = stringField(data, "scope", WHAT).trim().split(/\s+/).filter(Boolean);
  if (!scopes.includes(DIRECT_TOKEN_SCOPE)) throw new Error(`OpenAI OAuth grant did not include ${DIRECT_TOKEN_SCOPE}`);
  return {
    type: "oauth",
    access: stringField(data, "access_token", WHAT),
    refresh: stringField(data, "refresh_token", WHAT),
    expires: Date.now() + seconds * 1000 - EXPIRY_MARGIN_MS,
    clientId,
    scopes,
  };
}

/** The code and issued client id of a redirect, checked against the login's state. */
function authorization(query: URLSearchParams, state: string): { code: string; clientId: string } {
  const error = query.get("error");
  if (error !== null) throw new Error(`ChatGPT authorization failed: ${error}`);
  const code = query.get("code");
  if (code === null || code === "") throw new Error("Missing authorization code");
  if (query.get("state") !== state) throw new Error("OAuth state mismatch");
  const clientId = query.get("client_id")?.trim();
  if (clientId === undefined || clientId === "") {
    throw new Error("OpenAI OAuth registration callback did not contain an issued client ID");
  }
  return { code, clientId };
}

/** A pasted redirect URL: only the full URL carries the issued client id. */
function fromPaste(input: string, redirectUri: string, state: string): { code: string; clientId: string } {
  const value = input.trim();
  if (!URL.canParse(value)) throw new Error("Paste the full callback URL from the browser");
  const url = new URL(value);
  const expected = new URL(redirectUri);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname) {
    throw new Error(`The pasted callback URL must start with ${redirectUri}`);
  }
  return authorization(url.searchParams, state);
}

async function waitForAuthorization(
  callback: CallbackServer,
  interaction: LoginInteraction,
  redirectUri: string,
  state: string,
): Promise<{ code: string; clientId: string }> {
  const stopPaste = new AbortController();
  const pasted = interaction
    .prompt({
      type: "manual_code",
      message: "Complete login in your browser, or paste the final redirect URL here",
      placeholder: redirectUri,
      signal: AbortSignal.any([stopPaste.signal, interaction.signal]),
    })
    .then((input) => fromPaste(input, redirectUri, state));
  const redirected = callback.code.then(() => authorization(callback.query!, state));
  try {
    return await Promise.race([redirected, pasted]);
  } finally {
    stopPaste.abort();
    pasted.catch(() => undefined);
    redirected.catch(() => undefined);
  }
}

async function login(
  interaction: LoginInteraction,
  env: NodeJS.ProcessEnv,
  context: LoginContext,
): Promise<OAuthCredential> {
  const hostId = `urn:uuid:${(await context.deviceId()).toLowerCase()}`;
  const { verifier, challenge } = createPkce();
  const state = randomBytes(32).toString("base64url");
  const address = callbackAddress(env, CALLBACK_PORT);
  const callback = await startCallbackServer({
    ...address,
    path: CALLBACK_PATH,
    state,
    providerName: "ChatGPT",
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EADDRINUSE") throw error;
    throw new Error(
      `Port ${address.port} is in use, probably by an unfinished login in another pi session or by the Codex CLI. Cancel that login and try again.`,
    );
  });
  const redirectUri = `http://127.0.0.1:${callback.port}${CALLBACK_PATH}`;
  const url = new URL(`${base(env)}/api/accounts/authorize`);
  url.search = new URLSearchParams({
    client_id: DYNAMIC_CLIENT_ID,
    agent_name_hint: AGENT_NAME_HINT,
    ext_agent_host_id: hostId,
    response_type: "code",
    redirect_uri: redirectUri,
    resource: RESOURCE,
    scope: SCOPE,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    nonce: randomBytes(32).toString("base64url"),
  }).toString();
  try {
    interaction.notify({
      type: "auth_url",
      url: url.toString(),
      instructions:
        "Complete sign-in in your browser. If the callback does not complete, paste the final redirect URL here.",
    });
    const { code, clientId } = await waitForAuthorization(callback, interaction, redirectUri, state);
    interaction.notify({ type: "progress", message: "Exchanging authorization code for tokens..." });
    const body = {
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      resource: RESOURCE,
    };
    const data = await postForJson(`${base(env)}/api/accounts/oauth/token`, body, {
      form: true,
      signal: interaction.signal,
    });
    // pi does not read the ID token, but a grant without one is not a complete sign-in.
    stringField(data, "id_token", WHAT);
    return credential(data, clientId);
  } catch (error) {
    if (interaction.signal.aborted) throw new Error("Login cancelled");
    throw error;
  } finally {
    callback.close();
  }
}

/** The ChatGPT flow (provider id `openai`). */
export const openaiChatgptFlow: OAuthFlow = {
  id: "openai",
  name: "OpenAI (ChatGPT subscription)",
  login,
  async refresh(current, env, signal) {
    const clientId = current.clientId;
    if (typeof clientId !== "string" || clientId.trim() === "") {
      throw new RevokedTokenError("the stored ChatGPT sign-in has no issued client id");
    }
    const body = {
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: current.refresh,
      resource: RESOURCE,
    };
    const data = await postForJson(`${base(env)}/api/accounts/oauth/token`, body, {
      form: true,
      signal,
      refresh: true,
    });
    return { ...current, ...credential(data, clientId) };
  },
  requestAuth: (current) => ({ apiKey: current.access }),
};
