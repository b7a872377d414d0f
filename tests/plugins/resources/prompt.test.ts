import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PromptSection } from "../../../contracts/resources.js";
import type { Kernel } from "../../../kernel/index.js";
import { DEFAULT_PREAMBLE } from "../../../plugins/config/resources/default-preamble.js";
import {
  assemble,
  bootResources,
  DEFAULT_TOOLS,
  makeWorld,
  outline,
  promptInput,
  put,
  type Booted,
  type World,
} from "./harness.js";

describe("resources: system prompt sections", () => {
  let world: World;
  let kernels: Kernel[];

  async function boot(config: Record<string, unknown> = {}): Promise<Booted> {
    const booted = await bootResources(world, config);
    kernels.push(booted.kernel);
    return booted;
  }
  /** Context file sections inside this test's world (a machine may have its own /AGENTS.md). */
  const contextFiles = (sections: PromptSection[]): string[] =>
    sections
      .filter((s) => s.order === 40 && s.source !== "project context" && s.source.includes(world.root))
      .map((s) => s.source);

  beforeEach(() => {
    world = makeWorld();
    kernels = [];
  });
  afterEach(async () => {
    for (const kernel of kernels) await kernel.shutdown();
  });

  it("orders the sections preamble, tools, append, context, skills, date/cwd, with their content", async () => {
    put(join(world.agentDir, "APPEND_SYSTEM.md"), "Always answer in English.");
    put(join(world.repo, "AGENTS.md"), "Run `npm test` before committing.");
    const skill = {
      name: "pdf-tools",
      description: "Extract text from PDF files.",
      path: "/skills/pdf-tools/SKILL.md",
      origin: "user",
    };
    const { source } = await boot();
    const sections = await source.call(
      "promptSections",
      promptInput(world.cwd, { skills: [skill], appendSystemPrompt: ["Prefer small commits."] }),
    );

    const inWorld = ([order, source]: [number, string]): boolean =>
      order !== 40 || source === "project context" || source.includes(world.root);
    expect(outline(sections).filter(inWorld)).toEqual([
      [10, "default preamble"],
      [20, "tools"],
      [30, `APPEND_SYSTEM.md: ${join(world.agentDir, "APPEND_SYSTEM.md")}`],
      [30, "--append-system-prompt"],
      [40, "project context"],
      [40, `AGENTS.md: ${join(world.repo, "AGENTS.md")}`],
      [50, "skills"],
      [60, "environment"],
    ]);
    const text = (source: string): string => sections.find((s) => s.source === source)!.text;
    expect(text("default preamble")).toBe(DEFAULT_PREAMBLE);
    expect(DEFAULT_PREAMBLE).toMatch(/Read the relevant code before changing it/);
    expect(DEFAULT_PREAMBLE).toMatch(/small, precise edits/);
    expect(DEFAULT_PREAMBLE).toMatch(/Verify your work with commands/);
    expect(DEFAULT_PREAMBLE).toMatch(/Be concise/);
    expect(text("tools")).toBe(
      [
        "Available tools:",
        "- read: Read the contents of a file.",
        "- bash: Execute a bash command in the current working directory.",
        "- edit: Edit a file by replacing exact text.",
        "- write: Create or overwrite a file.",
        "",
        "Other tools may also be available, depending on the project.",
        "",
        "Tool guidelines:",
        "- Use bash for file operations such as ls, rg and find.",
        "- Use read to look at files, not cat or sed.",
        "- Use edit for precise changes; the old text must match exactly.",
      ].join("\n"),
    );
    expect(text("--append-system-prompt")).toBe("Prefer small commits.");
    expect(text(`AGENTS.md: ${join(world.repo, "AGENTS.md")}`)).toBe(
      `## ${join(world.repo, "AGENTS.md")}\n\nRun \`npm test\` before committing.`,
    );
    expect(text("environment")).toBe(`Current date: 2025-03-07\nCurrent working directory: ${world.cwd}`);

    const whole = assemble(sections);
    expect(whole.startsWith(DEFAULT_PREAMBLE)).toBe(true);
    expect(whole.endsWith(`Current working directory: ${world.cwd}`)).toBe(true);
    expect(whole.indexOf("Always answer in English.")).toBeLessThan(whole.indexOf("Prefer small commits."));
  });

  it("advises the dedicated exploration tools over bash when they are active", async () => {
    const { source } = await boot();
    const tools = [...DEFAULT_TOOLS, { name: "grep", description: "Search file contents." }];
    const sections = await source.call("promptSections", promptInput(world.cwd, { tools }));
    const toolsText = sections.find((s) => s.source === "tools")!.text;
    expect(toolsText).toContain("- grep: Search file contents.");
    expect(toolsText).toContain(
      "- Prefer the grep, find and ls tools to bash for exploring files: they are faster and respect .gitignore.",
    );
    expect(toolsText).not.toContain("Use bash for file operations");

    const none = await source.call("promptSections", promptInput(world.cwd, { tools: [] }));
    expect(none.find((s) => s.source === "tools")!.text).toBe(
      "Available tools:\n(none)\n\nOther tools may also be available, depending on the project.",
    );
  });

  it("SYSTEM.md replaces the default preamble (and the tools section, as in pi); the project's wins over the global one", async () => {
    const { source } = await boot();
    put(join(world.agentDir, "SYSTEM.md"), "You are the global custom agent.");
    put(join(world.repo, "AGENTS.md"), "Repo rules.");
    let sections = await source.call("promptSections", promptInput(world.cwd));
    expect(outline(sections).slice(0, 1)).toEqual([[10, `SYSTEM.md: ${join(world.agentDir, "SYSTEM.md")}`]]);
    expect(sections[0].text).toBe("You are the global custom agent.");
    expect(sections.some((s) => s.order === 20)).toBe(false);
    expect(sections.some((s) => s.text === DEFAULT_PREAMBLE)).toBe(false);
    expect(contextFiles(sections)).toEqual([`AGENTS.md: ${join(world.repo, "AGENTS.md")}`]);
    expect(sections.at(-1)!.source).toBe("environment");

    put(join(world.cwd, ".pi", "SYSTEM.md"), "You are the project's custom agent.");
    sections = await source.call("promptSections", promptInput(world.cwd));
    expect(sections[0]).toEqual({
      order: 10,
      source: `SYSTEM.md: ${join(world.cwd, ".pi", "SYSTEM.md")}`,
      text: "You are the project's custom agent.",
    });
  });

  it("--system-prompt replaces the preamble over any SYSTEM.md; a value naming a file stands for the file's text", async () => {
    const { source } = await boot();
    put(join(world.cwd, ".pi", "SYSTEM.md"), "Project system prompt.");
    let sections = await source.call(
      "promptSections",
      promptInput(world.cwd, { systemPromptOverride: "You are a terse reviewer." }),
    );
    expect(sections[0]).toEqual({ order: 10, source: "--system-prompt", text: "You are a terse reviewer." });
    expect(sections.some((s) => s.order === 20 || s.text.includes("Project system prompt."))).toBe(false);

    put(join(world.cwd, "prompts", "reviewer.md"), "You review code, from a file.");
    sections = await source.call(
      "promptSections",
      promptInput(world.cwd, { systemPromptOverride: "prompts/reviewer.md" }),
    );
    expect(sections[0]).toEqual({
      order: 10,
      source: `--system-prompt: ${join(world.cwd, "prompts", "reviewer.md")}`,
      text: "You review code, from a file.",
    });
  });

  it("appends APPEND_SYSTEM.md (project, then global), then each --append-system-prompt in order", async () => {
    const { source } = await boot();
    put(join(world.agentDir, "APPEND_SYSTEM.md"), "Global addition.");
    put(join(world.cwd, ".pi", "APPEND_SYSTEM.md"), "Project addition.");
    put(join(world.cwd, "extra.md"), "Addition from a file.");
    const sections = await source.call(
      "promptSections",
      promptInput(world.cwd, { appendSystemPrompt: ["First flag.", "extra.md", "Second flag."] }),
    );
    expect(sections.filter((s) => s.order === 30).map((s) => [s.source, s.text])).toEqual([
      [`APPEND_SYSTEM.md: ${join(world.cwd, ".pi", "APPEND_SYSTEM.md")}`, "Project addition."],
      [`APPEND_SYSTEM.md: ${join(world.agentDir, "APPEND_SYSTEM.md")}`, "Global addition."],
      ["--append-system-prompt", "First flag."],
      [`--append-system-prompt: ${join(world.cwd, "extra.md")}`, "Addition from a file."],
      ["--append-system-prompt", "Second flag."],
    ]);
    // Appended text follows a replaced preamble too.
    const custom = await source.call(
      "promptSections",
      promptInput(world.cwd, { systemPromptOverride: "Custom.", appendSystemPrompt: ["Flag."] }),
    );
    expect(assemble(custom)).toMatch(/^Custom\.\n\nProject addition\.\n\nGlobal addition\.\n\nFlag\.\n\n/);
  });

  it("reads AGENTS.md from the agent folder, then every folder from the root down to cwd, CLAUDE.md where a folder has no AGENTS.md", async () => {
    put(join(world.agentDir, "AGENTS.md"), "Global instructions.");
    put(join(world.root, "CLAUDE.md"), "Above the repo, Claude style.");
    put(join(world.repo, "AGENTS.md"), "Repo instructions.");
    put(join(world.repo, "CLAUDE.md"), "Ignored: the repo has an AGENTS.md.");
    put(join(world.repo, "packages", "CLAUDE.md"), "Packages instructions.");
    put(join(world.cwd, "AGENTS.md"), "App instructions.");
    const { source } = await boot();
    const sections = await source.call("promptSections", promptInput(world.cwd));
    expect(contextFiles(sections)).toEqual([
      `AGENTS.md: ${join(world.agentDir, "AGENTS.md")}`,
      `CLAUDE.md: ${join(world.root, "CLAUDE.md")}`,
      `AGENTS.md: ${join(world.repo, "AGENTS.md")}`,
      `CLAUDE.md: ${join(world.repo, "packages", "CLAUDE.md")}`,
      `AGENTS.md: ${join(world.cwd, "AGENTS.md")}`,
    ]);
    const whole = assemble(sections);
    expect(whole).toContain("# Project Context");
    expect(whole).not.toContain("Ignored: the repo has an AGENTS.md.");
    const order = [
      "Global instructions.",
      "Above the repo",
      "Repo instructions.",
      "Packages instructions.",
      "App instructions.",
    ].map((t) => whole.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(whole.indexOf(`## ${join(world.cwd, "AGENTS.md")}\n\nApp instructions.`)).toBeGreaterThan(0);
  });

  it("leaves context files out with noContextFiles", async () => {
    put(join(world.agentDir, "AGENTS.md"), "Global instructions.");
    put(join(world.cwd, "AGENTS.md"), "App instructions.");
    const { source } = await boot({ noContextFiles: true });
    const sections = await source.call("promptSections", promptInput(world.cwd));
    expect(sections.some((s) => s.order === 40)).toBe(false);
    expect(assemble(sections)).not.toContain("instructions.");
  });

  it("lists only each skill's name, description and path, with the instruction to read a matching skill's file", async () => {
    const skillBody = "# PDF tools\n\nSECRET STEP: run ./extract.sh";
    const pdfPath = put(
      join(world.agentDir, "skills", "pdf-tools", "SKILL.md"),
      `---\nname: pdf-tools\ndescription: Extract text & tables from <PDF> files.\n---\n${skillBody}\n`,
    );
    const { source } = await boot();
    const skills = await source.call("skills", world.cwd);
    const sections = await source.call("promptSections", promptInput(world.cwd, { skills }));
    const block = sections.find((s) => s.order === 50)!;
    expect(block.source).toBe("skills");
    expect(block.text).toContain("use the read tool to load its file");
    expect(block.text).toContain(
      [
        "<available_skills>",
        "  <skill>",
        "    <name>pdf-tools</name>",
        "    <description>Extract text &amp; tables from &lt;PDF&gt; files.</description>",
        `    <location>${pdfPath}</location>`,
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
    );
    expect(assemble(sections)).not.toContain("SECRET STEP");
  });

  it("leaves the skills block out without the read tool, without skills, and for disable-model-invocation skills", async () => {
    put(
      join(world.agentDir, "skills", "hidden", "SKILL.md"),
      "---\nname: hidden\ndescription: Only by /skill:hidden.\ndisable-model-invocation: true\n---\nBody\n",
    );
    const { source } = await boot();
    const skills = await source.call("skills", world.cwd);
    expect(skills.map((s) => s.name)).toEqual(["hidden"]);
    expect((await source.call("promptSections", promptInput(world.cwd, { skills }))).some((s) => s.order === 50)).toBe(
      false,
    );

    const visible = { name: "pdf-tools", description: "PDFs.", path: "/s/pdf-tools/SKILL.md", origin: "user" };
    const noRead = DEFAULT_TOOLS.filter((t) => t.name !== "read");
    expect(
      (await source.call("promptSections", promptInput(world.cwd, { skills: [visible], tools: noRead }))).some(
        (s) => s.order === 50,
      ),
    ).toBe(false);
    expect(
      (await source.call("promptSections", promptInput(world.cwd, { skills: [visible] }))).some((s) => s.order === 50),
    ).toBe(true);
    expect(
      (
        await source.call(
          "promptSections",
          promptInput(world.cwd, { skills: [visible], systemPromptOverride: "Custom." }),
        )
      ).some((s) => s.order === 50),
    ).toBe(true);
  });
});
