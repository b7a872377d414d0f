/**
 * pi 1.6's ChatGPT (`openai`), Meta and Radius sign-ins (and the earlier Codex, Copilot, xAI and Kimi
 * ones) through the built CLI against the local sign-in server: for each, two `pi` processes that find the token expired make exactly one refresh request and
 * print the same new bearer; a revoked refresh token ends in one line naming `pi auth login <provider>`.
 * Then `pi -p` sends a ChatGPT sign-in's bearer to a local Responses server, `pi auth login` offers and
 * suggests the new providers, and `pi auth check` reports them ready.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OAuthTestServer } from "../support/oauth-server.js";
import { agentHome, type AgentHome } from "./agent-home.js";

let server: OAuthTestServer;
let user: AgentHome;
let env: Record<string, string>;

const readAuth = () => JSON.parse(readFileSync(join(user.agent, "auth.json"), "utf8"));
function writeAuth(data: unknown): void {
  writeFileSync(join(user.agent, "auth.json"), JSON.stringify(data), { mode: 0o600 });
}

beforeEach(async () => {
  server = await new OAuthTestServer().start();
  user = agentHome();
  env = {
    PI_OAUTH_OPENAI_AUTH_URL: server.url,
    PI_OAUTH_META_URL: server.url,
    PI_OAUTH_META_API_URL: server.url,
    PI_RADIUS_GATEWAY: server.url,
    PI_OAUTH_GITHUB_API_URL: server.url,
    PI_OAUTH_XAI_URL: server.url,
    KIMI_CODE_OAUTH_HOST: server.url,
  };
});
afterEach(async () => {
  await server.close();
});

/** An expired credential of each kind, with a refresh token (or identity token) the server accepts. */
const EXPIRED: Record<string, { name: string; entry: (refresh: string) => Record<string, unknown> }> = {
  openai: {
    name: "OpenAI (ChatGPT subscription)",
    entry: (refresh) => ({ type: "oauth", refresh, access: "chatgpt-old", expires: 0, clientId: "app_issued_7" }),
  },
  meta: {
    name: "Meta (Muse subscription)",
    entry: (refresh) => ({ type: "oauth", refresh, access: "meta-key-old", expires: 0 }),
  },
  radius: {
    name: "Radius",
    entry: (refresh) => ({ type: "oauth", refresh, access: "radius-old", expires: 0 }),
  },
  // The sign-ins that were here before refresh the same way.
  "openai-codex": {
    name: "OpenAI (ChatGPT Plus/Pro)",
    entry: (refresh) => ({ type: "oauth", refresh, access: "codex-old", expires: 0, accountId: "acct-42" }),
  },
  "github-copilot": {
    name: "GitHub Copilot",
    entry: (refresh) => ({ type: "oauth", refresh, access: "tid=old;proxy-ep=proxy.example.test;", expires: 0 }),
  },
  xai: {
    name: "xAI (Grok/X subscription)",
    entry: (refresh) => ({ type: "oauth", refresh, access: "xai-old", expires: 0 }),
  },
  "kimi-coding": {
    name: "Kimi Code (subscription)",
    entry: (refresh) => ({ type: "oauth", refresh, access: "kimi-old", expires: 0 }),
  },
};

function accept(provider: string, token: string): void {
  if (provider === "meta") server.metaIdentities.add(token);
  else server.issueRefresh(token);
}

