/**
 * `pi config`'s package part (plugins/config/resource-config/package-items.ts): installed packages'
 * resources listed one group per package as pi heads them, on or off by the entry's filter, and a switch
 * written as pi's filter form into the entry, which the host then loads by.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { installedPackageLayers } from "../../../hosts/packages.js";
import { listPackageGroups, withPackageSwitch } from "../../../plugins/config/resource-config/package-items.js";
import { writeTwoOfEach } from "../../fixtures/packages/two-of-each.js";

let agentDir: string;
let cwd: string;
let pkg: string;

function settings(packages: unknown[], dir = agentDir): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ packages }));
}

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), "pi-config-packages-"));
  agentDir = join(root, "agent");
  cwd = join(root, "project");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  pkg = writeTwoOfEach(join(root, "two-of-each"));
});

describe("pi config: package resources", () => {
  it("lists each package's resources under `<source> (user)`, on or off by the entry's filter", () => {
    settings([{ source: pkg, prompts: ["!triage.md"], skills: [] }]);
    const groups = listPackageGroups(agentDir, undefined);
    expect(groups.map((g) => g.label)).toEqual([`${pkg} (user)`]);
    const items = groups[0]!.items.map((i) => `${i.kind} ${i.name} ${i.enabled ? "on" : "off"}`);
    expect(items).toEqual([
      "extensions alpha.ts on",
      "extensions beta/index.ts on",
      "skills first off",
      "skills second off",
      "prompts review.md on",
      "prompts triage.md off",
      "themes dawn.json on",
      "themes dusk.json on",
    ]);
  });

  it("a project entry of the same package is its own group in project mode, replacing the global one", () => {
    settings([pkg]);
    settings([{ source: pkg, themes: [] }], join(cwd, ".pi"));
    const groups = listPackageGroups(agentDir, join(cwd, ".pi"));
    expect(groups.map((g) => g.label)).toEqual([`${pkg} (project)`]);
    expect(groups[0]!.items.filter((i) => i.kind === "themes").map((i) => i.enabled)).toEqual([false, false]);
  });

  it("switching one off writes the object form with -path, which the host then leaves out; on again drops back to the source", async () => {
    settings([pkg, "npm:other"]);
    const item = listPackageGroups(agentDir, undefined)[0]!.items.find((i) => i.name === "review.md")!;
    const off = withPackageSwitch([pkg, "npm:other"], item, false);
    expect(off).toEqual([{ source: pkg, prompts: ["-prompts/review.md"] }, "npm:other"]);
    settings(off);
    const { packages } = await installedPackageLayers({ agentDir, cwd, projectTrusted: true });
    expect(packages[0]!.prompts.map((p) => relative(pkg, p))).toEqual(["prompts/triage.md"]);
    const listed = listPackageGroups(agentDir, undefined)[0]!.items.find((i) => i.name === "review.md")!;
    expect(listed.enabled).toBe(false);
    expect(withPackageSwitch(off, listed, true)).toEqual([
      { source: pkg, prompts: ["+prompts/review.md"] },
      "npm:other",
    ]);
  });

  it("from the project's settings a global package gets pi's autoload-false delta entry", async () => {
    settings([pkg]);
    const item = listPackageGroups(agentDir, join(cwd, ".pi"))[0]!.items.find((i) => i.name === "second")!;
    const project = withPackageSwitch([], item, false, true);
    expect(project).toEqual([{ source: pkg, autoload: false, skills: ["-skills/second/SKILL.md"] }]);
    settings(project, join(cwd, ".pi"));
    const { packages } = await installedPackageLayers({ agentDir, cwd, projectTrusted: true });
    expect(packages).toHaveLength(1);
    expect(packages[0]!.skills.map((p) => relative(pkg, p))).toEqual(["skills/first/SKILL.md"]);
    expect(packages[0]!.themes).toEqual([join(pkg, "themes")]);
  });
});
