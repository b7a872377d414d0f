import { mkdirSync, unlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { nodeFileAccess, type FileAccess } from "../../../plugins/config/resources/file-cache.js";
import { FileResourceSource } from "../../../plugins/config/resources/resource-source.js";
import { makeWorld, promptInput, put, skillText, type World } from "./harness.js";

describe("resources: reading lazily, and only what changed", () => {
  let world: World;
  let reads: string[];
  let listings: string[];
  let source: FileResourceSource;

  /** Moves a file's modification time forward, as a later save would. */
  const touch = (path: string): void => {
    const later = new Date(Date.now() + 10_000);
    utimesSync(path, later, later);
  };
  /** One turn's worth of calls. */
  const turn = async (): Promise<string> => {
    const skills = await source.skills(world.cwd);
    await source.templates(world.cwd);
    const sections = await source.promptSections(promptInput(world.cwd, { skills }));
    return sections.map((s) => s.text).join("\n\n");
  };

  beforeEach(() => {
    world = makeWorld();
    reads = [];
    listings = [];
    const counting: FileAccess = {
      ...nodeFileAccess,
      readText: (path) => (reads.push(path), nodeFileAccess.readText(path)),
      readDir: (path) => (listings.push(path), nodeFileAccess.readDir(path)),
    };
    source = new FileResourceSource({
      agentDir: world.agentDir,
      homeDir: world.home,
      skillPaths: [],
      noSkills: false,
      templatePaths: [],
      noTemplates: false,
      noContextFiles: false,
      files: counting,
    });
  });

  it("reads nothing when created, each file once over repeated turns, and again only after it changed", async () => {
    put(join(world.agentDir, "APPEND_SYSTEM.md"), "Appended.");
    put(join(world.repo, "AGENTS.md"), "Repo rules.");
    const appAgents = put(join(world.cwd, "AGENTS.md"), "App rules v1.");
    put(
      join(world.agentDir, "skills", "first-skill", "SKILL.md"),
      skillText({ name: "first-skill", description: "First." }),
    );
    put(join(world.cwd, ".pi", "prompts", "review.md"), "Review $1");
    expect(reads).toEqual([]);

    expect(await turn()).toContain("App rules v1.");
    expect(reads).toHaveLength(5);
    expect(new Set(reads).size).toBe(5);

    reads.length = 0;
    listings.length = 0;
    expect(await turn()).toContain("App rules v1.");
    expect(await turn()).toContain("first-skill");
    expect(reads).toEqual([]);
    expect(listings).toEqual([]);

    put(appAgents, "App rules v2.");
    touch(appAgents);
    expect(await turn()).toContain("App rules v2.");
    expect(reads).toEqual([appAgents]);
    expect(listings).toEqual([]);

    reads.length = 0;
    const second = put(
      join(world.agentDir, "skills", "second-skill", "SKILL.md"),
      skillText({ name: "second-skill", description: "Second." }),
    );
    touch(join(world.agentDir, "skills"));
    expect(await turn()).toContain("second-skill");
    expect(reads).toEqual([second]);
    expect(listings).toEqual([join(world.agentDir, "skills"), join(world.agentDir, "skills", "second-skill")]);
  });

  it("notices files that appear and disappear", async () => {
    expect(await turn()).not.toContain("Late rules.");
    mkdirSync(join(world.cwd, ".pi"), { recursive: true });
    const system = put(join(world.cwd, ".pi", "SYSTEM.md"), "Late system prompt.");
    const late = put(join(world.cwd, "AGENTS.md"), "Late rules.");
    let text = await turn();
    expect(text).toContain("Late rules.");
    expect(text.startsWith("Late system prompt.")).toBe(true);
    expect(reads).toEqual(expect.arrayContaining([system, late]));

    unlinkSync(late);
    unlinkSync(system);
    text = await turn();
    expect(text).not.toContain("Late rules.");
    expect(text.startsWith("You are an expert coding assistant")).toBe(true);
  });
});
