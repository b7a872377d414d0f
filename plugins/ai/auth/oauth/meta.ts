/**
 * Meta (Muse subscription): RFC 8628 device code against auth.meta.com. The identity token it yields is
 * not accepted for inference, so it is exchanged for a Model API key (`api.meta.ai/muse-code/key`, about
 * a day's life). As pi stores it, the identity token is the `refresh` and the key the `access`: a
 * "refresh" mints a new key. The identity token itself cannot be renewed, so a mint refused with 401/403
 * means the sign-in is over.
 */
import type { LoginInteraction } from "pi-host";
import { pollDeviceCode, postFormAnswer, trustedVerificationUri } from "./device-code.js";
import { override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { RevokedTokenError, stringField } from "./http.js";

/** Muse Code CLI's client id. */
const CLIENT_ID = "1031625952748946";
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const WHAT = "Meta";

function authHost(env: NodeJS.ProcessEnv): string {
  return override(env, "PI_OAUTH_META_URL") ?? "https://auth.meta.com";
}

function apiHost(env: NodeJS.ProcessEnv): string {
  return override(env, "PI_OAUTH_META_API_URL") ?? "https://api.meta.ai";
}

function detail(body: Record<string, unknown>): string {
  for (const key of ["error_description", "detail", "message", "error"]) {
    const value = body[key];
    if (typeof value === "string" && value.trim() !== "") return `: ${value.trim()}`;
  }
  return "";
}

/** Exchanges the identity token for a Model API key. */
async function mintKey(identity: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OAuthCredential> {
  const response = await fetch(`${apiHost(env)}/muse-code/key`, {
    method: "POST",
    headers: {
      accept: "application/json",
      authorization: `Bearer ${identity}`,
      "content-type": "application/json",
      "x-api-version": "1.0.0",
    },
    body: "{}",
    signal: AbortSignal.any([AbortSignal.timeout(30_000), ...(signal ? [signal] : [])]),
  });
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {}
  if (response.status === 401 || response.status === 403) {
    throw new RevokedTokenError(`Meta session expired (HTTP ${response.status})${detail(body)}`);
  }
  if (!response.ok) throw new Error(`Meta API key mint failed (HTTP ${response.status})${detail(body)}`);
  const key = body.api_key;
  if (typeof key !== "string" || key === "") {
    const action = body.action_url;
    const where =
      typeof action === "string" && URL.canParse(action) && /^https?:$/.test(new URL(action).protocol)
        ? ` Complete setup at ${action}`
        : "";
    throw new Error(`Meta did not issue an API key.${where}`);
  }
  return { type: "oauth", refresh: identity, access: key, expires: Date.now() + KEY_LIFETIME_MS };
}

async function login(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const device = await postFormAnswer(
    `${authHost(env)}/oidc/device/authorization/`,
    { client_id: CLIENT_ID },
    interaction.signal,
  );
  if (!device.ok) throw new Error(`Meta device authorization failed (HTTP ${device.status})${detail(device.body)}`);
  const complete = device.body.verification_uri_complete;
  const userCode = stringField(device.body, "user_code", "Meta device code");
  const deviceCode = stringField(device.body, "device_code", "Meta device code");
  interaction.notify({
    type: "device_code",
    userCode,
    verificationUri: trustedVerificationUri(
      typeof complete === "string" && complete !== "" ? complete : device.body.verification_uri,
      WHAT,
    ),
  });
  const expires = device.body.expires_in;
  const identity = await pollDeviceCode({
    what: WHAT,
    intervalSeconds: typeof device.body.interval === "number" ? device.body.interval : undefined,
    expiresInSeconds: typeof expires === "number" && expires > 0 ? expires : 15 * 60,
    signal: interaction.signal,
    poll: () =>
      postFormAnswer(
        `${authHost(env)}/oidc/device/token/`,
        { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: deviceCode, client_id: CLIENT_ID },
        interaction.signal,
      ),
    complete: (body) => stringField(body, "access_token", "Meta device token"),
  });
  interaction.notify({ type: "progress", message: "Enabling Meta Model API access..." });
  return mintKey(identity, env, interaction.signal);
}

/** The Meta flow (provider id `meta`). */
export const metaFlow: OAuthFlow = {
  id: "meta",
  name: "Meta (Muse subscription)",
  login,
  refresh: async (current, env, signal) => ({ ...current, ...(await mintKey(current.refresh, env, signal)) }),
  requestAuth: (current) => ({ apiKey: current.access }),
};
