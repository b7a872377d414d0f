/**
 * pi's resource filters of a `packages` entry in object form, as the host applies them before handing
 * package resources to the loaders (hosts/packages.ts over kit/packages/package-filter.ts): an absent
 * type loads all, `[]` none, globs include, `!` excludes, `+`/`-` force one exact path, a project
 * entry replaces the personal one and with `autoload: false` is a delta over it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { installedPackageLayers } from "../../../hosts/packages.js";
import { applyFilterPatterns, resourceFiles } from "../../../kit/packages/package-filter.js";
import { TWO_OF_EACH, writeTwoOfEach } from "../../fixtures/packages/two-of-each.js";
import { bootResources, makeWorld } from "../resources/harness.js";

let agentDir: string;
let cwd: string;
let pkg: string;

function settings(packages: unknown[], scope: "global" | "project" = "global"): void {
  const dir = scope === "global" ? agentDir : join(cwd, ".pi");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ packages }));
}

/** What loads of each type, relative to the package root. */
async function loaded(): Promise<Record<string, string[]>> {
  const { packages } = await installedPackageLayers({ agentDir, cwd, projectTrusted: true });
  expect(packages).toHaveLength(1);
  const p = packages[0]!;
  const rel = (kind: "extensions" | "skills" | "prompts" | "themes") =>
    resourceFiles(p[kind], kind)
      .map((f) => relative(pkg, f))
      .sort();
  return { extensions: rel("extensions"), skills: rel("skills"), prompts: rel("prompts"), themes: rel("themes") };
}

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), "pi-package-filter-"));
  agentDir = join(root, "agent");
  cwd = join(root, "project");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  pkg = writeTwoOfEach(join(root, "two-of-each"));
});

describe("package resource filters", () => {
  it("the plain string form loads everything the package declares", async () => {
    settings([pkg]);
    const all = await loaded();
    for (const kind of ["extensions", "skills", "prompts", "themes"] as const)
      expect(all[kind]).toEqual([...TWO_OF_EACH[kind]].sort());
  });

  it("omitted loads all, [] loads none, globs include and ! excludes", async () => {
    settings([
      {
        source: pkg,
        extensions: ["extensions/*.ts"],
        skills: [],
        prompts: ["prompts/*.md", "!prompts/triage.md"],
      },
    ]);
    expect(await loaded()).toEqual({
      extensions: ["extensions/alpha.ts"],
      skills: [],
      prompts: ["prompts/review.md"],
      themes: ["themes/dawn.json", "themes/dusk.json"],
    });
  });

  it("+path forces an excluded path back in and -path forces one out; a skill is named by its folder", async () => {
    settings([
      {
        source: pkg,
        themes: ["!*.json", "+themes/dusk.json"],
        skills: ["-skills/second"],
        extensions: ["-./extensions/beta/index.ts"],
      },
    ]);
    const got = await loaded();
    expect(got.themes).toEqual(["themes/dusk.json"]);
    expect(got.skills).toEqual(["skills/first/SKILL.md"]);
    expect(got.extensions).toEqual(["extensions/alpha.ts"]);
  });

  it("a filter never reaches a file the package does not declare", () => {
    const files = resourceFiles([join(pkg, "prompts")], "prompts");
    expect(applyFilterPatterns(files, ["+package.json", "**/*.json"], pkg)).toEqual([]);
  });

  it("a project entry replaces the personal one of the same package", async () => {
    settings([{ source: pkg, prompts: [] }]);
    settings([{ source: pkg, prompts: ["prompts/triage.md"] }], "project");
    const got = await loaded();
    expect(got.prompts).toEqual(["prompts/triage.md"]);
    expect(got.skills).toEqual([...TWO_OF_EACH.skills].sort());
  });

  it("a project entry with autoload false is a delta over the personal entry", async () => {
    settings([{ source: pkg, prompts: ["prompts/review.md"], skills: [] }]);
    settings([{ source: pkg, autoload: false, prompts: ["+prompts/triage.md", "-prompts/review.md"] }], "project");
    const got = await loaded();
    expect(got.prompts).toEqual(["prompts/triage.md"]);
    expect(got.skills).toEqual([]);
    expect(got.themes).toEqual([...TWO_OF_EACH.themes].sort());
  });

  it("autoload false without a personal entry loads only what it switches on", async () => {
    settings([{ source: pkg, autoload: false, skills: ["first"] }], "project");
    const got = await loaded();
    expect(got).toEqual({ extensions: [], skills: ["skills/first/SKILL.md"], prompts: [], themes: [] });
  });

  it("the resources plugin loads only the skills and templates the filter leaves on", async () => {
    settings([{ source: pkg, skills: ["second"], prompts: ["!review.md"] }]);
    const { contributions } = await installedPackageLayers({ agentDir, cwd, projectTrusted: true });
    const world = makeWorld();
    const { kernel, source } = await bootResources(world, { packages: contributions.resources });
    try {
      const skills = await source.call("skills", world.cwd);
      expect(skills.map((s) => s.name)).toEqual(["second"]);
      const templates = await source.call("templates", world.cwd);
      expect(templates.map((t) => t.name)).toEqual(["triage"]);
    } finally {
      await kernel.shutdown();
    }
  });
});
