import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ResourcesContract } from "../../../contracts/resources.js";
import { Kernel } from "../../schema-kernel.js";
import resourcesPlugin from "../../../plugins/config/resources/index.js";
import { makeWorld, put, skillText, type World } from "./harness.js";

describe("resources plugin", () => {
  let world: World;
  let kernel: Kernel;
  let savedAgentDir: string | undefined;

  beforeEach(() => {
    world = makeWorld();
    kernel = new Kernel();
    savedAgentDir = process.env.PI_CODING_AGENT_DIR;
  });
  afterEach(async () => {
    await kernel.shutdown();
    if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
  });

  it("boots declare-only with pi's defaults and takes the agent folder from PI_CODING_AGENT_DIR without config", async () => {
    process.env.PI_CODING_AGENT_DIR = world.agentDir;
    put(
      join(world.agentDir, "skills", "env-skill", "SKILL.md"),
      skillText({ name: "env-skill", description: "Found through the env." }),
    );
    put(join(world.agentDir, "prompts", "hello.md"), "Hello $1");
    const boot = await kernel.boot([
      { id: "resources", source: { kind: "inline", label: "resources", definition: resourcesPlugin } },
    ]);
    expect(boot.configErrors).toEqual([]);
    expect(boot.errors).toEqual([]);
    const [source] = kernel.useAll(ResourcesContract).list();
    expect((await source.call("skills", world.cwd)).map((s) => s.name)).toEqual(["env-skill"]);
    expect((await source.call("templates", world.cwd)).map((t) => t.name)).toEqual(["hello"]);
  });

  it("refuses a malformed config with a clear error", async () => {
    const boot = await kernel.boot([
      {
        id: "resources",
        source: { kind: "inline", label: "resources", definition: resourcesPlugin },
        config: { skillPaths: "one/path" },
      },
    ]);
    expect(boot.configErrors.length + boot.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(boot)).toContain("skillPaths");
  });
});
