/**
 * GitHub Copilot: GitHub's device-code flow gives a GitHub token (stored as `refresh`); that token is
 * exchanged for a short-lived Copilot token (stored as `access`), whose `proxy-ep` names the account's
 * API host. "Refresh" is that exchange again. GitHub Enterprise uses its own domain (`enterpriseUrl`).
 */
import type { LoginInteraction } from "pi-host";
import { override } from "./endpoints.js";
import type { OAuthCredential, OAuthFlow } from "./flow.js";
import { numberField, postForJson, readJson, sleep, stringField } from "./http.js";

const CLIENT_ID = Buffer.from("SXYxLmI1MDdhMDhjODdlY2ZlOTg=", "base64").toString();
/** The editor identity Copilot's API expects on every request. */
export const COPILOT_HEADERS: Readonly<Record<string, string>> = {
  "User-Agent": "GitHubCopilotChat/0.35.0",
  "Editor-Version": "vscode/1.107.0",
  "Editor-Plugin-Version": "copilot-chat/0.35.0",
  "Copilot-Integration-Id": "vscode-chat",
};

function urls(env: NodeJS.ProcessEnv, domain: string | undefined) {
  const host = domain ?? "github.com";
  return {
    web: override(env, "PI_OAUTH_GITHUB_URL") ?? `https://${host}`,
    api: override(env, "PI_OAUTH_GITHUB_API_URL") ?? `https://api.${host}`,
  };
}

/** The domain of a GitHub Enterprise URL or name; undefined for blank input. */
export function enterpriseDomain(input: string): string | undefined {
  const trimmed = input.trim();
  if (trimmed === "") return undefined;
  const text = trimmed.includes("://") ? trimmed : `https://${trimmed}`;
  if (!URL.canParse(text)) throw new Error("Invalid GitHub Enterprise URL/domain");
  return new URL(text).hostname;
}

/** The API base URL a Copilot token names (`proxy-ep=proxy.X` → `https://api.X`). */
export function copilotBaseUrl(token: string, domain: string | undefined, env: NodeJS.ProcessEnv): string {
  const fixed = override(env, "PI_OAUTH_COPILOT_BASE_URL");
  if (fixed !== undefined) return fixed;
  const proxy = /proxy-ep=([^;]+)/.exec(token)?.[1];
  if (proxy !== undefined) return `https://${proxy.replace(/^proxy\./, "api.")}`;
  return domain !== undefined ? `https://copilot-api.${domain}` : "https://api.individual.githubcopilot.com";
}

async function copilotToken(
  githubToken: string,
  domain: string | undefined,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
  refresh: boolean,
): Promise<OAuthCredential> {
  const url = `${urls(env, domain).api}/copilot_internal/v2/token`;
  const response = await fetch(url, {
    headers: { accept: "application/json", authorization: `Bearer ${githubToken}`, ...COPILOT_HEADERS },
    signal,
  });
  const data = await readJson(url, response, refresh);
  return {
    type: "oauth",
    refresh: githubToken,
    access: stringField(data, "token", "Copilot token endpoint"),
    expires: numberField(data, "expires_at", "Copilot token endpoint") * 1000 - 5 * 60 * 1000,
    ...(domain !== undefined ? { enterpriseUrl: domain } : {}),
  };
}

async function login(interaction: LoginInteraction, env: NodeJS.ProcessEnv): Promise<OAuthCredential> {
  const domain = enterpriseDomain(
    await interaction.prompt({
      type: "text",
      message: "GitHub Enterprise URL/domain (blank for github.com)",
      placeholder: "company.ghe.com",
    }),
  );
  const { web } = urls(env, domain);
  const form = { form: true, signal: interaction.signal, headers: { "user-agent": COPILOT_HEADERS["User-Agent"]! } };
  const device = await postForJson(`${web}/login/device/code`, { client_id: CLIENT_ID, scope: "read:user" }, form);
  const deviceCode = stringField(device, "device_code", "GitHub device code");
  const verificationUri = stringField(device, "verification_uri", "GitHub device code");
  if (!/^https?:\/\//.test(verificationUri)) throw new Error("Untrusted verification_uri in device code response");
  interaction.notify({
    type: "device_code",
    userCode: stringField(device, "user_code", "GitHub device code"),
    verificationUri,
  });
  let intervalMs = Math.max(1000, Number(device.interval ?? 5) * 1000);
  const deadline = Date.now() + numberField(device, "expires_in", "GitHub device code") * 1000;
  while (Date.now() < deadline) {
    await sleep(intervalMs, interaction.signal);
    const answer = await postForJson(
      `${web}/login/oauth/access_token`,
      { client_id: CLIENT_ID, device_code: deviceCode, grant_type: "urn:ietf:params:oauth:grant-type:device_code" },
      form,
    );
    if (typeof answer.access_token === "string") {
      return copilotToken(answer.access_token, domain, env, interaction.signal, false);
    }
    if (answer.error === "authorization_pending") continue;
    if (answer.error === "slow_down") {
      intervalMs = typeof answer.interval === "number" ? answer.interval * 1000 : intervalMs + 5000;
      continue;
    }
    throw new Error(
      `Device flow failed: ${String(answer.error ?? "invalid answer")}${answer.error_description ? `: ${answer.error_description}` : ""}`,
    );
  }
  throw new Error("Device flow timed out");
}

function domainOf(credential: OAuthCredential): string | undefined {
  return typeof credential.enterpriseUrl === "string" && credential.enterpriseUrl !== ""
    ? enterpriseDomain(credential.enterpriseUrl)
    : undefined;
}

/** The Copilot flow (provider id `github-copilot`). */
export const githubCopilotFlow: OAuthFlow = {
  id: "github-copilot",
  name: "GitHub Copilot",
  login,
  async refresh(current, env, signal) {
    return { ...current, ...(await copilotToken(current.refresh, domainOf(current), env, signal, true)) };
  },
  requestAuth: (current, env) => ({
    apiKey: current.access,
    baseUrl: copilotBaseUrl(current.access, domainOf(current), env),
    headers: { ...COPILOT_HEADERS },
  }),
};
