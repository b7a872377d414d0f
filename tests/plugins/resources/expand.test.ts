/**
 * The prompt expander the resources plugin provides: which registered command a `/name` line runs, and
 * `/skill:name` and `/template` expansion over every resource source, as the session used to do itself.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommandContract } from "../../../contracts/command.js";
import { PromptExpanderContract, ResourcesContract, type ResourceSource } from "../../../contracts/resources.js";
import { definePlugin, type PluginEntry } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import resourcesPlugin from "../../../plugins/config/resources/index.js";
import { hostEnvironmentEntry } from "../../support/host-environment.js";
import { makeWorld, put, skillText, type World } from "./harness.js";

/** A plugin offering one slash command per name (keyed by its name, as CommandContract asks). */
function commandsPlugin(names: string[]) {
  return definePlugin({
    id: "test-commands",
    version: "1.0.0",
    provides: [CommandContract],
    setup(ctx) {
      for (const name of names)
        ctx.provide(CommandContract, { name, description: name, run: async () => undefined }, { key: name });
    },
  });
}

/** A second resource source with one template and one skill of its own. */
function extraSource(skillPath: string) {
  const source: ResourceSource = {
    promptSections: async () => [],
    skills: async () => [{ name: "extra-skill", description: "From another plugin.", path: skillPath, origin: "test" }],
    templates: async () => [
      { name: "greet", description: "shadowed", body: "never used", path: "/x/greet.md", origin: "test" },
      { name: "extra", description: "extra", body: "Extra for $1", path: "/x/extra.md", origin: "test" },
    ],
  };
  return definePlugin({
    id: "extra-source",
    version: "1.0.0",
    provides: [ResourcesContract],
    setup: (ctx) => ctx.provide(ResourcesContract, source),
  });
}

describe("prompt expander", () => {
  let world: World;
  let kernel: Kernel;

  beforeEach(() => {
    world = makeWorld();
    kernel = new Kernel();
  });
  afterEach(async () => {
    await kernel.shutdown();
  });

  async function boot(extra: PluginEntry[] = []) {
    const result = await kernel.boot([
      hostEnvironmentEntry(world.root, world.agentDir),
      {
        id: "resources",
        source: { kind: "inline", label: "resources", definition: resourcesPlugin },
        config: { agentDir: world.agentDir },
      },
      ...extra,
    ]);
    if (result.errors.length > 0 || result.configErrors.length > 0) throw new Error(JSON.stringify(result));
    return kernel.use(PromptExpanderContract);
  }
  const inline = (definition: ReturnType<typeof definePlugin>): PluginEntry => ({
    id: definition.id,
    source: { kind: "inline", label: definition.id, definition },
  });

  it("finds the registered command a /name line runs, with the text after it; other lines name none", async () => {
    const expander = await boot([inline(commandsPlugin(["deploy", "name:1"]))]);
    expect(expander.api.commandFor("/deploy staging now")).toEqual({ name: "deploy", args: "staging now" });
    expect(expander.api.commandFor("  /deploy\n")).toEqual({ name: "deploy", args: "" });
    expect(expander.api.commandFor("/name:1 x")).toEqual({ name: "name:1", args: "x" });
    expect(expander.api.commandFor("/unknown thing")).toBeUndefined();
    expect(expander.api.commandFor("deploy staging")).toBeUndefined();
    expect(expander.api.commandFor("/deploy/x")).toBeUndefined();
  });

  it("expands /skill:name with the file's text and the arguments after it, and refuses an unknown skill", async () => {
    const path = put(
      join(world.agentDir, "skills", "changelog", "SKILL.md"),
      skillText({ name: "changelog", description: "Write the changelog." }, "Write it well."),
    );
    const expander = await boot();
    const file = skillText({ name: "changelog", description: "Write the changelog." }, "Write it well.").trim();
    expect(await expander.api.expandPrompt("/skill:changelog for the parser", world.cwd)).toBe(
      `<skill name="changelog" location="${path}">\n${file}\n</skill>\n\nfor the parser`,
    );
    expect(await expander.api.expandPrompt("/skill:changelog", world.cwd)).toBe(
      `<skill name="changelog" location="${path}">\n${file}\n</skill>`,
    );
    await expect(expander.api.expandPrompt("/skill:nope x", world.cwd)).rejects.toThrow(
      'unknown skill "nope"; list skills with /skills or check SKILL.md frontmatter',
    );
  });

  it("fills /template with its arguments; the first source with a name wins; other text is kept as typed", async () => {
    put(join(world.agentDir, "prompts", "greet.md"), "Hello $1, and $@");
    const skillPath = put(join(world.root, "extra", "SKILL.md"), "Extra body\n");
    const expander = await boot([inline(extraSource(skillPath))]);
    expect(await expander.api.expandPrompt('/greet Ann "and Bob"', world.cwd)).toBe("Hello Ann, and Ann and Bob");
    expect(await expander.api.expandPrompt("/extra one two", world.cwd)).toBe("Extra for one");
    expect(await expander.api.expandPrompt("/skill:extra-skill", world.cwd)).toBe(
      `<skill name="extra-skill" location="${skillPath}">\nExtra body\n</skill>`,
    );
    expect(await expander.api.expandPrompt("/unknown thing", world.cwd)).toBe("/unknown thing");
    expect(await expander.api.expandPrompt("  plain text ", world.cwd)).toBe("  plain text ");
  });
});
