import { symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../../kernel/index.js";
import { bootResources, makeWorld, put, skillText, type Booted, type World } from "./harness.js";

describe("resources: skills", () => {
  let world: World;
  let kernels: Kernel[];
  let savedHome: string | undefined;

  async function boot(config: Record<string, unknown> = {}): Promise<Booted> {
    const booted = await bootResources(world, config);
    kernels.push(booted.kernel);
    return booted;
  }
  /** A valid skill folder `<dir>/<name>/SKILL.md`. */
  const skill = (dir: string, name: string, description = `The ${name} skill.`): string =>
    put(join(dir, name, "SKILL.md"), skillText({ name, description }));

  beforeEach(() => {
    world = makeWorld();
    kernels = [];
    savedHome = process.env.HOME;
    process.env.HOME = world.home; // ~/.agents/skills is read from the home folder at setup
  });
  afterEach(async () => {
    for (const kernel of kernels) await kernel.shutdown();
    process.env.HOME = savedHome;
  });

  it("finds skills in every location pi searches, in pi's order, each with its origin", async () => {
    const projectDir = join(world.cwd, ".pi", "skills");
    skill(projectDir, "proj-skill");
    put(
      join(projectDir, "proj-skill", "deeper", "inner", "SKILL.md"),
      skillText({ name: "inner", description: "Not searched: proj-skill is a skill." }),
    );
    put(join(projectDir, "single.md"), skillText({ name: "single", description: "A one-file skill." }));
    skill(join(world.cwd, ".agents", "skills"), "agents-app");
    skill(join(world.repo, ".agents", "skills"), "agents-repo");
    put(
      join(world.repo, ".agents", "skills", "loose.md"),
      skillText({ name: "loose", description: "Loose files do not count in .agents." }),
    );
    skill(join(world.root, ".agents", "skills"), "above-git-root");
    const userDir = join(world.agentDir, "skills");
    skill(userDir, "user-skill");
    skill(join(userDir, "group"), "nested-skill");
    skill(join(userDir, "node_modules"), "dependency");
    skill(join(userDir, ".hidden"), "hidden-folder");
    skill(join(world.home, ".agents", "skills"), "home-skill");
    const flagFile = skill(join(world.root, "extra"), "flag-file");
    skill(join(world.root, "more"), "flag-folder");

    const { source, diagnostics } = await boot({
      skillPaths: ["../../../extra/flag-file/SKILL.md", join(world.root, "more")],
    });
    const skills = await source.call("skills", world.cwd);
    expect(skills.map((s) => [s.name, s.origin])).toEqual([
      ["proj-skill", "project"],
      ["single", "project"],
      ["agents-app", "project"],
      ["agents-repo", "project"],
      ["nested-skill", "user"],
      ["user-skill", "user"],
      ["home-skill", "user"],
      ["flag-file", "flag"],
      ["flag-folder", "flag"],
    ]);
    expect(skills[0]).toEqual({
      name: "proj-skill",
      description: "The proj-skill skill.",
      path: join(projectDir, "proj-skill", "SKILL.md"),
      origin: "project",
    });
    expect(skills.find((s) => s.name === "flag-file")!.path).toBe(flagFile);
    expect(diagnostics).toEqual([]);
  });

  it("with noSkills loads only the --skill paths", async () => {
    skill(join(world.agentDir, "skills"), "user-skill");
    skill(join(world.cwd, ".pi", "skills"), "proj-skill");
    skill(join(world.root, "extra"), "flag-skill");
    const { source } = await boot({ noSkills: true, skillPaths: [join(world.root, "extra", "flag-skill")] });
    expect((await source.call("skills", world.cwd)).map((s) => s.name)).toEqual(["flag-skill"]);
  });

  it("keeps the first skill of a name (project over user) and reports the other", async () => {
    skill(join(world.cwd, ".pi", "skills"), "review", "Project review.");
    const loser = skill(join(world.agentDir, "skills"), "review", "User review.");
    const { source, diagnostics } = await boot();
    expect((await source.call("skills", world.cwd)).map((s) => s.description)).toEqual(["Project review."]);
    expect(diagnostics).toEqual([
      {
        resource: "skill",
        path: loser,
        message: `skipped: the name "review" is already taken by ${join(world.cwd, ".pi", "skills", "review", "SKILL.md")}`,
      },
    ]);
  });

  it("counts a skill reached through a link once", async () => {
    const real = skill(join(world.root, "shared"), "shared-skill");
    put(join(world.agentDir, "skills", "placeholder.txt"), "");
    symlinkSync(join(world.root, "shared", "shared-skill"), join(world.agentDir, "skills", "shared-skill"));
    const { source, diagnostics } = await boot({ skillPaths: [real] });
    const skills = await source.call("skills", world.cwd);
    expect(skills.map((s) => [s.name, s.origin])).toEqual([["shared-skill", "user"]]);
    expect(diagnostics).toEqual([]);
  });

  it("skips rule-breaking skills with the reason, reports each once, and loads the valid ones", async () => {
    const dir = join(world.agentDir, "skills");
    skill(dir, "good-skill");
    const upper = put(join(dir, "PDF-Tools", "SKILL.md"), skillText({ name: "PDF-Tools", description: "Upper case." }));
    const hyphen = put(join(dir, "-lead", "SKILL.md"), skillText({ name: "-lead", description: "Leading hyphen." }));
    const double = put(join(dir, "a--b", "SKILL.md"), skillText({ name: "a--b", description: "Two hyphens." }));
    const mismatch = put(
      join(dir, "folder-name", "SKILL.md"),
      skillText({ name: "other-name", description: "Wrong folder." }),
    );
    const long = "x".repeat(65);
    const tooLong = put(join(dir, long, "SKILL.md"), skillText({ name: long, description: "Long name." }));
    const noDescription = put(join(dir, "no-description", "SKILL.md"), skillText({ name: "no-description" }));
    const longDescription = put(
      join(dir, "long-description", "SKILL.md"),
      skillText({ name: "long-description", description: "d".repeat(1025) }),
    );
    const brokenYaml = put(
      join(dir, "broken-yaml", "SKILL.md"),
      '---\nname: broken-yaml\ndescription: "never closed\n---\nBody\n',
    );
    const noFrontmatter = put(join(dir, "no-frontmatter", "SKILL.md"), "# Just a heading\n");
    const { source, diagnostics } = await boot({ skillPaths: ["missing/skill"] });

    expect((await source.call("skills", world.cwd)).map((s) => s.name)).toEqual(["good-skill"]);
    const reasons = Object.fromEntries(diagnostics.map((d) => [d.path, d.message]));
    expect(reasons).toEqual({
      [hyphen]: 'skipped: name "-lead" must not start or end with a hyphen',
      [upper]: 'skipped: name "PDF-Tools" may contain only lowercase a-z, 0-9 and hyphens',
      [double]: 'skipped: name "a--b" must not contain consecutive hyphens',
      [mismatch]: 'skipped: name "other-name" does not match its folder "folder-name"',
      [brokenYaml]: 'skipped: invalid frontmatter (line 3: unterminated "double-quoted" value)',
      [longDescription]: "skipped: description exceeds 1024 characters (1025)",
      [noDescription]: "skipped: description is required",
      [noFrontmatter]: "skipped: description is required",
      [tooLong]: "skipped: name exceeds 64 characters (65)",
      [join(world.cwd, "missing", "skill")]: "skill path does not exist",
    });
    expect(diagnostics.every((d) => d.resource === "skill")).toBe(true);

    // Reported when they appear, not on every turn; again after being fixed and broken anew.
    await source.call("skills", world.cwd);
    expect(diagnostics).toHaveLength(10);
    put(mismatch, skillText({ name: "folder-name", description: "Fixed." }));
    expect((await source.call("skills", world.cwd)).map((s) => s.name)).toEqual(["folder-name", "good-skill"]);
    expect(diagnostics).toHaveLength(10);
    unlinkSync(mismatch);
    put(mismatch, skillText({ name: "other-name", description: "Broken again." }));
    await source.call("skills", world.cwd);
    expect(diagnostics).toHaveLength(11);
    expect(diagnostics.at(-1)!.message).toBe('skipped: name "other-name" does not match its folder "folder-name"');
  });

  it("reads YAML the way skill authors write it: quotes, folded descriptions, comments, nested metadata", async () => {
    const dir = join(world.agentDir, "skills");
    put(
      join(dir, "folded", "SKILL.md"),
      "---\n# a comment\nname: 'folded'\ndescription: >\n  Extracts tables from spreadsheets.\n  Use when: the user mentions xlsx.\nmetadata:\n  author: someone\n  tags:\n    - a\n    - b\nallowed-tools: Read Bash\n---\nBody\n",
    );
    put(
      join(dir, "quoted", "SKILL.md"),
      '---\nname: "quoted"\ndescription: "Says \\"hi\\" politely." # trailing comment\n---\n',
    );
    put(
      join(dir, "plain", "SKILL.md"),
      "---\r\nname: plain\r\ndescription: Handles PDFs: merge, split\r\n  and rotate. # comment\r\n---\r\n",
    );
    const { source, diagnostics } = await boot();
    const skills = await source.call("skills", world.cwd);
    expect(Object.fromEntries(skills.map((s) => [s.name, s.description]))).toEqual({
      folded: "Extracts tables from spreadsheets. Use when: the user mentions xlsx.\n",
      plain: "Handles PDFs: merge, split and rotate.",
      quoted: 'Says "hi" politely.',
    });
    expect(diagnostics).toEqual([]);
  });
});
