/**
 * xAI (SuperGrok / X Premium subscription): RFC 8628 device code against auth.x.ai, form-encoded; the
 * access token is then the API key (`Authorization: Bearer`). Refresh may leave the refresh token as is.
 */
import type { LoginInteraction } from "pi-host";
import { type DevicePollAnswer, pollDeviceCode, postFormAnswer, trustedVerificationUri } from "./device-code.js";
import { override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { RevokedTokenError, numberField, stringField } from "./http.js";

const CLIENT_ID = "b1a00492-073a-47ea-816f-4c329264a828";
const SCOPE = "openid profile email offline_access grok-cli:access api:access";
const EARLY_MS = 5 * 60 * 1000;
const WHAT = "xAI";

function base(env: NodeJS.ProcessEnv): string {
  return override(env, "PI_OAUTH_XAI_URL") ?? "https://auth.x.ai";
}

function credential(body: Record<string, unknown>, previousRefresh?: string): OAuthCredential {
  const refresh =
    body.refresh_token === undefined && previousRefresh !== undefined
      ? previousRefresh
      : stringField(body, "refresh_token", "xAI token endpoint");
  const seconds = body.expires_in === undefined ? 3600 : numberField(body, "expires_in", "xAI token endpoint");
  return {
    type: "oauth",
    access: stringField(body, "access_token", "xAI token endpoint"),
    refresh,
    expires: Date.now() + seconds * 1000 - EARLY_MS,
  };
}

function failure(action: string, answer: DevicePollAnswer): Error {
  const detail = [answer.body.error, answer.body.error_description].filter((v) => typeof v === "string").join(": ");
  return new Error(`xAI OAuth ${action} failed (HTTP ${answer.status})${detail ? `: ${detail}` : ""}`);
}

async function login(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const device = await postFormAnswer(
    `${base(env)}/oauth2/device/code`,
    { client_id: CLIENT_ID, scope: SCOPE, referrer: "pi" },
    interaction.signal,
  );
  if (!device.ok) throw failure("device authorization", device);
  const complete = device.body.verification_uri_complete;
  const verificationUri = trustedVerificationUri(
    typeof complete === "string" && complete !== "" ? complete : device.body.verification_uri,
    WHAT,
  );
  const interval = typeof device.body.interval === "number" ? device.body.interval : undefined;
  interaction.notify({
    type: "device_code",
    userCode: stringField(device.body, "user_code", "xAI device code"),
    verificationUri,
  });
  const deviceCode = stringField(device.body, "device_code", "xAI device code");
  return pollDeviceCode({
    what: WHAT,
    intervalSeconds: interval,
    expiresInSeconds: numberField(device.body, "expires_in", "xAI device code"),
    signal: interaction.signal,
    poll: () =>
      postFormAnswer(
        `${base(env)}/oauth2/token`,
        {
          grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          client_id: CLIENT_ID,
          device_code: deviceCode,
        },
        interaction.signal,
      ),
    complete: (body) => credential(body),
  });
}

/** The xAI flow (provider id `xai`). */
export const xaiFlow: OAuthFlow = {
  id: "xai",
  name: "xAI (Grok/X subscription)",
  login,
  async refresh(current, env, signal) {
    const answer = await postFormAnswer(
      `${base(env)}/oauth2/token`,
      { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: current.refresh },
      signal,
    );
    if (!answer.ok) {
      const error = failure("token refresh", answer);
      if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
        throw new RevokedTokenError(error.message);
      }
      throw error;
    }
    return { ...current, ...credential(answer.body, current.refresh) };
  },
  requestAuth: (current) => ({ apiKey: current.access }),
};
