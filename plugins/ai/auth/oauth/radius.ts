/**
 * Radius (pi's model gateway): a browser sign-in (authorization code with PKCE, loopback
 * 127.0.0.1:1456, the authorize page found at `<gateway>/v1/oauth`) or a device code, both against the
 * gateway's own token endpoint (`<gateway>/v1/oauth/token`, client `pi-gateway`). The gateway is
 * https://radius.pi.dev unless `PI_RADIUS_GATEWAY` names another (pi's variable); requests then go to
 * that gateway with the access token as the bearer, and the sign-in keeps the gateway's model list
 * (radius-catalog.ts).
 */
import { randomUUID } from "node:crypto";
import type { LoginInteraction } from "pi-host";
import { startCallbackServer } from "./callback-server.js";
import { pollDeviceCode, postFormAnswer, trustedVerificationUri } from "./device-code.js";
import { callbackAddress, override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { numberField, postForJson, readJson, stringField } from "./http.js";
import { createPkce } from "./pkce.js";
import { saveRadiusCatalog } from "./radius-catalog.js";

const CLIENT_ID = "pi-gateway";
const SCOPE = "gateway offline_access";
const CALLBACK_PORT = 1456;
const CALLBACK_PATH = "/oauth/callback";
const EXPIRY_SKEW_MS = 60_000;
const WHAT = "Radius";

/** The gateway origin: `PI_RADIUS_GATEWAY` (a bare host gets https://) or pi's default. */
export function radiusGateway(env: NodeJS.ProcessEnv): string {
  const value = override(env, "PI_RADIUS_GATEWAY") ?? "https://radius.pi.dev";
  return /^https?:\/\//i.test(value) ? value : `https://${value}`;
}

function credential(data: Record<string, unknown>): OAuthCredential {
  const what = "Radius OAuth token endpoint";
  return {
    type: "oauth",
    access: stringField(data, "access_token", what),
    refresh: stringField(data, "refresh_token", what),
    expires: Date.now() + numberField(data, "expires_in", what) * 1000 - EXPIRY_SKEW_MS,
    ...(typeof data.scope === "string" ? { scope: data.scope } : {}),
  };
}

function tokenUrl(env: NodeJS.ProcessEnv): string {
  return new URL("/v1/oauth/token", radiusGateway(env)).toString();
}

async function browserLogin(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const gateway = radiusGateway(env);
  const discoveryUrl = new URL("/v1/oauth", gateway).toString();
  const discovery = await readJson(
    discoveryUrl,
    await fetch(discoveryUrl, { headers: { accept: "application/json" }, signal: interaction.signal }),
    false,
  );
  const endpoint = discovery.authorizationEndpoint;
  // The page is opened in a browser: only an http(s) URL is.
  if (typeof endpoint !== "string" || !URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
    throw new Error(`Invalid Radius OAuth config from ${gateway}: no http(s) authorizationEndpoint`);
  }
  const { verifier, challenge } = createPkce();
  const state = randomUUID();
  const callback = await startCallbackServer({
    ...callbackAddress(env, CALLBACK_PORT),
    path: CALLBACK_PATH,
    state,
    providerName: WHAT,
  });
  const redirectUri = `http://127.0.0.1:${callback.port}${CALLBACK_PATH}`;
  const url = new URL(endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: challenge,
    code_challenge_method: "S256",
    handoff: "url",
    state,
  }).toString();
  try {
    interaction.notify({ type: "progress", message: `Listening for OAuth callback on ${redirectUri}` });
    interaction.notify({ type: "auth_url", url: url.toString(), instructions: "Continue in your browser." });
    const cancelled = new Promise<never>((_resolve, reject) => {
      if (interaction.signal.aborted) reject(new Error("Login cancelled"));
      interaction.signal.addEventListener("abort", () => reject(new Error("Login cancelled")), { once: true });
    });
    cancelled.catch(() => undefined);
    const code = await Promise.race([callback.code, cancelled]);
    const body = {
      grant_type: "authorization_code",
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      code,
      code_verifier: verifier,
    };
    return credential(await postForJson(tokenUrl(env), body, { form: true, signal: interaction.signal }));
  } finally {
    callback.close();
  }
}

async function deviceLogin(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const gateway = radiusGateway(env);
  const device = await postFormAnswer(
    new URL("/v1/oauth/device", gateway).toString(),
    { client_id: CLIENT_ID, scope: SCOPE },
    interaction.signal,
  );
  if (!device.ok) throw new Error(`Radius OAuth device authorization failed (HTTP ${device.status})`);
  const deviceCode = stringField(device.body, "device_code", "Radius device code");
  const expires = numberField(device.body, "expires_in", "Radius device code");
  interaction.notify({
    type: "device_code",
    userCode: stringField(device.body, "user_code", "Radius device code"),
    verificationUri: trustedVerificationUri(device.body.verification_uri, WHAT),
  });
  return pollDeviceCode({
    what: WHAT,
    intervalSeconds: typeof device.body.interval === "number" ? device.body.interval : undefined,
    expiresInSeconds: expires,
    signal: interaction.signal,
    poll: () =>
      postFormAnswer(
        tokenUrl(env),
        { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: CLIENT_ID, device_code: deviceCode },
        interaction.signal,
      ),
    complete: credential,
  });
}

/** Asks for the sign-in method (the first is the default; `--no-browser` takes the other) and runs it. */
async function signIn(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const method = await interaction.prompt({
    type: "select",
    message: "Sign in to Radius:",
    options: [
      { id: "browser", label: "Sign in with browser (recommended)" },
      { id: "device-code", label: "Sign in with device code (when signing in from another device)" },
    ],
  });
  if (method === "device-code") return deviceLogin(interaction, env);
  if (method === "browser") return browserLogin(interaction, env);
  throw new Error(`Unknown Radius sign-in method: ${method}`);
}

/** The Radius flow (provider id `radius`). */
export const radiusFlow: OAuthFlow = {
  id: "radius",
  name: "Radius",
  async login(interaction, env, context) {
    const signedIn = await signIn(interaction, env);
    // As pi does after a Radius sign-in: the account's models, from the gateway. A failure leaves the
    // sign-in in place and says so.
    try {
      const count = await saveRadiusCatalog(radiusGateway(env), signedIn.access, context.agentDir, interaction.signal);
      interaction.notify({ type: "progress", message: `Loaded ${count} Radius model${count === 1 ? "" : "s"}` });
    } catch (error) {
      interaction.notify({
        type: "progress",
        message: `Could not load the Radius model list: ${(error as Error).message}`,
      });
    }
    return signedIn;
  },
  async refresh(current, env, signal) {
    const body = { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: current.refresh };
    return { ...current, ...credential(await postForJson(tokenUrl(env), body, { form: true, signal, refresh: true })) };
  },
  // A gateway other than pi's serves the models at its own /v1.
  requestAuth: (current, env) => ({
    apiKey: current.access,
    ...(override(env, "PI_RADIUS_GATEWAY") !== undefined ? { baseUrl: `${radiusGateway(env)}/v1` } : {}),
  }),
};
