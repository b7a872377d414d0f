/**
 * Account sign-in end to end against a local sign-in server: authorize → loopback callback (the test
 * plays the browser) → token; GitHub's device code → Copilot token; the bearer reaching a local model
 * server; refresh when expired; a revoked refresh token; auth.json's mode; a pi 1.6 auth.json read as is.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AccountAuthContract, AuthContract, type AccountAuth, type AuthStore } from "../../../contracts/ai/index.js";
import { Kernel } from "../../../kernel/index.js";
import authPlugin from "../../../plugins/ai/auth/index.js";
import { scriptedUser } from "../../support/login-user.js";
import { OAuthTestServer } from "../../support/oauth-server.js";

const OVERRIDES = [
  "PI_OAUTH_ANTHROPIC_AUTHORIZE_URL",
  "PI_OAUTH_ANTHROPIC_TOKEN_URL",
  "PI_OAUTH_OPENAI_AUTH_URL",
  "PI_OAUTH_GITHUB_URL",
  "PI_OAUTH_GITHUB_API_URL",
  "PI_OAUTH_COPILOT_BASE_URL",
  "PI_OAUTH_CALLBACK_PORT",
  "PI_OAUTH_OPENROUTER_URL",
  "PI_OAUTH_XAI_URL",
  "KIMI_CODE_OAUTH_HOST",
];

describe("account sign-in (OAuth)", () => {
  let server: OAuthTestServer;
  let agentDir: string;
  let kernels: Kernel[];
  let saved: Record<string, string | undefined>;
  const authFile = () => join(agentDir, "auth.json");
  const readAuth = () => JSON.parse(readFileSync(authFile(), "utf8"));

  async function boot(): Promise<{ accounts: AccountAuth; auth: AuthStore }> {
    const kernel = new Kernel();
    kernels.push(kernel);
    const result = await kernel.boot([
      { id: "auth", source: { kind: "inline", label: "auth", definition: authPlugin }, config: { agentDir } },
    ]);
    expect(result.errors).toEqual([]);
    return { accounts: kernel.use(AccountAuthContract).api, auth: kernel.use(AuthContract).api };
  }

  beforeEach(async () => {
    server = await new OAuthTestServer().start();
    agentDir = mkdtempSync(join(tmpdir(), "pi-oauth-"));
    kernels = [];
    saved = Object.fromEntries(OVERRIDES.map((n) => [n, process.env[n]]));
    process.env.PI_OAUTH_ANTHROPIC_AUTHORIZE_URL = `${server.url}/oauth/authorize`;
    process.env.PI_OAUTH_ANTHROPIC_TOKEN_URL = `${server.url}/v1/oauth/token`;
    process.env.PI_OAUTH_OPENAI_AUTH_URL = server.url;
    process.env.PI_OAUTH_GITHUB_URL = server.url;
    process.env.PI_OAUTH_GITHUB_API_URL = server.url;
    process.env.PI_OAUTH_COPILOT_BASE_URL = server.url;
    process.env.PI_OAUTH_CALLBACK_PORT = "0";
    process.env.PI_OAUTH_OPENROUTER_URL = server.url;
    process.env.PI_OAUTH_XAI_URL = server.url;
    process.env.KIMI_CODE_OAUTH_HOST = server.url;
  });
  afterEach(async () => {
    for (const kernel of kernels) await kernel.shutdown();
    await server.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("Anthropic: authorize → callback → tokens in auth.json (0600) → the bearer is the key", async () => {
    const { accounts, auth } = await boot();
    const user = scriptedUser("browser");
    await accounts.login("anthropic", user.interaction);
    const page = await user.browsed[0]!;
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Signed in to Anthropic");
    const authorize = new URL((user.events[0] as { url: string }).url);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    const stored = readAuth().anthropic;
    expect(stored).toMatchObject({ type: "oauth", access: "sk-ant-oat01-access-2", refresh: "refresh-2" });
    expect(stored.expires).toBeGreaterThan(Date.now());
    expect(statSync(authFile()).mode & 0o777).toBe(0o600);
    expect(await auth.apiKey("anthropic")).toBe("sk-ant-oat01-access-2");
    expect(server.refreshCount).toBe(0);
  });

  it("refreshes an expired token once, keeps other entries, and a revoked refresh token says to log in again", async () => {
    server.issueRefresh("old-refresh");
    writeFileSync(
      authFile(),
      JSON.stringify({
        anthropic: { type: "oauth", refresh: "old-refresh", access: "sk-ant-oat01-old", expires: Date.now() - 1000 },
        openai: { type: "api_key", key: "sk-keep" },
      }),
      { mode: 0o600 },
    );
    const { accounts, auth } = await boot();
    const [a, b] = await Promise.all([auth.apiKey("anthropic"), accounts.requestAuth("anthropic")]);
    expect(server.refreshCount).toBe(1);
    expect(a).toBe(b?.apiKey);
    expect(readAuth()).toMatchObject({ anthropic: { access: a, refresh: "refresh-1" }, openai: { key: "sk-keep" } });
    expect(statSync(authFile()).mode & 0o777).toBe(0o600);

    const now = readAuth();
    server.revoked.add(now.anthropic.refresh);
    writeFileSync(authFile(), JSON.stringify({ ...now, anthropic: { ...now.anthropic, expires: 0 } }));
    await expect(auth.apiKey("anthropic")).rejects.toThrow(
      'the Anthropic (Claude Pro/Max) sign-in was revoked or has expired; run "pi auth login anthropic"',
    );
  });

  it("GitHub Copilot: device code → GitHub token → Copilot token, base URL and editor headers", async () => {
    const { accounts } = await boot();
    const user = scriptedUser("", "");
    await accounts.login("github-copilot", user.interaction);
    expect(user.events[0]).toEqual({
      type: "device_code",
      userCode: "ABCD-1234",
      verificationUri: `${server.url}/login/device`,
    });
    expect(server.requests.filter((r) => r.path === "/login/oauth/access_token")).toHaveLength(2);
    const stored = readAuth()["github-copilot"];
    expect(stored).toMatchObject({ type: "oauth", refresh: "gho_github_token" });
    expect(stored.access).toContain("proxy-ep=proxy.example.test");
    const request = await accounts.requestAuth("github-copilot");
    expect(request).toMatchObject({ apiKey: stored.access, baseUrl: server.url });
    expect(request?.headers?.["Copilot-Integration-Id"]).toBe("vscode-chat");
    // Without the override the base URL comes from the token's proxy-ep.
    delete process.env.PI_OAUTH_COPILOT_BASE_URL;
    expect((await accounts.requestAuth("github-copilot"))?.baseUrl).toBe("https://api.example.test");
  });

  it("OpenAI Codex: browser sign-in stores the ChatGPT account id; requests carry it", async () => {
    const { accounts } = await boot();
    const user = scriptedUser("browser");
    await accounts.login("openai-codex", user.interaction);
    expect((await user.browsed[0]!).status).toBe(200);
    const stored = readAuth()["openai-codex"];
    expect(stored).toMatchObject({ type: "oauth", accountId: "acct-42" });
    const request = await accounts.requestAuth("openai-codex");
    expect(request).toEqual({ apiKey: stored.access, headers: { "chatgpt-account-id": "acct-42" } });
  });

  it("an auth.json written by pi 1.6 is read unchanged", async () => {
    const fixture = readFileSync(new URL("../../fixtures/auth/pi16-auth.json", import.meta.url), "utf8");
    writeFileSync(authFile(), fixture, { mode: 0o600 });
    const { accounts, auth } = await boot();
    expect(await auth.apiKey("anthropic")).toBe("sk-ant-oat01-pi16-access");
    expect(await auth.apiKey("openai")).toBe("sk-pi16-key");
    expect(await accounts.requestAuth("openai-codex")).toMatchObject({
      headers: { "chatgpt-account-id": "acct-pi16" },
    });
    expect((await accounts.stored()).map((s) => `${s.provider}:${s.type}`).sort()).toEqual([
      "anthropic:oauth",
      "github-copilot:oauth",
      "openai-codex:oauth",
      "openai:api_key",
    ]);
    expect(readFileSync(authFile(), "utf8")).toBe(fixture);
    expect(server.requests).toEqual([]);
  });

  it("logout removes only that provider's entry", async () => {
    writeFileSync(
      authFile(),
      JSON.stringify({
        anthropic: { type: "oauth", refresh: "r", access: "a", expires: 1 },
        openai: { type: "api_key", key: "k" },
      }),
    );
    const { accounts } = await boot();
    expect(await accounts.logout("anthropic")).toBe("oauth");
    expect(await accounts.logout("anthropic")).toBeUndefined();
    expect(readAuth()).toEqual({ openai: { type: "api_key", key: "k" } });
  });

  /** A chat-completions call with the sign-in's auth, as a provider sends it; returns the status. */
  async function callModel(request: { apiKey: string; headers?: Record<string, string> } | undefined) {
    // The key goes out as the bearer; the sign-in's own headers win, compared without regard to case.
    const headers = new Headers({ authorization: `Bearer ${request!.apiKey}`, "content-type": "application/json" });
    for (const [name, value] of Object.entries(request!.headers ?? {})) headers.set(name, value);
    const response = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    await response.text();
    return response.status;
  }

  it("OpenRouter: authorize (PKCE, no state) → loopback callback → permanent key → the key is the bearer", async () => {
    const { accounts, auth } = await boot();
    const user = scriptedUser("");
    await accounts.login("openrouter", user.interaction);
    const page = await user.browsed[0]!;
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Signed in to OpenRouter");
    const authorize = new URL((user.events.find((e) => e.type === "auth_url") as { url: string }).url);
    expect(authorize.pathname).toBe("/auth");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("callback_url")).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\/[0-9a-f-]{36}$/,
    );
    const stored = readAuth().openrouter;
    expect(stored).toEqual({ type: "oauth", access: "sk-or-v1-2", refresh: "", expires: Number.MAX_SAFE_INTEGER });
    expect(statSync(authFile()).mode & 0o777).toBe(0o600);
    expect(await auth.apiKey("openrouter")).toBe("sk-or-v1-2");
    expect(await callModel(await accounts.requestAuth("openrouter"))).toBe(200);
    expect(server.refreshCount).toBe(0);
  });

  for (const [provider, name, device, token] of [
    ["xai", "xAI (Grok/X subscription)", "/oauth2/device/code", "/oauth2/token"],
    ["kimi-coding", "Kimi Code (subscription)", "/api/oauth/device_authorization", "/api/oauth/token"],
  ] as const) {
    it(`${provider}: device code → token → bearer call → refresh when expired → revoked says to log in again`, async () => {
      const { accounts, auth } = await boot();
      const user = scriptedUser("");
      await accounts.login(provider, user.interaction);
      expect(user.events[0]).toEqual({
        type: "device_code",
        userCode: "WXYZ-9876",
        verificationUri: `${server.url}/device?user_code=WXYZ-9876`,
      });
      expect(server.requests.filter((r) => r.path === device)).toHaveLength(1);
      const polls = server.requests.filter((r) => r.path === token);
      expect(polls).toHaveLength(2);
      expect(polls[0]!.body).toMatchObject({ grant_type: "urn:ietf:params:oauth:grant-type:device_code" });
      const stored = readAuth()[provider];
      expect(stored).toMatchObject({ type: "oauth", access: expect.stringMatching(/-access-/) });
      expect(stored.expires).toBeGreaterThan(Date.now());
      expect(statSync(authFile()).mode & 0o777).toBe(0o600);
      const first = await accounts.requestAuth(provider);
      expect(first?.apiKey).toBe(stored.access);
      expect(await callModel(first)).toBe(200);

      // Expired: one refresh, new tokens in auth.json, and the new bearer works.
      writeFileSync(authFile(), JSON.stringify({ [provider]: { ...stored, expires: Date.now() - 1000 } }));
      const renewed = await auth.apiKey(provider);
      expect(server.refreshCount).toBe(1);
      expect(renewed).not.toBe(stored.access);
      expect(readAuth()[provider]).toMatchObject({ access: renewed });
      expect(await callModel(await accounts.requestAuth(provider))).toBe(200);

      const now = readAuth();
      server.revoked.add(now[provider].refresh);
      writeFileSync(authFile(), JSON.stringify({ [provider]: { ...now[provider], expires: 0 } }));
      await expect(auth.apiKey(provider)).rejects.toThrow(
        `the ${name} sign-in was revoked or has expired; run "pi auth login ${provider}"`,
      );
    });
  }
});
