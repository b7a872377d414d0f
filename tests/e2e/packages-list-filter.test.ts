/**
 * `pi list` for a package whose settings entry is in pi's object form (resource filters): the entry is
 * marked `(filtered)` as pi 1.6.0 marks it, and the resources shown are the ones the filter leaves on
 * (globs, `!`, `+path`/`-path`, `[]`), by the same rule start-up loads by; `--json` says the same. The
 * same settings are listed by the real pi 1.6.0 when it is installed, and its lines must be ours.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";
import { agentHome, type AgentHome } from "./agent-home.js";

const SLOW = 60_000;
let user: AgentHome;
let pkg: string;

/** A local package with two extensions, two skills, two prompts and one theme in pi's convention folders. */
function writePackage(root: string): void {
  for (const dir of ["extensions", "skills/alpha", "skills/beta", "prompts", "themes"])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "filter-demo", version: "1.2.3" }));
  writeFileSync(join(root, "extensions", "a.ts"), "export default function () {}\n");
  writeFileSync(join(root, "extensions", "b.ts"), "export default function () {}\n");
  for (const skill of ["alpha", "beta"])
    writeFileSync(join(root, "skills", skill, "SKILL.md"), `---\nname: ${skill}\ndescription: ${skill}\n---\n`);
  writeFileSync(join(root, "prompts", "p1.md"), "one\n");
  writeFileSync(join(root, "prompts", "p2.md"), "two\n");
  writeFileSync(join(root, "themes", "dark-ish.json"), "{}\n");
}

function writeSettings(dir: string, packages: unknown[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ packages }));
}

async function listOk(args: string[] = []): Promise<string> {
  const run = await user.pi(["list", ...args], { env: { PI_OFFLINE: "1" } });
  if (run.code !== 0) throw new Error(`pi list exited ${run.code}:\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

/** The real pi 1.6.0's `pi list` for the same user. */
function pi16List(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI16_NODE, [PI16_CLI, "list"], {
      cwd: user.project,
      env: { ...process.env, ...user.env, PI_OFFLINE: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`pi 1.6.0 list exited ${code}: ${err}`)),
    );
  });
}

beforeEach(() => {
  user = agentHome();
  pkg = join(user.home, "filter-demo");
  writePackage(pkg);
});

describe("pi list shows what a package entry's filter leaves on (built CLI)", () => {
  it(
    "marks the object-form entry (filtered) and lists the resources its globs, ! and +/- paths leave on",
    async () => {
      writeSettings(user.agent, [
        {
          source: pkg,
          extensions: ["extensions/a.ts"],
          skills: ["!skills/beta"],
          prompts: [],
          themes: ["+themes/dark-ish.json"],
        },
        pkg,
      ]);
      const out = await listOk();
      expect(out).toBe(
        [
          `User packages (${join(user.agent, "settings.json")}):`,
          `  ${pkg} (filtered)  (1.2.3)`,
          `    ${pkg}`,
          "    extensions: extensions/a.ts (1 of 2 on)",
          "    skills: skills/alpha (1 of 2 on)",
          "    prompts: none (0 of 2 on)",
          "    themes: themes/dark-ish.json",
          `  ${pkg}  (1.2.3)`,
          `    ${pkg}`,
          "    extensions: extensions",
          "    skills: skills",
          "    prompts: prompts",
          "    themes: themes",
          "",
        ].join("\n"),
      );
      const json = JSON.parse(await listOk(["--json"]));
      expect(json[0]).toMatchObject({
        filtered: true,
        enabled: {
          extensions: [join(pkg, "extensions", "a.ts")],
          skills: [join(pkg, "skills", "alpha", "SKILL.md")],
          prompts: [],
          themes: [join(pkg, "themes", "dark-ish.json")],
        },
      });
      expect(json[1].filtered).toBeUndefined();
      expect(json[1].enabled).toBeUndefined();
    },
    SLOW,
  );

  it(
    "a project entry with autoload false is listed as it loads: the global entry's resources switched by its +/- paths",
    async () => {
      writeSettings(user.agent, [{ source: pkg, skills: ["skills/alpha"] }]);
      writeSettings(join(user.project, ".pi"), [
        { source: pkg, autoload: false, skills: ["+skills/beta", "-skills/alpha"], extensions: ["-extensions/b.ts"] },
      ]);
      const out = await listOk(["--approve"]);
      const project = out.slice(out.indexOf("Project packages"));
      expect(project).toContain(`  ${pkg} (filtered)  (1.2.3)\n`);
      expect(project).toContain("    extensions: extensions/a.ts (1 of 2 on)\n");
      expect(project).toContain("    skills: skills/beta (1 of 2 on)\n");
      expect(project).toContain("    prompts: prompts\n");
      const global = out.slice(0, out.indexOf("Project packages"));
      expect(global).toContain("    skills: skills/alpha (1 of 2 on)\n");
      expect(global).toContain("    extensions: extensions\n");
    },
    SLOW,
  );

  it.skipIf(pi16Missing !== undefined)(
    "names and marks the same entries as pi 1.6.0's own pi list",
    async () => {
      writeSettings(user.agent, [{ source: pkg, extensions: ["!extensions/b.ts"] }, pkg]);
      const ours = (await listOk())
        .split("\n")
        .filter((line) => line.startsWith("  ") && !line.startsWith("    "))
        .map((line) => line.replace(/ {2}\(1\.2\.3\)$/, ""));
      const theirs = (await pi16List())
        .replace(/\x1b\[[0-9;]*m/g, "")
        .split("\n")
        .filter((line) => line.startsWith("  ") && !line.startsWith("    "));
      expect(theirs).toEqual([`  ${pkg} (filtered)`, `  ${pkg}`]);
      expect(ours).toEqual(theirs);
    },
    SLOW,
  );
});
