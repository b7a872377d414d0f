import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fillTemplate } from "../../../contracts/resources.js";
import type { Kernel } from "../../../kernel/index.js";
import { bootResources, makeWorld, put, type Booted, type World } from "./harness.js";

describe("resources: prompt templates", () => {
  let world: World;
  let kernels: Kernel[];

  async function boot(config: Record<string, unknown> = {}): Promise<Booted> {
    const booted = await bootResources(world, config);
    kernels.push(booted.kernel);
    return booted;
  }

  beforeEach(() => {
    world = makeWorld();
    kernels = [];
  });
  afterEach(async () => {
    for (const kernel of kernels) await kernel.shutdown();
  });

  it("finds templates in .pi/prompts, then <agentDir>/prompts, then --prompt-template paths; non-recursive", async () => {
    const projectPrompts = join(world.cwd, ".pi", "prompts");
    const userPrompts = join(world.agentDir, "prompts");
    put(
      join(projectPrompts, "review.md"),
      "---\ndescription: Review staged git changes\n---\nReview the staged changes (`git diff --cached`).\n",
    );
    put(join(projectPrompts, "notes.txt"), "not a template");
    put(
      join(userPrompts, "component.md"),
      '---\ndescription: Create a component\nargument-hint: "<name> [features...]"\n---\nCreate a React component named $1 with features: ${@:2}\n',
    );
    put(join(userPrompts, "sub", "deep.md"), "Not found: folders are not searched.");
    put(join(world.root, "flags", "fix.md"), "Fix issue $1 in $@\n");
    put(join(world.root, "flag-folder", "explain.md"), "Explain $ARGS");
    const { source, diagnostics } = await boot({
      templatePaths: ["../../../flags/fix.md", join(world.root, "flag-folder")],
    });
    const templates = await source.call("templates", world.cwd);
    expect(templates.map((t) => [t.name, t.origin])).toEqual([
      ["review", "project"],
      ["component", "user"],
      ["fix", "flag"],
      ["explain", "flag"],
    ]);
    expect(templates[0]).toEqual({
      name: "review",
      description: "Review staged git changes",
      body: "Review the staged changes (`git diff --cached`).",
      path: join(projectPrompts, "review.md"),
      origin: "project",
    });
    expect(templates[1]).toMatchObject({ description: "Create a component", argumentHint: "<name> [features...]" });
    expect(diagnostics).toEqual([]);
  });

  it("takes the description from the first non-empty line when the frontmatter has none, cut at 60 characters", async () => {
    const userPrompts = join(world.agentDir, "prompts");
    put(join(userPrompts, "short.md"), "\n\n  Summarise the file $1.\nMore text.\n");
    put(join(userPrompts, "long.md"), `${"word ".repeat(20)}\n`);
    put(join(userPrompts, "empty-meta.md"), "---\nargument-hint: <path>\n---\nDescribe $1\n");
    const { source } = await boot();
    const byName = Object.fromEntries((await source.call("templates", world.cwd)).map((t) => [t.name, t.description]));
    expect(byName).toEqual({
      "empty-meta": "Describe $1",
      long: `${"word ".repeat(12)}...`,
      short: "Summarise the file $1.",
    });
  });

  it("fills $1, $@ and ${@:N} from the invocation's arguments (fillTemplate)", async () => {
    put(
      join(world.agentDir, "prompts", "component.md"),
      "---\ndescription: Create a component\n---\nCreate $1 with: ${@:2}.\nAll: $@. Third: [$3].\n",
    );
    const { source } = await boot();
    const [template] = await source.call("templates", world.cwd);
    expect(fillTemplate(template.body, 'Button "onClick handler" disabled')).toBe(
      "Create Button with: onClick handler disabled.\nAll: Button onClick handler disabled. Third: [disabled].",
    );
    expect(fillTemplate(template.body, "Card")).toBe("Create Card with: .\nAll: Card. Third: [].");
  });

  it("keeps the first template of a name and reports the other; noTemplates keeps only --prompt-template paths", async () => {
    put(join(world.cwd, ".pi", "prompts", "review.md"), "Project review");
    const loser = put(join(world.agentDir, "prompts", "review.md"), "User review");
    put(join(world.root, "extra", "ship.md"), "Ship it");
    const first = await boot({ templatePaths: [join(world.root, "missing.md")] });
    expect((await first.source.call("templates", world.cwd)).map((t) => t.body)).toEqual(["Project review"]);
    expect(first.diagnostics).toEqual([
      {
        resource: "template",
        path: loser,
        message: `skipped: the name "/review" is already taken by ${join(world.cwd, ".pi", "prompts", "review.md")}`,
      },
      { resource: "template", path: join(world.root, "missing.md"), message: "prompt template path does not exist" },
    ]);

    const only = await boot({ noTemplates: true, templatePaths: [join(world.root, "extra", "ship.md")] });
    expect((await only.source.call("templates", world.cwd)).map((t) => t.name)).toEqual(["ship"]);
  });

  it("skips a template whose frontmatter is broken, with the reason", async () => {
    const broken = put(
      join(world.agentDir, "prompts", "broken.md"),
      "---\ndescription: fine\n  weird: indentation\nnot a pair\n---\nBody\n",
    );
    put(join(world.agentDir, "prompts", "fine.md"), "Fine body");
    const { source, diagnostics } = await boot();
    expect((await source.call("templates", world.cwd)).map((t) => t.name)).toEqual(["fine"]);
    expect(diagnostics).toEqual([
      { resource: "template", path: broken, message: 'skipped: invalid frontmatter (line 4: expected "key: value")' },
    ]);
  });
});
