/**
 * Trust vectors of the package commands on the built CLI. A cloned project can list packages in its
 * `.pi/settings.json` and set `npmCommand` there; both are code the repository chose. In an untrusted
 * project `pi list`, a global `pi install` and `pi update` must run none of it: the project package's
 * plugin module and extension touch a marker when evaluated, and the project's npmCommand touches one
 * when run. With `--approve` (one command) or after `pi trust` the project's settings apply.
 * npm is a scripted stand-in (tests/fixtures/packages/fake-npm.mjs) set in the GLOBAL npmCommand.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { writeFixturePackage } from "../fixtures/packages/fixture-package.js";
import { agentHome, type AgentHome } from "../e2e/agent-home.js";
import type { PiRun } from "../e2e/run-pi.js";

const FAKE_NPM = fileURLToPath(new URL("../fixtures/packages/fake-npm.mjs", import.meta.url));
/** Each test starts pi several times; two shared cores make a start take a second or two. */
const SLOW = 120_000;

let user: AgentHome;
/** Touched when the project package's plugin module is evaluated. */
let pluginMarker: string;
/** Touched when the project package's extension is evaluated. */
let extensionMarker: string;
/** Touched when the project's npmCommand runs. */
let npmMarker: string;

beforeEach(() => {
  user = agentHome();
  const registry = join(user.home, "fake-registry");
  mkdirSync(join(registry, "pi-fixture-greeter", "1.0.0"), { recursive: true });
  writeFixturePackage(
    "greeter",
    { name: "pi-fixture-greeter", version: "1.0.0" },
    join(registry, "pi-fixture-greeter", "1.0.0"),
  );
  writeFileSync(
    join(user.agent, "settings.json"),
    JSON.stringify({ npmCommand: [process.execPath, FAKE_NPM, `--root=${registry}`] }),
  );

  pluginMarker = join(user.home, "plugin-evaluated");
  extensionMarker = join(user.home, "extension-evaluated");
  npmMarker = join(user.home, "project-npm-ran");
  // A package the project vendors: a plugin and an extension that each leave a mark when evaluated.
  const evil = join(user.project, "vendor", "evil");
  mkdirSync(join(evil, "plugin"), { recursive: true });
  writeFileSync(
    join(evil, "package.json"),
    JSON.stringify({
      name: "evil",
      version: "1.0.0",
      type: "module",
      pi: { plugins: ["./plugin"], extensions: ["./extension.ts"] },
    }),
  );
  writeFileSync(
    join(evil, "plugin", "index.ts"),
    `import { writeFileSync } from "node:fs";\nimport { definePlugin } from "pi-host";\nwriteFileSync(${JSON.stringify(pluginMarker)}, "evaluated\\n");\nexport default definePlugin({ id: "evil-plugin", version: "1.0.0", setup() {} });\n`,
  );
  writeFileSync(
    join(evil, "extension.ts"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(extensionMarker)}, "evaluated\\n");\nexport default function () {}\n`,
  );
  // An npm package the project installed, so that `pi update` has a project package to check.
  mkdirSync(join(user.project, ".pi", "npm", "proj-dep"), { recursive: true });
  writeFileSync(
    join(user.project, ".pi", "npm", "proj-dep", "package.json"),
    JSON.stringify({ name: "proj-dep", version: "1.0.0" }),
  );
  const projectNpm = join(user.home, "project-npm.mjs");
  writeFileSync(
    projectNpm,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(npmMarker)}, "ran\\n");\nprocess.stderr.write("project npm ran\\n");\nprocess.exit(1);\n`,
  );
  writeFileSync(
    join(user.project, ".pi", "settings.json"),
    JSON.stringify({ packages: ["npm:proj-dep", "../vendor/evil"], npmCommand: [process.execPath, projectNpm] }),
  );
});

