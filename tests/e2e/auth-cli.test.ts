/**
 * `pi auth` and an OAuth sign-in as a user meets them, through the built CLI: pi 1.6's usage and
 * messages, two `pi` processes refreshing one expired token (exactly one refresh request), a revoked
 * refresh token, and `pi -p` sending a Claude Pro/Max bearer the way Claude Code does to a local server.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OAuthTestServer } from "../support/oauth-server.js";
import { agentHome, type AgentHome } from "./agent-home.js";

let server: OAuthTestServer;
let user: AgentHome;
let env: Record<string, string>;

function writeAuth(data: unknown): void {
  writeFileSync(join(user.agent, "auth.json"), JSON.stringify(data), { mode: 0o600 });
}

beforeEach(async () => {
  server = await new OAuthTestServer().start();
  user = agentHome();
  env = {
    PI_OAUTH_ANTHROPIC_AUTHORIZE_URL: `${server.url}/oauth/authorize`,
    PI_OAUTH_ANTHROPIC_TOKEN_URL: `${server.url}/v1/oauth/token`,
  };
});
afterEach(async () => {
  await server.close();
});

describe("pi auth", () => {
  it("prints pi 1.6's usage, and refuses an unknown subcommand in one line", async () => {
    const help = await user.pi(["auth", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      "pi auth print-bearer-token [--provider <provider>] [--model <model>] [--min-expiry <duration>]",
    );
    const bad = await user.pi(["auth", "status"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'Error: Unknown auth command "status". Use "pi auth login", "pi auth logout", "pi auth print-api-key", "pi auth print-bearer-token", or "pi auth check".\n',
    );
    const typo = await user.pi(["auth", "login", "xaii"]);
    expect(typo.code).toBe(1);
    const lines = typo.stderr.trim().split("\n");
    expect(lines[0]).toBe('Unknown provider "xaii".');
    expect(lines[1]).toMatch(/^Providers: .*\bxai\b/);
    expect(lines[2]).toBe('Did you mean "xai"? Run "pi auth login xai".');
    const noTty = await user.pi(["auth", "login", "anthropic"]);
    expect(noTty.code).toBe(1);
    expect(noTty.stderr).toBe(
      '"pi auth login <provider> [--api-key] [--no-browser]" requires an interactive terminal\n',
    );
  });

  it("check, print-api-key and print-bearer-token answer as pi 1.6 does", async () => {
    writeAuth({
      anthropic: { type: "oauth", refresh: "r", access: "sk-ant-oat01-live", expires: Date.now() + 3_600_000 },
      openai: { type: "api_key", key: "sk-x" },
    });
    const check = await user.pi(["auth", "check", "--provider", "anthropic", "--json"], { env });
    expect([check.code, check.stdout]).toEqual([0, '{"status":"ready","provider":"anthropic","authType":"oauth"}\n']);
    const missing = await user.pi(["auth", "check", "--provider", "xai"], { env });
    expect([missing.code, missing.stdout]).toEqual([1, "not_ready\n"]);
    expect(
      (await user.pi(["auth", "print-bearer-token", "--provider", "anthropic", "--min-expiry", "30m"], { env })).stdout,
    ).toBe("sk-ant-oat01-live\n");
    expect((await user.pi(["auth", "print-api-key", "--provider", "openai"], { env })).stdout).toBe("sk-x\n");
    const wrong = await user.pi(["auth", "print-api-key", "--provider", "anthropic"], { env });
    expect([wrong.code, wrong.stderr]).toEqual([
      1,
      'Error: Provider "anthropic" is configured with OAuth, not an API key\n',
    ]);
    const out = await user.pi(["auth", "logout", "anthropic"], { env });
    expect([out.code, out.stdout]).toEqual([0, "Logged out of Anthropic (Claude Pro/Max).\n"]);
    expect(JSON.parse(readFileSync(join(user.agent, "auth.json"), "utf8"))).toEqual({
      openai: { type: "api_key", key: "sk-x" },
    });
  });

  it("two pi processes that find the token expired make exactly one refresh request", async () => {
    server.issueRefresh("shared-refresh");
    server.refreshDelayMs = 300;
    writeAuth({ anthropic: { type: "oauth", refresh: "shared-refresh", access: "sk-ant-oat01-old", expires: 0 } });
    const args = ["auth", "print-bearer-token", "--provider", "anthropic"];
    const [a, b] = await Promise.all([user.pi(args, { env }), user.pi(args, { env })]);
    expect([a.code, a.stderr, b.code, b.stderr]).toEqual([0, "", 0, ""]);
    expect(server.refreshCount).toBe(1);
    expect(a.stdout).toBe(b.stdout);
    const stored = JSON.parse(readFileSync(join(user.agent, "auth.json"), "utf8")).anthropic;
    expect(`${stored.access}\n`).toBe(a.stdout);
    expect(stored.refresh).toBe("refresh-1");
    expect(statSync(join(user.agent, "auth.json")).mode & 0o777).toBe(0o600);
  });

  it("a revoked refresh token ends in one line naming pi auth login", async () => {
    server.issueRefresh("gone");
    server.revoked.add("gone");
    writeAuth({ anthropic: { type: "oauth", refresh: "gone", access: "sk-ant-oat01-old", expires: 0 } });
    const run = await user.pi(["auth", "print-bearer-token", "--provider", "anthropic"], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'Error: the Anthropic (Claude Pro/Max) sign-in was revoked or has expired; run "pi auth login anthropic"\n',
    );
  });
});

describe("pi -p with a Claude Pro/Max sign-in", () => {
  it("refreshes the expired token, then sends it as a bearer with Claude Code's headers and system line", async () => {
    server.issueRefresh("r-1");
    writeAuth({ anthropic: { type: "oauth", refresh: "r-1", access: "sk-ant-oat01-expired", expires: 0 } });
    writeFileSync(
      join(user.agent, "models.json"),
      JSON.stringify({ providers: { anthropic: { baseUrl: server.url } } }),
    );
    const run = await user.pi(["-p", "--model", "anthropic/claude-opus-4-5", "--no-tools", "hi"], { env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("hello from claude\n");
    expect(server.refreshCount).toBe(1);
    const call = server.requests.find((r) => r.path === "/v1/messages")!;
    expect(call.headers.authorization).toBe(
      `Bearer ${JSON.parse(readFileSync(join(user.agent, "auth.json"), "utf8")).anthropic.access}`,
    );
    expect(call.headers["x-api-key"]).toBeUndefined();
    expect(call.headers["anthropic-beta"]).toContain("oauth-2025-04-20");
    expect(call.headers["user-agent"]).toMatch(/^claude-cli\//);
    const system = call.body.system as { text: string }[];
    expect(system[0]!.text).toBe("You are Claude Code, Anthropic's official CLI for Claude.");
    expect(system.length).toBeGreaterThan(1);
  });
});
