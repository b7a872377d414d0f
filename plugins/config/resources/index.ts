/**
 * The resources plugin: pi's files that shape the agent without being code (ResourcesContract) — the
 * system prompt's sections (default preamble or SYSTEM.md or --system-prompt, tools, APPEND_SYSTEM.md,
 * AGENTS.md/CLAUDE.md context, skills, date and cwd), skills (SKILL.md) and prompt templates. Setup only
 * declares; files are read when a turn asks, and re-read only when they changed. Skipped skills and
 * other problems are emitted as RESOURCES_DIAGNOSTIC_EVENT on the kernel bus. It also provides the
 * prompt expander: which slash command a `/name` line runs, and `/skill:name` and `/template` expansion.
 */
import { homedir } from "node:os";
import { Type } from "@sinclair/typebox";
import { HostEnvironmentContract, projectFilesApply, readHostEnvironment } from "pi-host";
import { CommandContract, PromptExpanderContract, ResourcesContract } from "pi-host";
import { agentDir, definePlugin } from "pi-host";
import { RESOURCES_DIAGNOSTIC_EVENT } from "./diagnostics.js";
import { createPromptExpander } from "./prompt-expansion.js";
import { FileResourceSource } from "./resource-source.js";

export { RESOURCES_DIAGNOSTIC_EVENT, type ResourceDiagnostic } from "./diagnostics.js";

export default definePlugin({
  id: "resources",
  version: "1.0.0",
  description: "System prompt sections, AGENTS.md/CLAUDE.md, SYSTEM.md, skills and prompt templates from pi's folders",
  provides: [ResourcesContract, PromptExpanderContract],
  requires: [
    // The host's project-trust decision (without it project SYSTEM.md, skills and prompts stay out), its agent
    // folder, the run's --skill / --no-skills / ... flags and the installed packages' skills and templates.
    { contract: HostEnvironmentContract, optional: true },
    // Expanding a prompt: every resource source (this one and any other plugin's) and the slash commands.
    { contract: ResourcesContract },
    { contract: CommandContract },
  ],
  config: Type.Object({
    /** Folder holding skills/, prompts/, AGENTS.md, SYSTEM.md; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
    /** --skill: SKILL.md files or folders to search, relative to cwd; loaded even with noSkills. */
    skillPaths: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** --no-skills: skip skill discovery (skillPaths still load). */
    noSkills: Type.Boolean({ default: false }),
    /** --prompt-template: template files or folders, relative to cwd; loaded even with noTemplates. */
    templatePaths: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** --no-prompt-templates: skip template discovery (templatePaths still load). */
    noTemplates: Type.Boolean({ default: false }),
    /** --no-context-files: leave AGENTS.md / CLAUDE.md out of the prompt. */
    noContextFiles: Type.Boolean({ default: false }),
    /** More packages' skill and template paths (absolute); the host's installed packages come on top. */
    packages: Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1 }),
        skills: Type.Array(Type.String({ minLength: 1 })),
        prompts: Type.Array(Type.String({ minLength: 1 })),
      }),
      { default: [] },
    ),
  }),
  setup(ctx) {
    const configured = ctx.config;
    const host = ctx.use(HostEnvironmentContract);
    // Read when asked: the host's handle answers only once the boot has committed. The run's flags beat
    // this plugin's config; the installed packages' skills and templates come after the configured ones.
    const environment = () => readHostEnvironment(host);
    const flags = () => environment()?.flags ?? {};
    ctx.provide(
      ResourcesContract,
      new FileResourceSource({
        get skillPaths() {
          return flags().skillPaths ?? configured.skillPaths;
        },
        get noSkills() {
          return flags().noSkills ?? configured.noSkills;
        },
        get templatePaths() {
          return flags().templatePaths ?? configured.templatePaths;
        },
        get noTemplates() {
          return flags().noTemplates ?? configured.noTemplates;
        },
        get noContextFiles() {
          return flags().noContextFiles ?? configured.noContextFiles;
        },
        get packages() {
          return [...configured.packages, ...(environment()?.packages?.resources ?? [])];
        },
        get agentDir() {
          return agentDir(configured.agentDir ?? environment()?.agentDir);
        },
        homeDir: homedir(),
        projectApplies: (cwd) => projectFilesApply(host, cwd),
        report: (diagnostic) => {
          // A call admitted before a reload may finish after this generation retired; its news is stale.
          if (!ctx.signal.aborted) ctx.emit(RESOURCES_DIAGNOSTIC_EVENT, diagnostic);
        },
      }),
    );
    const sources = ctx.useAll(ResourcesContract);
    const commands = ctx.useAll(CommandContract);
    ctx.provide(
      PromptExpanderContract,
      createPromptExpander({
        sources: () => sources.list(),
        // Command providers register one slot per command, keyed by its name.
        hasCommand: (name) => commands.find(name) !== undefined,
      }),
    );
  },
});
