/**
 * Installed packages feeding the distribution (hosts/packages.ts through hosts/compose.ts): a package
 * plugin becomes an entry under its own id (replacing a built-in of that id), a package's plugins.json
 * applies as an overlay, `npm:`/`git:` uses resolve to the installed package's plugin, skills,
 * prompt templates and extensions reach plugins through the host environment (the resources plugin
 * finds them with a package origin), project
 * packages run code only in a trusted project, and the layer sits between the user's and the project's.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { resolveDistribution } from "../../../hosts/compose.js";
import { trustProject } from "../../../hosts/trust.js";
import { writeFixturePackage } from "../../fixtures/packages/fixture-package.js";
import { bootResources, makeWorld } from "../resources/harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

let agentDir: string;
let cwd: string;

/** Resolves the distribution for this test's agent folder and project. */
const resolve = () =>
  resolveDistribution({
    cwd,
    agentDir,
    defaultFile: join(ROOT, "plugins.json"),
    builtinDir: join(ROOT, "dist", "plugins"),
  });

/** Writes a settings.json `packages` list (global, or the project's). */
function packagesSetting(packages: unknown[], scope: "global" | "project" = "global"): void {
  const dir = scope === "global" ? agentDir : join(cwd, ".pi");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ packages }));
}

/** An npm package as `pi install` leaves it: a folder under <agent>/npm/<name>. */
function installedNpm(name: string, template: "greeter" | "fake-bash"): string {
  const dir = join(agentDir, "npm", name);
  mkdirSync(dir, { recursive: true });
  return writeFixturePackage(template, { name, version: "1.0.0" }, dir);
}

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), "pi-package-layer-"));
  agentDir = join(root, "agent");
  cwd = join(root, "project");
  mkdirSync(agentDir);
  mkdirSync(cwd);
});