describe("pi auth with the ChatGPT, Meta and Radius sign-ins", () => {
  for (const [provider, { name, entry }] of Object.entries(EXPIRED)) {
    it(`${provider}: two pi processes refreshing one expired token make exactly one refresh request`, async () => {
      accept(provider, "shared-token");
      server.refreshDelayMs = 300;
      writeAuth({ [provider]: entry("shared-token"), anthropic: { type: "api_key", key: "sk-keep" } });
      const args = ["auth", "print-bearer-token", "--provider", provider];
      const [a, b] = await Promise.all([user.pi(args, { env }), user.pi(args, { env })]);
      expect([a.code, a.stderr, b.code, b.stderr]).toEqual([0, "", 0, ""]);
      expect(server.refreshCount).toBe(1);
      expect(a.stdout).toBe(b.stdout);
      const stored = readAuth();
      expect(`${stored[provider].access}\n`).toBe(a.stdout);
      expect(stored.anthropic).toEqual({ type: "api_key", key: "sk-keep" });
      expect(statSync(join(user.agent, "auth.json")).mode & 0o777).toBe(0o600);
      // The new bearer works against the local model server.
      const call = await fetch(`${server.url}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${stored[provider].access}` },
        body: "{}",
      });
      expect(call.status).toBe(200);
      await call.text();
    });

    it(`${provider}: a revoked refresh token ends in one line naming pi auth login ${provider}`, async () => {
      // Nothing accepted: the refresh (or Meta's key mint) is refused.
      writeAuth({ [provider]: entry("gone") });
      const run = await user.pi(["auth", "print-bearer-token", "--provider", provider], { env });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `Error: the ${name} sign-in was revoked or has expired; run "pi auth login ${provider}"\n`,
      );
      expect(readAuth()[provider]).toEqual(entry("gone"));
    });
  }

  it("pi auth login lists and suggests the new providers; pi auth check sees their sign-ins", async () => {
    for (const [typo, meant] of [
      ["radiuss", "radius"],
      ["metaa", "meta"],
    ]) {
      const run = await user.pi(["auth", "login", typo], { env });
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split("\n");
      expect(lines[1]).toMatch(/^Providers: .*\bmeta\b.*\bopenai\b.*\bradius\b/);
      expect(lines[2]).toBe(`Did you mean "${meant}"? Run "pi auth login ${meant}".`);
    }
    const live = (access: string) => ({ type: "oauth", refresh: "r", access, expires: Date.now() + 3_600_000 });
    writeAuth({ openai: live("chatgpt-live"), meta: live("meta-live"), radius: live("radius-live") });
    for (const provider of ["openai", "meta", "radius"]) {
      const check = await user.pi(["auth", "check", "--provider", provider, "--json"], { env });
      expect([check.code, check.stdout]).toEqual([
        0,
        `{"status":"ready","provider":"${provider}","authType":"oauth"}\n`,
      ]);
    }
    const out = await user.pi(["auth", "logout", "radius"], { env });
    expect([out.code, out.stdout]).toEqual([0, "Logged out of Radius.\n"]);
  });
});

describe("pi -p with a Radius sign-in", () => {
  it("refreshes the expired token and sends pi's own protocol to the gateway with it", async () => {
    server.issueRefresh("rr-1");
    writeAuth({ radius: EXPIRED.radius!.entry("rr-1") });
    // The gateway's model list as a sign-in (ours or pi 1.6's) keeps it.
    const balanced = {
      id: "balanced",
      name: "Balanced",
      api: "pi-messages",
      provider: "radius",
      baseUrl: `${server.url}/v1`,
      reasoning: true,
      input: ["text"],
      cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 0 },
      contextWindow: 200000,
      maxTokens: 32000,
    };
    writeFileSync(
      join(user.agent, "models-store.json"),
      JSON.stringify({ radius: { models: [balanced], checkedAt: Date.now() } }),
    );
    const run = await user.pi(["-p", "--no-session", "--model", "radius/balanced", "--no-tools", "hi"], { env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("hello from radius\n");
    expect(server.refreshCount).toBe(1);
    const call = server.requests.find((r) => r.path === "/v1/messages")!;
    expect(call.headers.authorization).toBe(`Bearer ${readAuth().radius.access}`);
    expect(call.body).toMatchObject({ model: "balanced", context: { messages: [{ role: "user", content: "hi" }] } });
  });
});

describe("pi -p with a ChatGPT sign-in", () => {
  it("refreshes the expired token, then sends it as the bearer to the Responses API", async () => {
    server.issueRefresh("r-1");
    writeAuth({ openai: EXPIRED.openai!.entry("r-1") });
    writeFileSync(join(user.agent, "models.json"), JSON.stringify({ providers: { openai: { baseUrl: server.url } } }));
    const run = await user.pi(["-p", "--no-session", "--model", "openai/gpt-5", "--no-tools", "hi"], { env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("hello from responses\n");
    expect(server.refreshCount).toBe(1);
    const call = server.requests.find((r) => r.path === "/responses")!;
    expect(call.headers.authorization).toBe(`Bearer ${readAuth().openai.access}`);
    expect(call.body).toMatchObject({ model: "gpt-5", stream: true });
  });
});