function expectNothingRan(): void {
  expect({
    plugin: existsSync(pluginMarker),
    extension: existsSync(extensionMarker),
    npm: existsSync(npmMarker),
  }).toEqual({ plugin: false, extension: false, npm: false });
}

async function piOk(args: string[]): Promise<PiRun> {
  const run = await user.pi(args);
  if (run.code !== 0) throw new Error(`pi ${args.join(" ")} exited ${run.code}:\n${run.stderr}${run.stdout}`);
  return run;
}

describe("package commands in an untrusted project", () => {
  it(
    "pi list, a global pi install, a project install and pi update run none of the project's code or commands",
    async () => {
      const list = await piOk(["list"]);
      expect(list.stdout).toContain("evil-plugin (plugin)"); // the id, read without running the module
      expect(list.stdout).toContain(
        `Project packages (${join(user.project, ".pi", "settings.json")}):\n  (not used: this project is not trusted; run "pi trust" here, or pass --approve)\n`,
      );
      expect(list.stdout).toContain("extensions: extension.ts");
      expectNothingRan();

      const install = await piOk(["install", "npm:pi-fixture-greeter"]);
      expect(install.stdout).toContain("Installed npm:pi-fixture-greeter 1.0.0 (global)");
      expect(JSON.parse(readFileSync(join(user.agent, "settings.json"), "utf8")).packages).toEqual([
        "npm:pi-fixture-greeter",
      ]);
      expectNothingRan();

      const local = await piOk(["install", "npm:pi-fixture-greeter", "-l"]);
      expect(local.stdout).toContain("Installed npm:pi-fixture-greeter 1.0.0 (project)");
      expectNothingRan();

      const update = await piOk(["update", "--extensions"]);
      expect(update.stderr).toContain("Current npm:pi-fixture-greeter is at the newest 1.0.0");
      expect(update.stderr).toContain(
        `skipping the 3 package(s) of ${join(user.project, ".pi", "settings.json")}: this project is not trusted`,
      );
      expectNothingRan();

      // Start-up: the project's packages (plugin, extension, skills) stay off, with one notice.
      user.scriptFaux([{ content: "hi" }]);
      const run = await piOk(["-p", "--model", "faux/faux-1", "hello"]);
      expect(run.stderr).toContain(
        `skipped project resources in ${user.project} (.pi/settings.json): the project is not trusted`,
      );
      expectNothingRan();
    },
    SLOW,
  );

  it(
    "--approve applies the project's packages and npmCommand for that one command",
    async () => {
      const approved = await piOk(["list", "-a"]);
      expect(approved.stdout).toContain("evil-plugin (plugin)");
      expect(approved.stdout).not.toContain("not used");
      expect(existsSync(pluginMarker)).toBe(true);

      const update = await user.pi(["update", "--extensions", "--approve"]);
      expect(update.code).toBe(1);
      expect(update.stderr).toContain("project npm ran");
      expect(existsSync(npmMarker)).toBe(true);

      // A global install never uses the project's npmCommand, trusted or not.
      const { rmSync } = await import("node:fs");
      rmSync(npmMarker);
      await piOk(["install", "npm:pi-fixture-greeter", "--approve"]);
      expect(existsSync(npmMarker)).toBe(false);
    },
    SLOW,
  );

  it(
    "after pi trust the project's packages run: its extension loads at start-up and update uses its npmCommand",
    async () => {
      await piOk(["trust"]);
      user.scriptFaux([{ content: "hi" }]);
      await piOk(["-p", "--model", "faux/faux-1", "hello"]);
      expect(existsSync(pluginMarker)).toBe(true);
      expect(existsSync(extensionMarker)).toBe(true);
      // -na (pi's --no-approve) sets the trust aside for one command.
      await piOk(["update", "--extensions", "-na"]);
      expect(existsSync(npmMarker)).toBe(false);
      const update = await user.pi(["update", "--extensions"]);
      expect(update.code).toBe(1);
      expect(existsSync(npmMarker)).toBe(true);
    },
    SLOW,
  );
});
