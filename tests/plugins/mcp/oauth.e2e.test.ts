/**
 * MCP OAuth on the built CLI (`npm run build` first), against a local authorization server and a local
 * streamable-HTTP MCP server that requires its bearer (tests/support/mcp-oauth-servers.ts):
 * `pi mcp login <server>` signs in through the printed authorization URL (fetched here as the browser
 * would) and stores the tokens in `mcp-auth.json` under pi 1.6's key; a run then calls the server's tool;
 * an access token the server no longer accepts is refreshed on the way; a revoked refresh token makes
 * the server's failure say to run `pi mcp login <server>`.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHome, completionsText, completionsToolCall, type AgentHome } from "../../e2e/agent-home.js";
import { PI_BIN } from "../../e2e/run-pi.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { McpOAuthServers } from "../../support/mcp-oauth-servers.js";

let llm: MockLlmServer;
let oauth: McpOAuthServers;
let user: AgentHome;

beforeAll(async () => {
  if (!existsSync(PI_BIN)) throw new Error('dist is missing; run "npm run build" first');
  llm = await new MockLlmServer().start();
  oauth = await new McpOAuthServers().start();
  user = agentHome();
  user.useMockServer(`${llm.url}/v1`);
  writeFileSync(
    join(user.agent, "mcp.json"),
    JSON.stringify({ mcpServers: { remote: { url: oauth.mcpUrl, exposure: "direct" } } }),
  );
});
afterAll(async () => {
  await llm.close();
  await oauth.close();
});

/** `pi mcp login remote`, following the printed authorization URL like a browser. */
function login(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PI_BIN, "mcp", "login", "remote", "--no-browser"], {
      cwd: user.project,
      env: { ...process.env, ...user.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let followed = false;
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr)?.[1];
      if (url !== undefined && !followed) {
        followed = true;
        fetch(url).catch(reject);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The stored state of `remote`, under pi 1.6's key. */
function stored(): Record<string, any> | undefined {
  const file = join(user.agent, "mcp-auth.json");
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8"))[`mcp__remote|${oauth.mcpUrl}`];
}

/** One print-mode run in which the model calls `mcp__remote__whoami`; resolves with the run and the tool result text. */
async function callWhoami(): Promise<{ code: number | null; stderr: string; result: string | undefined }> {
  llm.clearScript();
  const before = llm.requests.length;
  llm.enqueue({ sse: completionsToolCall("call_1", "mcp__remote__whoami", {}) }, { sse: completionsText("done") });
  const run = await user.pi(["-p", "--no-session", "--model", "mock/mock-1", "who am I"]);
  const second = llm.requests[before + 1]?.body;
  const tool = second?.messages?.find((m: any) => m.role === "tool");
  const result = typeof tool?.content === "string" ? tool.content : tool?.content?.map((c: any) => c.text).join("");
  return { code: run.code, stderr: run.stderr, result };
}

describe("MCP OAuth on the built CLI", () => {
  it("before a sign-in the server's failure says to run pi mcp login", async () => {
    const run = await callWhoami();
    expect(run.stderr).toContain('MCP server "remote" failed to start: sign-in required: run "pi mcp login remote"');
    expect(oauth.clients.size).toBe(0);
  });

  it("pi mcp login signs in and stores the tokens as pi 1.6 does; a run then calls the tool", async () => {
    const signIn = await login();
    expect(signIn.stderr).toContain('Open this URL to sign in to MCP server "remote":');
    expect(signIn.stdout).toBe('Signed in to MCP server "remote".\n');
    expect(signIn.code).toBe(0);
    const state = stored()!;
    expect(state.serverUrl).toBe(oauth.mcpUrl);
    expect(oauth.accessTokens.has(state.tokens.access_token)).toBe(true);
    expect(state.tokens.token_type).toBe("Bearer");
    expect(state.clientInformation.client_id).toBe("client-1");
    expect(state.tokensExpireAt).toBeGreaterThan(Date.now());
    expect(state.codeVerifier).toBeUndefined();
    expect(oauth.clients.get("client-1")?.client_name).toBe("pi");

    const run = await callWhoami();
    expect(run.result).toBe("you are signed in");
    expect(run.code).toBe(0);
    expect(oauth.calls.at(-1)!.token).toBe(state.tokens.access_token);
  });

  it("an access token the server no longer accepts is refreshed, and the new tokens are stored", async () => {
    const old = stored()!.tokens;
    oauth.expireAccessTokens();
    const run = await callWhoami();
    expect(run.result).toBe("you are signed in");
    expect(oauth.grants.at(-1)).toBe("refresh_token");
    const fresh = stored()!.tokens;
    expect(fresh.access_token).not.toBe(old.access_token);
    expect(fresh.refresh_token).not.toBe(old.refresh_token);
    expect(oauth.calls.at(-1)!.token).toBe(fresh.access_token);
  });

  it("a revoked refresh token says to run pi mcp login, and a new login works again", async () => {
    oauth.expireAccessTokens();
    oauth.revokeRefreshTokens();
    const run = await callWhoami();
    expect(oauth.grants.at(-1)).toBe("refresh_token:refused");
    expect(run.stderr).toContain('sign-in required: run "pi mcp login remote"');
    expect(run.result).not.toBe("you are signed in");

    const again = await login();
    expect(again.code).toBe(0);
    expect((await callWhoami()).result).toBe("you are signed in");
  });

  it("pi mcp logout deletes the stored sign-in; usage errors exit 2", async () => {
    const out = await user.pi(["mcp", "logout", "remote"]);
    expect(out.stdout).toBe('Signed out of MCP server "remote".\n');
    expect(stored()).toBeUndefined();
    const bad = await user.pi(["mcp", "login"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("Error: usage: pi mcp login <server> [-l] [--timeout <seconds>]\n");
    const unknown = await user.pi(["mcp", "login", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no MCP server "nope" is configured');
  });

  it("--timeout ends a sign-in nobody completes, with pi's words; bad values and -l are refused", async () => {
    const started = await user.pi(["mcp", "login", "remote", "--no-browser", "--timeout", "0.5"]);
    expect(started.code).toBe(1);
    expect(started.stderr).toContain("Open this URL to sign in");
    expect(started.stderr).toContain(
      'Error: sign-in to MCP server "remote" was cancelled or not completed within 0.5 seconds\n',
    );
    for (const value of ["0", "-3", "soon"]) {
      const bad = await user.pi(["mcp", "login", "remote", "--timeout", value]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe(`Error: --timeout must be a positive number of seconds, not ${JSON.stringify(value)}\n`);
    }
    const missing = await user.pi(["mcp", "login", "remote", "--timeout"]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      "Error: --timeout needs a value; usage: pi mcp login <server> [-l] [--timeout <seconds>]\n",
    ]);
    // -l: the server is the user's (~/.pi/agent/mcp.json), not the project's.
    for (const sub of ["login", "logout"]) {
      const local = await user.pi(["mcp", sub, "remote", "-l"]);
      expect(local.code).toBe(1);
      expect(local.stderr).toBe(
        `Error: MCP server "remote" is defined in ${join(user.agent, "mcp.json")}, not in the project; omit --local\n`,
      );
    }
  });

  it("-l signs in to a server of the trusted project's .pi/mcp.json", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(user.project, ".pi"), { recursive: true });
    writeFileSync(
      join(user.project, ".pi", "mcp.json"),
      JSON.stringify({ mcpServers: { projremote: { url: oauth.mcpUrl, exposure: "direct" } } }),
    );
    expect((await user.pi(["trust"])).code).toBe(0);
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [PI_BIN, "mcp", "login", "projremote", "-l", "--no-browser", "--timeout", "30"],
        {
          cwd: user.project,
          env: { ...process.env, ...user.env },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      let followed = false;
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr)?.[1];
        if (url !== undefined && !followed) {
          followed = true;
          fetch(url).catch(reject);
        }
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.stderr).not.toContain("Error");
    expect([run.code, run.stdout]).toEqual([0, 'Signed in to MCP server "projremote".\n']);
  });

  it("a sign-in pi 1.6 stored (its key and fields, no issuer) is used, and refreshed", async () => {
    const tokens = oauth.mint();
    const state = {
      serverUrl: oauth.mcpUrl,
      clientInformation: { client_id: "client-from-pi", redirect_uris: ["http://127.0.0.1:1/callback"] },
      tokens,
      tokensExpireAt: Date.now() + 3_600_000,
    };
    writeFileSync(
      join(user.agent, "mcp-auth.json"),
      `${JSON.stringify({ [`mcp__remote|${oauth.mcpUrl}`]: state }, null, 2)}\n`,
    );
    const run = await callWhoami();
    expect(run.result).toBe("you are signed in");
    expect(oauth.calls.at(-1)!.token).toBe(tokens.access_token);
    oauth.expireAccessTokens();
    expect((await callWhoami()).result).toBe("you are signed in");
    expect(oauth.grants.at(-1)).toBe("refresh_token");
    expect(stored()!.tokens.access_token).not.toBe(tokens.access_token);
    expect(stored()!.clientInformation.client_id).toBe("client-from-pi");
  });
});
