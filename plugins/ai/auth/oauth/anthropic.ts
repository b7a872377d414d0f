/**
 * Anthropic (Claude Pro/Max): authorization code with PKCE. The browser redirects to a loopback server
 * (port 53692, else any free port); a code pasted from another machine works too. Tokens are JSON-posted
 * to the token endpoint; requests then send the access token as `Authorization: Bearer`.
 */
import type { LoginInteraction } from "pi-host";
import { codeFromCallbackOrPaste, startCallbackServer, type CallbackServer } from "./callback-server.js";
import { callbackAddress, override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { numberField, postForJson, stringField } from "./http.js";
import { createPkce } from "./pkce.js";

const CLIENT_ID = Buffer.from("OWQxYzI1MGEtZTYxYi00NGQ5LTg4ZWQtNTk0NGQxOTYyZjVl", "base64").toString();
const SCOPES =
  "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload";
const COPY_CODE_REDIRECT = "https://platform.claude.com/oauth/code/callback";
/** pi stores Anthropic expiry five minutes early, so a token is never sent in its last minutes. */
const EARLY_MS = 5 * 60 * 1000;

function urls(env: NodeJS.ProcessEnv) {
  return {
    authorize: override(env, "PI_OAUTH_ANTHROPIC_AUTHORIZE_URL") ?? "https://claude.ai/oauth/authorize",
    token: override(env, "PI_OAUTH_ANTHROPIC_TOKEN_URL") ?? "https://platform.claude.com/v1/oauth/token",
  };
}

function credential(data: Record<string, unknown>): OAuthCredential {
  const what = "Anthropic token endpoint";
  return {
    type: "oauth",
    refresh: stringField(data, "refresh_token", what),
    access: stringField(data, "access_token", what),
    expires: Date.now() + numberField(data, "expires_in", what) * 1000 - EARLY_MS,
  };
}

async function login(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const method = await interaction.prompt({
    type: "select",
    message: "Select Anthropic login method:",
    options: [
      { id: "browser", label: "Browser login (default)" },
      { id: "copy_code", label: "Copy code login (headless)" },
    ],
  });
  const { verifier, challenge } = createPkce();
  let callback: CallbackServer | undefined;
  let redirectUri = COPY_CODE_REDIRECT;
  if (method === "browser") {
    const address = callbackAddress(env, 53692);
    const start = (port: number) =>
      startCallbackServer({ ...address, port, path: "/callback", state: verifier, providerName: "Anthropic" });
    callback = await start(address.port)
      .catch(() => start(0))
      .catch(() => undefined);
    redirectUri = `http://localhost:${callback?.port ?? address.port}/callback`;
  } else if (method !== "copy_code") throw new Error(`Unknown Anthropic login method: ${method}`);
  try {
    const params = new URLSearchParams({
      code: "true",
      client_id: CLIENT_ID,
      response_type: "code",
      redirect_uri: redirectUri,
      scope: SCOPES,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: verifier,
    });
    interaction.notify({
      type: "auth_url",
      url: `${urls(env).authorize}?${params}`,
      instructions:
        method === "browser"
          ? "Complete login in your browser. If the browser is on another machine, paste the final redirect URL here."
          : "Complete login in your browser, then copy the code Anthropic shows and paste it here.",
    });
    const code = await codeFromCallbackOrPaste(
      callback,
      (signal) =>
        interaction.prompt({
          type: "manual_code",
          message: "Paste the authorization code or redirect URL",
          placeholder: method === "browser" ? redirectUri : "code#state",
          signal,
        }),
      verifier,
    );
    interaction.notify({ type: "progress", message: "Exchanging authorization code for tokens..." });
    const data = await postForJson(
      urls(env).token,
      {
        grant_type: "authorization_code",
        client_id: CLIENT_ID,
        code,
        state: verifier,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
      { signal: interaction.signal },
    );
    return credential(data);
  } finally {
    callback?.close();
  }
}

/** The Anthropic flow (provider id `anthropic`). */
export const anthropicFlow: OAuthFlow = {
  id: "anthropic",
  name: "Anthropic (Claude Pro/Max)",
  login,
  async refresh(current, env, signal) {
    const data = await postForJson(
      urls(env).token,
      { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: current.refresh },
      { signal, refresh: true },
    );
    return { ...current, ...credential(data) };
  },
  requestAuth: (current) => ({ apiKey: current.access }),
};
