/**
 * pi 1.6's last three sign-ins end to end against the local sign-in server: Sign in with ChatGPT for
 * `openai` (registration callback with the issued client id, device id from settings.json), Meta's
 * device code and API-key mint, and Radius (browser and device code on the gateway). Each: token in
 * auth.json → the bearer reaching a local Responses server → refresh when expired → a revoked refresh
 * token saying `run "pi auth login <provider>"`.
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
  "PI_OAUTH_OPENAI_AUTH_URL",
  "PI_OAUTH_CALLBACK_PORT",
  "PI_OAUTH_META_URL",
  "PI_OAUTH_META_API_URL",
  "PI_RADIUS_GATEWAY",
];

describe("account sign-in: ChatGPT, Meta, Radius", () => {
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

  /** A Responses API call with the sign-in's auth, as provider-openai sends it; returns the status. */
  async function callModel(request: { apiKey: string; baseUrl?: string } | undefined, path = "/responses") {
    const response = await fetch(`${request!.baseUrl ?? server.url}${request!.baseUrl ? "/responses" : path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${request!.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, input: [] }),
    });
    await response.text();
    return response.status;
  }

  /** Expires the stored entry, asks for the key, and checks exactly one refresh gave a working bearer. */
  async function refreshesOnce(provider: string, accounts: AccountAuth, auth: AuthStore) {
    const stored = readAuth()[provider];
    writeFileSync(authFile(), JSON.stringify({ [provider]: { ...stored, expires: Date.now() - 1000 } }));
    const before = server.refreshCount;
    const renewed = await auth.apiKey(provider);
    expect(server.refreshCount).toBe(before + 1);
    expect(renewed).not.toBe(stored.access);
    expect(readAuth()[provider]).toMatchObject({ access: renewed });
    expect(statSync(authFile()).mode & 0o777).toBe(0o600);
    expect(await callModel(await accounts.requestAuth(provider))).toBe(200);
  }

  beforeEach(async () => {
    server = await new OAuthTestServer().start();
    agentDir = mkdtempSync(join(tmpdir(), "pi-oauth-more-"));
    kernels = [];
    saved = Object.fromEntries(OVERRIDES.map((n) => [n, process.env[n]]));
    process.env.PI_OAUTH_OPENAI_AUTH_URL = server.url;
    process.env.PI_OAUTH_CALLBACK_PORT = "0";
    process.env.PI_OAUTH_META_URL = server.url;
    process.env.PI_OAUTH_META_API_URL = server.url;
    process.env.PI_RADIUS_GATEWAY = server.url;
  });
  afterEach(async () => {
    for (const kernel of kernels) await kernel.shutdown();
    await server.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("ChatGPT: registration callback → issued client id and scopes stored → bearer → refresh → revoked", async () => {
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ theme: "dark" }));
    const { accounts, auth } = await boot();
    const user = scriptedUser("");
    await accounts.login("openai", user.interaction);
    const page = await user.browsed[0]!;
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Signed in to ChatGPT");
    // The installation's device id is created once, beside the settings already there, as pi keeps it.
    const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
    expect(settings).toMatchObject({ theme: "dark", deviceId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const authorize = new URL((user.events.find((e) => e.type === "auth_url") as { url: string }).url);
    expect(authorize.pathname).toBe("/api/accounts/authorize");
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: "dynamic_agent_client",
      agent_name_hint: "Pi",
      ext_agent_host_id: `urn:uuid:${settings.deviceId}`,
      resource: "https://api.openai.com/v1",
      scope: "openid profile email offline_access resource.invoke chatgpt.tokens.use.direct",
      code_challenge_method: "S256",
    });
    expect(authorize.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/callback$/);
    const exchange = server.requests.find((r) => r.path === "/api/accounts/oauth/token")!;
    expect(exchange.body).toMatchObject({ grant_type: "authorization_code", client_id: server.chatgptClientId });
    const stored = readAuth().openai;
    expect(stored).toMatchObject({ type: "oauth", access: "chatgpt-access-2", clientId: server.chatgptClientId });
    expect(stored.scopes).toContain("chatgpt.tokens.use.direct");
    // Stored three minutes early, as pi stores it.
    expect(stored.expires).toBeLessThanOrEqual(Date.now() + 3600_000 - 179_000);
    expect(await accounts.requestAuth("openai")).toEqual({ apiKey: stored.access });
    expect(await callModel(await accounts.requestAuth("openai"))).toBe(200);

    await refreshesOnce("openai", accounts, auth);
    const refresh = server.requests.filter((r) => r.path === "/api/accounts/oauth/token").at(-1)!;
    expect(refresh.body).toMatchObject({ grant_type: "refresh_token", client_id: server.chatgptClientId });
    // A second sign-in keeps the same device id.
    await accounts.login("openai", scriptedUser("").interaction);
    expect(JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")).deviceId).toBe(settings.deviceId);

    const now = readAuth();
    server.revoked.add(now.openai.refresh);
    writeFileSync(authFile(), JSON.stringify({ openai: { ...now.openai, expires: 0 } }));
    await expect(auth.apiKey("openai")).rejects.toThrow(
      'the OpenAI (ChatGPT subscription) sign-in was revoked or has expired; run "pi auth login openai"',
    );
  });

  it("ChatGPT: a taken callback port is one line saying what holds it; nothing is stored", async () => {
    const { createServer } = await import("node:net");
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    process.env.PI_OAUTH_CALLBACK_PORT = String((holder.address() as { port: number }).port);
    try {
      const { accounts } = await boot();
      await expect(accounts.login("openai", scriptedUser("").interaction)).rejects.toThrow(
        /^Port \d+ is in use, probably by an unfinished login in another pi session or by the Codex CLI\. Cancel that login and try again\.$/,
      );
      expect(() => readAuth()).toThrow();
    } finally {
      holder.close();
    }
  });

  it("Meta: device code → identity token → minted API key → bearer → re-mint when expired → expired session", async () => {
    const { accounts, auth } = await boot();
    const user = scriptedUser("");
    await accounts.login("meta", user.interaction);
    expect(user.events[0]).toEqual({
      type: "device_code",
      userCode: "META-2468",
      verificationUri: `${server.url}/meta/device`,
    });
    const polls = server.requests.filter((r) => r.path === "/oidc/device/token/");
    expect(polls).toHaveLength(2);
    expect(polls[0]!.body).toMatchObject({ grant_type: "urn:ietf:params:oauth:grant-type:device_code" });
    const mint = server.requests.find((r) => r.path === "/muse-code/key")!;
    expect(mint.headers["x-api-version"]).toBe("1.0.0");
    const stored = readAuth().meta;
    expect(stored).toMatchObject({ type: "oauth", refresh: expect.stringMatching(/^meta-identity-/) });
    expect(stored.access).toMatch(/^meta-key-/);
    expect(stored.expires).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(await callModel(await accounts.requestAuth("meta"), "/v1/responses")).toBe(200);

    await refreshesOnce("meta", accounts, auth);
    expect(readAuth().meta.refresh).toBe(stored.refresh);

    server.metaIdentities.clear();
    writeFileSync(authFile(), JSON.stringify({ meta: { ...readAuth().meta, expires: 0 } }));
    await expect(auth.apiKey("meta")).rejects.toThrow(
      'the Meta (Muse subscription) sign-in was revoked or has expired; run "pi auth login meta"',
    );
  });

  for (const method of ["browser", "device-code"] as const) {
    it(`Radius (${method}): gateway sign-in → bearer to the gateway → refresh → revoked`, async () => {
      const { accounts, auth } = await boot();
      const user = scriptedUser(method);
      await accounts.login("radius", user.interaction);
      if (method === "browser") {
        expect((await user.browsed[0]!).status).toBe(200);
        const authorize = new URL((user.events.find((e) => e.type === "auth_url") as { url: string }).url);
        expect(authorize.pathname).toBe("/radius/authorize");
        expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
          client_id: "pi-gateway",
          scope: "gateway offline_access",
          handoff: "url",
          code_challenge_method: "S256",
        });
      } else {
        expect(user.events[0]).toEqual({
          type: "device_code",
          userCode: "RAD-1357",
          verificationUri: `${server.url}/radius/device`,
        });
      }
      const stored = readAuth().radius;
      expect(stored).toMatchObject({ type: "oauth", access: expect.stringMatching(/^radius-access-/) });
      expect(stored.scope).toBe("gateway offline_access");
      // The gateway's model list, read with the new token, kept where pi 1.6 keeps it.
      expect(user.events).toContainEqual({ type: "progress", message: "Loaded 1 Radius model" });
      const store = JSON.parse(readFileSync(join(agentDir, "models-store.json"), "utf8"));
      expect(store.radius.models).toEqual([
        {
          id: "balanced",
          name: "Balanced",
          reasoning: true,
          input: ["text"],
          cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 0 },
          contextWindow: 200000,
          maxTokens: 32000,
          api: "pi-messages",
          provider: "radius",
          baseUrl: `${server.url}/v1`,
        },
      ]);
      expect(store.radius.checkedAt).toBeGreaterThan(0);
      const request = await accounts.requestAuth("radius");
      expect(request).toEqual({ apiKey: stored.access, baseUrl: `${server.url}/v1` });
      expect(await callModel(request)).toBe(200);

      await refreshesOnce("radius", accounts, auth);

      const now = readAuth();
      server.revoked.add(now.radius.refresh);
      writeFileSync(authFile(), JSON.stringify({ radius: { ...now.radius, expires: 0 } }));
      await expect(auth.apiKey("radius")).rejects.toThrow(
        'the Radius sign-in was revoked or has expired; run "pi auth login radius"',
      );
    });
  }

  it("every pi 1.6 sign-in is offered by /login and pi auth login", async () => {
    const { accounts } = await boot();
    expect(accounts.loginProviders().map((p) => p.id)).toEqual([
      "anthropic",
      "openai",
      "openai-codex",
      "github-copilot",
      "openrouter",
      "xai",
      "kimi-coding",
      "meta",
      "radius",
    ]);
  });
});
