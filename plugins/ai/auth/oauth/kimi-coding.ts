/**
 * Kimi Code (subscription): RFC 8628 device code against auth.kimi.com (`KIMI_CODE_OAUTH_HOST` or
 * `KIMI_OAUTH_HOST` override it, as in pi), form-encoded; requests send `Authorization: Bearer <access>`.
 */
import type { LoginInteraction } from "pi-host";
import { type DevicePollAnswer, pollDeviceCode, postFormAnswer, trustedVerificationUri } from "./device-code.js";
import { override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { RevokedTokenError, numberField, stringField } from "./http.js";

const CLIENT_ID = "17e5f671-d194-4dfb-9706-5516cb48c098";
const WHAT = "Kimi Code";

function host(env: NodeJS.ProcessEnv): string {
  return override(env, "KIMI_CODE_OAUTH_HOST") ?? override(env, "KIMI_OAUTH_HOST") ?? "https://auth.kimi.com";
}

function credential(body: Record<string, unknown>): OAuthCredential {
  const what = "Kimi Code token endpoint";
  const seconds = numberField(body, "expires_in", what);
  if (seconds <= 0) throw new Error(`${what}: the answer has no "expires_in"`);
  return {
    type: "oauth",
    access: stringField(body, "access_token", what),
    refresh: stringField(body, "refresh_token", what),
    expires: Date.now() + seconds * 1000,
  };
}

async function login(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const device = await postFormAnswer(
    `${host(env)}/api/oauth/device_authorization`,
    { client_id: CLIENT_ID },
    interaction.signal,
  );
  if (!device.ok) throw new Error(`Kimi Code device authorization failed (HTTP ${device.status})`);
  const complete = device.body.verification_uri_complete;
  interaction.notify({
    type: "device_code",
    userCode: stringField(device.body, "user_code", "Kimi Code device code"),
    verificationUri: trustedVerificationUri(
      typeof complete === "string" && complete !== "" ? complete : device.body.verification_uri,
      WHAT,
    ),
  });
  const deviceCode = stringField(device.body, "device_code", "Kimi Code device code");
  const expires = device.body.expires_in;
  return pollDeviceCode({
    what: WHAT,
    intervalSeconds: typeof device.body.interval === "number" ? device.body.interval : undefined,
    expiresInSeconds: typeof expires === "number" && expires > 0 ? expires : 15 * 60,
    signal: interaction.signal,
    poll: () =>
      postFormAnswer(
        `${host(env)}/api/oauth/token`,
        { client_id: CLIENT_ID, device_code: deviceCode, grant_type: "urn:ietf:params:oauth:grant-type:device_code" },
        interaction.signal,
      ),
    complete: credential,
  });
}

function refused(answer: DevicePollAnswer): boolean {
  return answer.status === 401 || answer.status === 403 || answer.body.error === "invalid_grant";
}

/** The Kimi Code flow (provider id `kimi-coding`). */
export const kimiCodingFlow: OAuthFlow = {
  id: "kimi-coding",
  name: "Kimi Code (subscription)",
  login,
  async refresh(current, env, signal) {
    const answer = await postFormAnswer(
      `${host(env)}/api/oauth/token`,
      { client_id: CLIENT_ID, grant_type: "refresh_token", refresh_token: current.refresh },
      signal,
    );
    if (answer.ok) return { ...current, ...credential(answer.body) };
    const detail = `Kimi Code token refresh failed (HTTP ${answer.status})`;
    throw refused(answer) ? new RevokedTokenError(detail) : new Error(detail);
  },
  // pi sends the token as an explicit Authorization header, whatever wire format the model uses.
  requestAuth: (current) => ({ apiKey: current.access, headers: { Authorization: `Bearer ${current.access}` } }),
};