describe("the installed-packages layer of the distribution", () => {
  it("a package plugin with id tool-bash replaces the built-in in place; layers go default < user < packages < project", async () => {
    const pkg = installedNpm("my-bash", "fake-bash");
    packagesSetting(["npm:my-bash"]);
    writeFileSync(join(agentDir, "plugins.json"), JSON.stringify([{ id: "tool-ls", enabled: false }]));
    mkdirSync(join(cwd, ".pi"), { recursive: true });
    writeFileSync(join(cwd, ".pi", "plugins.json"), JSON.stringify([{ id: "tool-read", enabled: false }]));
    await trustProject(agentDir, cwd);

    const { entries, layers, notices } = await resolve();
    expect(notices).toEqual([]);
    expect(layers).toEqual([
      join(ROOT, "plugins.json"),
      join(agentDir, "plugins.json"),
      join(pkg, "package.json"),
      join(cwd, ".pi", "plugins.json"),
    ]);
    const bash = entries.find((e) => e.id === "tool-bash")!;
    expect(bash).toMatchObject({
      use: join(pkg, "plugin", "index.ts"),
      enabled: true,
      useFrom: join(pkg, "package.json"),
    });
    expect(entries.filter((e) => e.id === "tool-bash")).toHaveLength(1);
    const defaultIds = (
      JSON.parse(readFileSync(join(ROOT, "plugins.json"), "utf8")) as { plugins: Array<{ id: string }> }
    ).plugins.map((p) => p.id);
    expect(entries.map((e) => e.id)).toEqual(defaultIds); // replaced where it stood, nothing added
    expect(entries.find((e) => e.id === "tool-ls")!.enabled).toBe(false);
    expect(entries.find((e) => e.id === "tool-read")!.enabled).toBe(false);
  });

  it("a package's distribution overlays the earlier layers; npm: uses resolve to the installed plugin, by id or as the only one", async () => {
    const greeter = installedNpm("greeter-pkg", "greeter");
    const distroDir = join(agentDir, "npm", "my-distro");
    mkdirSync(distroDir, { recursive: true });
    writeFileSync(
      join(distroDir, "package.json"),
      JSON.stringify({ name: "my-distro", version: "1.0.0", pi: { distribution: "./plugins.json" } }),
    );
    writeFileSync(
      join(distroDir, "plugins.json"),
      JSON.stringify({
        plugins: [
          { id: "tool-grep", enabled: false },
          { id: "hello-greeter", use: "npm:greeter-pkg" },
        ],
      }),
    );
    packagesSetting(["npm:greeter-pkg", "npm:my-distro"]);

    const { entries } = await resolve();
    const plugin = join(greeter, "plugins", "greeter", "index.ts");
    expect(entries.find((e) => e.id === "greeter")).toMatchObject({ use: plugin });
    expect(entries.find((e) => e.id === "hello-greeter")).toMatchObject({
      use: plugin,
      useFrom: join(distroDir, "plugins.json"),
    });
    expect(entries.find((e) => e.id === "tool-grep")!.enabled).toBe(false);
  });

  it("an npm: use that is not installed, or names no plugin of a package, is one line naming the file and entry", async () => {
    writeFileSync(join(agentDir, "plugins.json"), JSON.stringify([{ id: "x", use: "npm:not-there" }]));
    await expect(resolve()).rejects.toThrow(
      `${join(agentDir, "plugins.json")}: entry "x": use: package "npm:not-there" is not installed; install it with "pi install npm:not-there"`,
    );

    const skillsOnly = join(agentDir, "npm", "only-skills");
    mkdirSync(join(skillsOnly, "skills"), { recursive: true });
    writeFileSync(join(skillsOnly, "package.json"), JSON.stringify({ name: "only-skills", version: "1.0.0" }));
    packagesSetting(["npm:only-skills"]);
    writeFileSync(join(agentDir, "plugins.json"), JSON.stringify([{ id: "x", use: "npm:only-skills" }]));
    await expect(resolve()).rejects.toThrow(`package "npm:only-skills" has no pi-host plugins`);
  });

  it("skills and prompt templates go to the host environment, where the resources plugin finds them with a package origin", async () => {
    const greeter = installedNpm("greeter-pkg", "greeter");
    packagesSetting(["npm:greeter-pkg"]);
    const { entries, environment } = await resolve();
    expect(entries.find((e) => e.id === "resources")!.config).toBeUndefined();
    expect(environment!.packages!.resources).toEqual([
      { name: "npm:greeter-pkg", skills: [join(greeter, "skills")], prompts: [join(greeter, "prompts")] },
    ]);
    const config = { packages: environment!.packages!.resources };

    const world = makeWorld();
    const { kernel, source } = await bootResources(world, config);
    try {
      const skills = await source.call("skills", world.cwd);
      expect(skills).toEqual([
        {
          name: "greeting-style",
          description: "How to greet people warmly in this project (package fixture 1.0.0).",
          path: join(greeter, "skills", "greeting-style", "SKILL.md"),
          origin: "package:npm:greeter-pkg",
        },
      ]);
      const templates = await source.call("templates", world.cwd);
      expect(templates.map((t) => [t.name, t.origin, t.description])).toEqual([
        ["welcome", "package:npm:greeter-pkg", "Welcome someone with the greet tool"],
      ]);
    } finally {
      await kernel.shutdown();
    }
  });

  it("a project's packages apply only in a trusted project: plugins, skills and all", async () => {
    const dir = join(cwd, ".pi", "npm", "proj-greeter");
    mkdirSync(dir, { recursive: true });
    writeFixturePackage("greeter", { name: "proj-greeter", version: "1.0.0" }, dir);
    packagesSetting(["npm:proj-greeter"], "project");

    const untrusted = await resolve();
    expect(untrusted.entries.find((e) => e.id === "greeter")).toBeUndefined();
    // The host's one trust line covers the project's settings, and with them its packages.
    expect(untrusted.notices).toEqual([
      `skipped project resources in ${cwd} (.pi/settings.json): the project is not trusted; run "pi trust" or /trust to trust it, or pass --approve for this run`,
    ]);
    expect(untrusted.environment!.packages!.resources).toEqual([]);

    await trustProject(agentDir, cwd);
    const trusted = await resolve();
    expect(trusted.notices).toEqual([]);
    expect(trusted.entries.find((e) => e.id === "greeter")).toMatchObject({
      use: join(dir, "plugins", "greeter", "index.ts"),
    });
    expect(trusted.environment!.packages!.resources[0]!.skills).toEqual([join(dir, "skills")]);
  });

  it("a package named in settings but not installed, or a broken settings file, is a notice, not a failure", async () => {
    packagesSetting(["npm:missing", "git:nohost"]);
    expect((await resolve()).notices).toEqual([
      `package npm:missing in ${join(agentDir, "settings.json")} is not installed; run "pi install npm:missing"`,
      `${join(agentDir, "settings.json")}: invalid package source "git:nohost": expected git:<host>/<path>[@ref], git:git@<host>:<path> or a https/ssh/git URL`,
    ]);
    writeFileSync(join(agentDir, "settings.json"), "{ not json");
    const { notices, entries } = await resolve();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      new RegExp(`^${join(agentDir, "settings.json")}: not valid JSON .*; its packages are not loaded$`),
    );
    expect(entries.find((e) => e.id === "tool-bash")!.use).toBe("tool-bash");
  });

  it("extensions go to the host environment's package extensions (a project's only when trusted)", async () => {
    const global = join(agentDir, "npm", "ext-pkg");
    mkdirSync(join(global, "extensions"), { recursive: true });
    writeFileSync(join(global, "package.json"), JSON.stringify({ name: "ext-pkg", version: "1.0.0" }));
    writeFileSync(join(global, "extensions", "a.ts"), "export default function () {}\n");
    const project = join(cwd, ".pi", "npm", "proj-ext");
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "proj-ext", version: "1.0.0", pi: { extensions: ["./b.ts"] } }),
    );
    writeFileSync(join(project, "b.ts"), "export default function () {}\n");
    packagesSetting(["npm:ext-pkg"]);
    packagesSetting(["npm:proj-ext"], "project");

    const untrusted = await resolve();
    expect(untrusted.environment!.packages!.extensions).toEqual([join(global, "extensions")]);
    await trustProject(agentDir, cwd);
    const trusted = await resolve();
    expect(trusted.environment!.packages!.extensions).toEqual([join(global, "extensions"), join(project, "b.ts")]);
    expect(trusted.entries.find((e) => e.id === "pi-extensions")!.config).toBeUndefined();
  });
});
