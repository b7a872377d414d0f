/**
 * `pi --export` as a user runs it (the built CLI, a spawned process), next to pi 1.6.0 on the same
 * session file: the same output name and printed line, the same exit code and error line for a missing
 * or foreign file, nothing written then, and the session file left byte for byte as it was. The pi 1.6.0
 * half skips with the install command when it is not installed.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";
import { runPi } from "./run-pi.js";

const FIXTURE = new URL("../fixtures/sessions/branched.jsonl", import.meta.url).pathname;
if (pi16Missing !== undefined) console.log(`[skip] pi 1.6.0 side of --export: ${pi16Missing}`);

/** A fresh folder holding a copy of the fixture session. */
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-export-"));
  copyFileSync(FIXTURE, join(dir, "branched.jsonl"));
  writeFileSync(join(dir, "foreign.jsonl"), '{"a":1}\n');
  return dir;
}

function runPi16(args: string[], cwd: string) {
  const r = spawnSync(PI16_NODE, [PI16_CLI, ...args], { cwd, env: { ...process.env, HOME: cwd }, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("pi --export", () => {
  it("writes pi-session-<name>.html in the folder and prints pi's line; the session file is unchanged", async () => {
    const dir = workdir();
    const r = await runPi(["--export", "branched.jsonl"], { cwd: dir, env: { HOME: dir } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Exported to: pi-session-branched.html\n");
    const html = readFileSync(join(dir, "pi-session-branched.html"), "utf8");
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("You are welcome.");
    expect(html).toContain("Tool call: bash");
    expect(readFileSync(join(dir, "branched.jsonl"), "utf8")).toBe(readFileSync(FIXTURE, "utf8"));
  });

  it("writes to the output given, and the active branch as JSONL for a .jsonl output", async () => {
    const dir = workdir();
    const html = await runPi(["--export", "branched.jsonl", "out/page.html"], { cwd: dir, env: { HOME: dir } });
    expect(html.stdout).toBe("Exported to: out/page.html\n");
    expect(statSync(join(dir, "out/page.html")).size).toBeGreaterThan(1000);
    const jsonl = await runPi(["--export", "branched.jsonl", "branch.jsonl"], { cwd: dir, env: { HOME: dir } });
    expect(jsonl.stdout).toBe(`Exported to: ${join(dir, "branch.jsonl")}\n`);
    const ids = readFileSync(join(dir, "branch.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(15);
    expect(ids).not.toContain("a0000007");
  });

  it("refuses a missing file and a file that is not a session: one line, exit 1, nothing written", async () => {
    const dir = workdir();
    const missing = await runPi(["--export", "nope.jsonl"], { cwd: dir, env: { HOME: dir } });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe(`Error: File not found: ${join(dir, "nope.jsonl")}\n`);
    const foreign = await runPi(["--export", "foreign.jsonl", "x.html"], { cwd: dir, env: { HOME: dir } });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toBe(`Error: Session file is not a valid pi session: ${join(dir, "foreign.jsonl")}\n`);
    expect(readdirSync(dir).sort()).toEqual(["branched.jsonl", "foreign.jsonl"]);
  });

  it.skipIf(pi16Missing !== undefined)(
    "prints what pi 1.6.0 prints and names the file as it does",
    async () => {
      const ours = workdir();
      const theirs = workdir();
      for (const args of [
        ["--export", "branched.jsonl"],
        ["--export", "branched.jsonl", "named.html"],
        ["--export", "nope.jsonl"],
        ["--export", "foreign.jsonl"],
      ]) {
        const a = await runPi(args, { cwd: ours, env: { HOME: ours } });
        const b = runPi16(args, theirs);
        expect(a.code).toBe(b.code);
        expect(a.stdout).toBe(b.stdout);
        expect(a.stderr.replaceAll(ours, "<dir>")).toBe(b.stderr.replaceAll(theirs, "<dir>"));
      }
      expect(readdirSync(ours).sort()).toEqual(readdirSync(theirs).sort());
      expect(existsSync(join(ours, "pi-session-branched.html"))).toBe(true);
    },
    240_000,
  );
});
