import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { runPi } from "./run-pi.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/plugins/", import.meta.url));
/** The ids of the package's default distribution, which every run includes. */
const DEFAULT_IDS = (
  JSON.parse(readFileSync(fileURLToPath(new URL("../../plugins.json", import.meta.url)), "utf8")) as {
    plugins: Array<{ id: string }>;
  }
).plugins.map((p) => p.id);

describe("pi plugins (built CLI)", () => {
  let home: string;
  let agent: string;
  let project: string;
  let env: Record<string, string>;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "pi-e2e-"));
    agent = join(home, "agent");
    project = join(home, "project");
    mkdirSync(agent, { recursive: true });
    mkdirSync(project, { recursive: true });
    env = { PI_CODING_AGENT_DIR: agent, HOME: home };
    // The user's distribution adds three plugins on top of the package default.
    writeFileSync(
      join(agent, "plugins.json"),
      JSON.stringify({
        plugins: [
          { id: "hello", use: join(FIXTURES, "hello.ts") },
          { id: "shout", use: join(FIXTURES, "shout.ts"), config: { times: 1 } },
          { id: "quiet", use: join(FIXTURES, "quiet.ts") },
        ],
      }),
    );
  });

  it("prints --version and --help fast paths", async () => {
    const version = await runPi(["--version"], { env });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await runPi(["--help"], { env });
    expect(help.code).toBe(0);
    for (const flag of ["--plugin", "--no-plugin", "--distribution", "plugins"]) expect(help.stdout).toContain(flag);
  });

  it("a custom distribution replaces one plugin, disables one and reconfigures one", async () => {
    const custom = join(project, "custom.json");
    writeFileSync(
      custom,
      JSON.stringify([
        { id: "hello", use: join(FIXTURES, "hello-v2.ts") },
        { id: "quiet", enabled: false },
        { id: "shout", config: { times: 3 } },
      ]),
    );
    const run = await runPi(["plugins", "--json", "--distribution", custom], { cwd: project, env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const plugins = JSON.parse(run.stdout) as Array<Record<string, any>>;
    const byId = Object.fromEntries(plugins.map((p) => [p.id, p]));
    // The package's own plugins, then the user's three.
    expect(Object.keys(byId).sort()).toEqual([...DEFAULT_IDS, "hello", "quiet", "shout"].sort());
    expect(byId.hello).toMatchObject({
      version: "2.0.0",
      status: "active",
      generation: 1,
      source: join(FIXTURES, "hello-v2.ts"),
    });
    expect(byId.hello.provides).toEqual([{ contract: "fixture/greeting", version: "1.0.0", key: "0" }]);
    expect(byId.quiet).toMatchObject({ status: "disabled", generation: null, version: null });
    expect(byId.shout).toMatchObject({ status: "active", version: "1.0.0", config: { times: 3 } });

    // The same overlay through flags, and the human table.
    const flags = await runPi(
      ["plugins", "--plugin", `hello=${join(FIXTURES, "hello-v2.ts")}`, "--no-plugin", "quiet"],
      { cwd: project, env },
    );
    expect(flags.code).toBe(0);
    expect(flags.stdout).toMatch(/^ID\s+VERSION\s+STATUS\s+GEN\s+PROVIDES\s+SOURCE/);
    expect(flags.stdout).toMatch(/hello\s+2\.0\.0\s+active\s+1\s+fixture\/greeting@1\.0\.0/);
    expect(flags.stdout).toMatch(/quiet\s+-\s+disabled/);
  });

  it("applies a project's .pi/plugins.json only once the project is trusted", async () => {
    mkdirSync(join(project, ".pi"));
    writeFileSync(join(project, ".pi", "plugins.json"), JSON.stringify([{ id: "shout", enabled: false }]));
    const untrusted = await runPi(["plugins", "--json"], { cwd: project, env });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain("not trusted");
    expect(JSON.parse(untrusted.stdout).find((p: any) => p.id === "shout").status).toBe("active");
    expect((await runPi(["trust"], { cwd: project, env })).code).toBe(0);
    const trusted = await runPi(["plugins", "--json"], { cwd: project, env });
    expect(trusted.stderr).toBe("");
    expect(JSON.parse(trusted.stdout).find((p: any) => p.id === "shout").status).toBe("disabled");
  });

  describe("bad input: one line naming file, entry and field; exit 2; nothing started", () => {
    it("a plugins.json that is not JSON", async () => {
      const bad = join(project, "bad.json");
      writeFileSync(bad, "{ plugins: [");
      const run = await runPi(["plugins", "--distribution", bad], { cwd: project, env });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(bad);
      expect(run.stderr).toContain("not valid JSON");
    });

    it("an entry naming an unknown plugin", async () => {
      const bad = join(project, "unknown.json");
      writeFileSync(bad, JSON.stringify([{ id: "ghost", use: "no-such-plugin" }]));
      const run = await runPi(["plugins", "--distribution", bad], { cwd: project, env });
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(`${bad}: entry "ghost": use: unknown plugin "no-such-plugin"`);
    });

    it("an entry whose config fails the plugin's schema, before any plugin starts", async () => {
      const marker = join(home, "started");
      const bad = join(project, "config.json");
      writeFileSync(
        bad,
        JSON.stringify([
          { id: "hello", config: { marker } },
          { id: "shout", config: { times: "loud" } },
        ]),
      );
      const run = await runPi(["plugins", "--distribution", bad], { cwd: project, env });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(
        new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: entry "shout": config\\.times: Expected integer`),
      );
      expect(existsSync(marker)).toBe(false);

      // Control: with valid config the same plugin does start, so the marker check above can fail.
      writeFileSync(bad, JSON.stringify([{ id: "hello", config: { marker } }]));
      const good = await runPi(["plugins", "--distribution", bad], { cwd: project, env });
      expect(good.code).toBe(0);
      expect(existsSync(marker)).toBe(true);
    });

    it("an unknown flag", async () => {
      const run = await runPi(["plugins", "--frobnicate"], { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--frobnicate");
    });
  });
});
