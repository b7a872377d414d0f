import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPi } from "./run-pi.js";

/** models.dev's api.json shape, with one new Groq model. */
const GOOD = JSON.stringify({
  groq: {
    id: "groq",
    name: "Groq",
    env: ["GROQ_API_KEY"],
    models: {
      "fresh-model-1": {
        id: "fresh-model-1",
        name: "Fresh Model 1",
        tool_call: true,
        reasoning: true,
        modalities: { input: ["text"], output: ["text"] },
        cost: { input: 0.1, output: 0.2 },
        limit: { context: 262144, output: 32768 },
      },
    },
  },
});

describe("pi update --models (built CLI, local server)", () => {
  let server: Server;
  let base: string;
  /** A port on 127.0.0.1 that nothing listens on. */
  let closedPort: number;
  let home: string;
  let agent: string;
  let env: Record<string, string>;
  const bodies: Record<string, string> = { "/good.json": GOOD, "/malformed.json": '{"groq": {"models": [1]}}' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = bodies[req.url ?? ""];
      if (body === undefined) {
        res.writeHead(404).end("not found");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "pi-update-models-"));
    agent = join(home, "agent");
    mkdirSync(agent, { recursive: true });
    env = { PI_CODING_AGENT_DIR: agent, HOME: home, GROQ_API_KEY: "" };
  });

  const update = (url: string) => runPi(["update", "--models"], { cwd: home, env: { ...env, PI_MODELS_DEV_URL: url } });

  it("saves models.dev data in the agent folder, and --list-models then shows the refreshed catalog", async () => {
    const before = await runPi(["--list-models", "fresh-model"], { cwd: home, env });
    expect(before.code).toBe(1);
    const run = await update(`${base}/good.json`);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `Updated the model catalog from ${base}/good.json: 1 providers, 1 models in ${join(agent, "models-dev.json")}\n`,
    );
    expect(readFileSync(join(agent, "models-dev.json"), "utf8")).toBe(GOOD);
    const after = await runPi(["--list-models", "fresh-model"], { cwd: home, env });
    expect(after.stderr).toBe("");
    expect(after.stdout).toMatch(/\ngroq\s+fresh-model-1\s+262.1K\s+32.8K\s+yes\s+no\s+none\n/);
    // The overlay's own models are still there.
    const opus = await runPi(["--list-models", "claude-opus-4-7"], { cwd: home, env });
    expect(opus.stdout).toContain("anthropic");
  });

  for (const [what, url, message] of [
    ["a malformed download", "/malformed.json", /not models\.dev data \(provider "groq" has no "models" object\)/],
    ["an HTTP error", "/missing.json", /cannot download .* \(HTTP 404 Not Found\)/],
    ["an unreachable server", "closed", /cannot download http:\/\/127\.0\.0\.1:\d+\/api\.json \(ECONNREFUSED\)/],
  ] as const) {
    it(`leaves the old file untouched and prints one line on ${what}`, async () => {
      writeFileSync(join(agent, "models-dev.json"), GOOD);
      const run = await update(url === "closed" ? `http://127.0.0.1:${closedPort}/api.json` : `${base}${url}`);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(/the model catalog is unchanged\n$/);
      expect(readFileSync(join(agent, "models-dev.json"), "utf8")).toBe(GOOD);
    });
  }

  it("writes nothing when there was no file and the download fails", async () => {
    const run = await update(`${base}/malformed.json`);
    expect(run.code).toBe(1);
    expect(existsSync(join(agent, "models-dev.json"))).toBe(false);
  });

  it("takes nothing besides --models", async () => {
    const run = await runPi(["update", "--models", "npm:x"], { cwd: home, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--models cannot be combined with a positional source");
  });
});
