/**
 * OpenRouter: authorization code with PKCE on a loopback server (free port, random path since OpenRouter
 * sends no state); the code is exchanged for a permanent API key, stored as an oauth entry that never
 * expires (empty refresh token), and sent as the key.
 */
import { randomUUID } from "node:crypto";
import type { LoginInteraction } from "pi-host";
import { codeFromCallbackOrPaste, startCallbackServer } from "./callback-server.js";
import { callbackAddress, override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { postForJson, stringField } from "./http.js";
import { createPkce } from "./pkce.js";

function base(env: NodeJS.ProcessEnv): string {
  return override(env, "PI_OAUTH_OPENROUTER_URL") ?? "https://openrouter.ai";
}

async function login(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const { verifier, challenge } = createPkce();
  const { host } = callbackAddress(env, 0);
  const path = `/oauth/callback/${randomUUID()}`;
  const callback = await startCallbackServer({ host, port: 0, path, state: undefined, providerName: "OpenRouter" });
  const redirectUri = `http://${host}:${callback.port}${path}`;
  try {
    const params = new URLSearchParams({
      callback_url: redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    interaction.notify({ type: "progress", message: `Listening for OpenRouter OAuth callback on ${redirectUri}` });
    interaction.notify({
      type: "auth_url",
      url: `${base(env)}/auth?${params}`,
      instructions:
        "Complete sign-in in your browser. If the browser is on another machine, paste the final redirect URL here.",
    });
    const code = await codeFromCallbackOrPaste(
      callback,
      (signal) =>
        interaction.prompt({
          type: "manual_code",
          message: "Complete sign-in in your browser, or paste the authorization code / redirect URL here:",
          placeholder: redirectUri,
          signal,
        }),
      "",
    );
    interaction.notify({ type: "progress", message: "Exchanging authorization code for an API key..." });
    const data = await postForJson(
      `${base(env)}/api/v1/auth/keys`,
      { code, code_verifier: verifier, code_challenge_method: "S256" },
      { signal: interaction.signal },
    );
    return {
      type: "oauth",
      access: stringField(data, "key", "OpenRouter key exchange"),
      refresh: "",
      expires: Number.MAX_SAFE_INTEGER,
    };
  } finally {
    callback.close();
  }
}

/** The OpenRouter flow (provider id `openrouter`). */
export const openrouterFlow: OAuthFlow = {
  id: "openrouter",
  name: "OpenRouter OAuth",
  login,
  // The key does not expire; there is nothing to refresh.
  refresh: async (current) => current,
  requestAuth: (current) => ({ apiKey: current.access }),
};
