import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthContract } from "../../contracts/ai/index.js";
import { Kernel } from "../schema-kernel.js";
import type { CatalogData } from "../../kit/ai/models-dev.js";
import { TEXT_ANSWER } from "../fixtures/sse/anthropic-messages/text.js";
import { textStream as completionsText } from "../fixtures/sse/openai-completions/text.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { OAuthTestServer } from "../support/oauth-server.js";
import { PI16_PROVIDERS } from "../plugins/models/pi16-providers.js";
import { runPi } from "./run-pi.js";

const BUILT_AUTH = fileURLToPath(new URL("../../dist/plugins/auth/index.js", import.meta.url));
const SHIPPED_CATALOG = fileURLToPath(new URL("../../plugins/ai/models/builtin-catalog.json", import.meta.url));

/** The data rows of the table, each split into its columns. */
function rows(stdout: string): string[][] {
  const lines = stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^provider\s+model\s+context\s+max-out\s+thinking\s+images\s+key$/);
  return lines.slice(1).map((line) => line.split(/\s{2,}/));
}
const row = (stdout: string, provider: string, model: string): string[] | undefined =>
  rows(stdout).find((r) => r[0] === provider && r[1] === model);

describe("pi --list-models (built CLI)", () => {
  let home: string;
  let agent: string;
  let env: Record<string, string>;
  let server: MockLlmServer;

  beforeAll(async () => {
    server = await new MockLlmServer().start();
  });
  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "pi-models-e2e-"));
    agent = join(home, "agent");
    mkdirSync(agent, { recursive: true });
    // A clean slate: no keys leak in from the machine running the tests ("" counts as unset).
    env = {
      PI_CODING_AGENT_DIR: agent,
      HOME: home,
      ANTHROPIC_API_KEY: "",
      OPENAI_API_KEY: "",
      GEMINI_API_KEY: "",
      GOOGLE_API_KEY: "",
      GROQ_API_KEY: "",
    };
  });

  it("lists the built-in models with context, output limit, thinking, images and key source", async () => {
    const run = await runPi(["--list-models"], { cwd: home, env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(row(run.stdout, "anthropic", "claude-sonnet-4-5")).toEqual([
      "anthropic",
      "claude-sonnet-4-5",
      "200K",
      "64K",
      "yes",
      "yes",
      "none",
    ]);
    expect(row(run.stdout, "anthropic", "claude-opus-4-7")).toEqual([
      "anthropic",
      "claude-opus-4-7",
      "1M",
      "128K",
      "yes",
      "yes",
      "none",
    ]);
    expect(row(run.stdout, "openai", "gpt-4.1")).toEqual(["openai", "gpt-4.1", "1.0M", "32.8K", "no", "yes", "none"]);
    expect(row(run.stdout, "google", "gemini-2.5-pro")).toEqual([
      "google",
      "gemini-2.5-pro",
      "1.0M",
      "65.5K",
      "yes",
      "yes",
      "none",
    ]);
    const providers = rows(run.stdout).map((r) => r[0]);
    // Every provider pi 1.6.0 names that the models.dev data has chat models for.
    const catalog = JSON.parse(readFileSync(SHIPPED_CATALOG, "utf8")) as CatalogData;
    const withModels = catalog.providers.filter((p) => p.models.length > 0).map((p) => p.id);
    expect(withModels.length).toBeGreaterThan(20);
    expect(withModels.every((p) => PI16_PROVIDERS.includes(p))).toBe(true);
    expect([...new Set(providers)]).toEqual(withModels);
    expect(row(run.stdout, "groq", "openai/gpt-oss-120b")?.[6]).toBe("none");
    expect(providers).toEqual([...providers].sort()); // sorted by provider, like pi
  });

  it("filters with a search term, and an unknown one prints one line with the closest matches and exits 1", async () => {
    const sonnet = await runPi(["--list-models", "sonnet"], { cwd: home, env });
    expect(sonnet.code).toBe(0);
    const found = rows(sonnet.stdout);
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found.every((r) => r[1]!.toLowerCase().includes("sonnet"))).toBe(true);
    expect(found.some((r) => r[0] === "anthropic" && r[1] === "claude-sonnet-4-6")).toBe(true);

    const scoped = await runPi(["--list-models", "mini", "--provider", "openai"], { cwd: home, env });
    expect(scoped.code).toBe(0);
    expect(rows(scoped.stdout).every((r) => r[0] === "openai" && r[1]!.includes("mini"))).toBe(true);

    const typo = await runPi(["--list-models", "claude-sonet-4"], { cwd: home, env });
    expect(typo.code).toBe(1);
    expect(typo.stdout).toBe("");
    expect(typo.stderr.trim().split("\n")).toHaveLength(1);
    expect(typo.stderr).toMatch(/^pi: unknown model "claude-sonet-4": did you mean \S+\/claude-sonnet-4/);

    const provider = await runPi(["--list-models", "--provider", "antropic"], { cwd: home, env });
    expect(provider.code).toBe(1);
    expect(provider.stderr.trim()).toBe(`pi: unknown provider "antropic": did you mean anthropic?`);
  });

  it("--model sonnet runs Anthropic's newest Sonnet in the data, by pi 1.6.0's rule", async () => {
    writeFileSync(join(agent, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: server.url } } }));
    server.requests.length = 0;
    server.enqueue({ sse: TEXT_ANSWER });
    const run = await runPi(["-p", "--no-session", "--model", "sonnet", "hello"], {
      cwd: home,
      env: { ...env, ANTHROPIC_API_KEY: "sk-ant-test" },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("Hello, world! How can I help?\n");
    expect(server.requests[0]!.body.model).toBe("claude-sonnet-4-6");
    server.requests.length = 0;
  });

  it("an OpenAI-compatible built-in provider runs through Chat Completions with only its key variable set", async () => {
    // Only the base URL moves to the local server; api, model and compat come from the catalog.
    writeFileSync(join(agent, "models.json"), JSON.stringify({ providers: { groq: { baseUrl: `${server.url}/v1` } } }));
    server.requests.length = 0;
    server.enqueue({ sse: completionsText });
    const run = await runPi(["-p", "--no-session", "--model", "groq/openai/gpt-oss-120b", "hello"], {
      cwd: home,
      env: { ...env, GROQ_API_KEY: "gsk-test" },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("Hello! How can I help you today?\n");
    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer gsk-test");
    const body = request.body as Record<string, unknown>;
    server.requests.length = 0;
    expect(body.model).toBe("openai/gpt-oss-120b");
    expect(body).not.toHaveProperty("store");
    expect((body.messages as Array<{ role: string }>)[0]!.role).toBe("system");
  });

  it("lists pi 1.6's Kimi For Coding models, and a Kimi Code sign-in runs one over Chat Completions", async () => {
    const list = await runPi(["--list-models", "kimi"], { cwd: home, env });
    expect(list.code).toBe(0);
    const kimi = rows(list.stdout).filter((r) => r[0] === "kimi-coding");
    expect(kimi.map((r) => r[1])).toEqual([
      "k3",
      "k3-256k",
      "k3.1-pro",
      "k3.1-pro-highspeed",
      "kimi-for-coding",
      "kimi-for-coding-highspeed",
    ]);
    expect(row(list.stdout, "kimi-coding", "kimi-for-coding")).toEqual([
      "kimi-coding",
      "kimi-for-coding",
      "1.0M",
      "32.8K",
      "yes",
      "yes",
      "none",
    ]);
    const signIn = await new OAuthTestServer().start();
    try {
      const access = "kimi-access-live";
      signIn.validAccess.add(access);
      writeFileSync(
        join(agent, "auth.json"),
        JSON.stringify({ "kimi-coding": { type: "oauth", refresh: "r", access, expires: Date.now() + 3_600_000 } }),
        { mode: 0o600 },
      );
      writeFileSync(
        join(agent, "models.json"),
        JSON.stringify({ providers: { "kimi-coding": { baseUrl: signIn.url } } }),
      );
      const run = await runPi(["-p", "--no-session", "--model", "kimi-coding/kimi-for-coding", "hi"], {
        cwd: home,
        env,
      });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("hello from chat completions\n");
      const call = signIn.requests.find((r) => r.path === "/chat/completions")!;
      expect(call.headers.authorization).toBe(`Bearer ${access}`);
      expect(call.body).toMatchObject({ model: "kimi-for-coding", stream: true });
    } finally {
      await signIn.close();
    }
  });

  it("a built-in provider whose wire protocol has no plugin says so when used", async () => {
    const run = await runPi(["-p", "--no-session", "--model", "github-copilot/claude-3.7-sonnet", "hi"], {
      cwd: home,
      env: { ...env, COPILOT_GITHUB_TOKEN: "t" },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/no provider plugin speaks "github-copilot"/);
  });

  it("shows a models.json custom provider's models, and listing contacts no server", async () => {
    writeFileSync(
      join(agent, "models.json"),
      JSON.stringify({
        providers: {
          local: {
            baseUrl: `${server.url}/v1`,
            api: "openai-completions",
            apiKey: "LOCAL_LLM_KEY",
            models: [
              { id: "qwen3-coder:30b", reasoning: true, contextWindow: 262144, maxTokens: 32768 },
              { id: "llama3.1:8b" },
            ],
          },
        },
      }),
    );
    const run = await runPi(["--list-models"], { cwd: home, env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(row(run.stdout, "local", "qwen3-coder:30b")).toEqual([
      "local",
      "qwen3-coder:30b",
      "262.1K",
      "32.8K",
      "yes",
      "no",
      "models.json",
    ]);
    expect(row(run.stdout, "local", "llama3.1:8b")).toEqual([
      "local",
      "llama3.1:8b",
      "128K",
      "16.4K",
      "no",
      "no",
      "models.json",
    ]);
    expect(row(run.stdout, "anthropic", "claude-sonnet-4-5")).toBeDefined();
    const search = await runPi(["--list-models", "local"], { cwd: home, env });
    expect(rows(search.stdout).map((r) => r[1])).toEqual(["llama3.1:8b", "qwen3-coder:30b"]);
    expect(server.requests).toEqual([]);
  });

  it("shows auth precedence in the key column: env, then auth.json, then --api-key", async () => {
    const keyOf = async (args: string[], extraEnv: Record<string, string> = {}): Promise<Record<string, string>> => {
      const run = await runPi(["--list-models", "claude-haiku-4-5", ...args], {
        cwd: home,
        env: { ...env, ...extraEnv },
      });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      return Object.fromEntries(rows(run.stdout).map((r) => [r[1]!, r[6]!]));
    };
    expect((await keyOf([]))["claude-haiku-4-5"]).toBe("none");
    expect((await keyOf([], { ANTHROPIC_API_KEY: "sk-env" }))["claude-haiku-4-5"]).toBe("env ANTHROPIC_API_KEY");

    writeFileSync(join(agent, "auth.json"), JSON.stringify({ anthropic: { type: "api_key", key: "sk-auth" } }));
    expect((await keyOf([], { ANTHROPIC_API_KEY: "sk-env" }))["claude-haiku-4-5"]).toBe("auth.json");
    expect((await keyOf(["--api-key", "sk-flag"], { ANTHROPIC_API_KEY: "sk-env" }))["claude-haiku-4-5"]).toBe("flag");
    // With --provider, the flag's key is for that provider only (and the listing shows only its models).
    const openai = await runPi(["--list-models", "gpt-5.1", "--provider", "openai", "--api-key", "sk-flag"], {
      cwd: home,
      env,
    });
    expect(openai.code).toBe(0);
    expect(rows(openai.stdout).length).toBeGreaterThan(0);
    expect(rows(openai.stdout).every((r) => r[0] === "openai" && r[6] === "flag")).toBe(true);
  });

  it("reads the auth.json that setApiKey wrote with mode 0600", async () => {
    const kernel = new Kernel();
    const definition = (await import(pathToFileURL(BUILT_AUTH).href)).default;
    const boot = await kernel.boot([
      { id: "auth", source: { kind: "inline", label: "auth", definition }, config: { agentDir: agent } },
    ]);
    expect(boot.errors).toEqual([]);
    await kernel.use(AuthContract).call("setApiKey", "google", "g-key");
    await kernel.shutdown();
    const file = join(agent, "auth.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ google: { type: "api_key", key: "g-key" } });
    const run = await runPi(["--list-models", "gemini-2.5-pro"], {
      cwd: home,
      env: { ...env, GEMINI_API_KEY: "from-env" },
    });
    expect(run.code).toBe(0);
    expect(row(run.stdout, "google", "gemini-2.5-pro")![6]).toBe("auth.json");
  });

  it("a bad models.json is one line naming the file and the field, exit 2", async () => {
    const file = join(agent, "models.json");
    writeFileSync(
      file,
      JSON.stringify({
        providers: {
          local: {
            baseUrl: server.url,
            api: "openai-completions",
            apiKey: "k",
            models: [{ id: "m", contextWindow: "large" }],
          },
        },
      }),
    );
    const run = await runPi(["--list-models"], { cwd: home, env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`pi: ${file}: providers.local.models[0].contextWindow: expected integer`);

    writeFileSync(file, "{ not json");
    const broken = await runPi(["--list-models", "sonnet"], { cwd: home, env });
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim().split("\n")).toHaveLength(1);
    expect(broken.stderr).toContain(`pi: ${file}: not valid JSON`);
  });

  it("rejects flag misuse with one line and exit 2, and says when --api-key has no auth plugin to go to", async () => {
    const empty = await runPi(["--list-models", "--api-key", ""], { cwd: home, env });
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim()).toBe("pi: --api-key is empty; give the key");
    const extra = await runPi(["--list-models", "sonnet", "opus"], { cwd: home, env });
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain(`--list-models takes one search term`);
    const noAuth = await runPi(["--list-models", "gpt-5.1", "--no-plugin", "auth", "--api-key", "k"], {
      cwd: home,
      env,
    });
    expect(noAuth.code).toBe(0);
    expect(noAuth.stderr.trim()).toBe(`pi: --api-key has no effect: no enabled plugin provides "auth"`);
    expect(rows(noAuth.stdout).every((r) => r[6] === "none")).toBe(true);
  });

  it("documents the flags in --help", async () => {
    const help = await runPi(["--help"], { env });
    expect(help.code).toBe(0);
    for (const flag of ["--list-models [search]", "--provider <name>", "--api-key <key>"])
      expect(help.stdout).toContain(flag);
  });
});
