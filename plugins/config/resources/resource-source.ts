/**
 * The ResourcesContract implementation over the file system. Every call reads what it needs through
 * one FileCache, so files are read lazily (setup does nothing) and re-read only when they changed.
 * Problems never fail a call; they go to the diagnostic reporter.
 *
 * Sections, in order: 10 preamble (--system-prompt, else SYSTEM.md, else the default), 20 tools,
 * 30 APPEND_SYSTEM.md then --append-system-prompt, 40 project context files, 50 skills, 60 date and cwd.
 * As in pi, a replaced preamble replaces the tools section too (the user's prompt is the whole opening;
 * context files, skills and the date are still added), and skills are listed only when the read tool
 * is active, since reading the skill file is how a skill is used.
 */
import { basename } from "node:path";
import type { PromptInput, PromptSection, PromptTemplate, ResourceSource, Skill } from "pi-host";
import { findContextFiles } from "./context-files.js";
import { DEFAULT_PREAMBLE } from "./default-preamble.js";
import { DiagnosticReporter, type ResourceDiagnostic } from "./diagnostics.js";
import { FileCache, type FileAccess } from "./file-cache.js";
import { appendPromptFiles, flagText, systemPromptFile } from "./prompt-files.js";
import {
  CONTEXT_HEADING,
  contextFileText,
  environmentSectionText,
  SECTION_ORDER,
  skillsSectionText,
  toolsSectionText,
} from "./prompt-sections.js";
import { findSkills, type LoadedSkill, type PackageResources } from "./skills.js";
import { findTemplates } from "./templates.js";

/** What the source reads and how. */
export interface FileResourceOptions {
  agentDir: string;
  /** For `~/.agents/skills`. */
  homeDir: string;
  /** --skill paths: loaded even with `noSkills`. */
  skillPaths: string[];
  noSkills: boolean;
  /** --prompt-template paths: loaded even with `noTemplates`. */
  templatePaths: string[];
  noTemplates: boolean;
  noContextFiles: boolean;
  /** Installed packages' skill and template paths, searched after the user's folders. */
  packages?: PackageResources[];
  /** Defaults to the real file system; tests pass a counting one. */
  files?: FileAccess;
  /** Receives each new problem once. */
  report?: (diagnostic: ResourceDiagnostic) => void;
  /**
   * Whether the project's protected files for `cwd` apply (project trust): `.pi/SYSTEM.md`,
   * `.pi/APPEND_SYSTEM.md`, `.pi/skills`, `.pi/prompts`, project `.agents/skills`. Context files
   * (AGENTS.md, CLAUDE.md) load either way, as in pi. The plugin always passes the host's decision;
   * left out (the source used directly, as tests do) they apply.
   */
  projectApplies?: (cwd: string) => Promise<boolean>;
}

/** Prompt sections, skills and templates from pi's files. */
export class FileResourceSource implements ResourceSource {
  private readonly files: FileCache;
  private readonly reporter: DiagnosticReporter;

  constructor(private readonly options: FileResourceOptions) {
    this.files = new FileCache(options.files);
    this.reporter = new DiagnosticReporter(options.report ?? (() => undefined));
  }

  async promptSections(input: PromptInput): Promise<PromptSection[]> {
    const { cwd } = input;
    const { agentDir } = this.options;
    const diagnostics: ResourceDiagnostic[] = [];
    const sections: PromptSection[] = [];

    const override =
      input.systemPromptOverride === undefined
        ? undefined
        : await flagText(this.files, input.systemPromptOverride, cwd, "--system-prompt", diagnostics);
    const project = await this.projectApplies(cwd);
    const preamble = override ?? (await systemPromptFile(this.files, cwd, agentDir, diagnostics, project));
    if (preamble !== undefined) {
      sections.push({ order: SECTION_ORDER.preamble, source: preamble.source, text: preamble.text });
    } else {
      sections.push({ order: SECTION_ORDER.preamble, source: "default preamble", text: DEFAULT_PREAMBLE });
      sections.push({ order: SECTION_ORDER.tools, source: "tools", text: toolsSectionText(input.tools) });
    }

    for (const part of await appendPromptFiles(this.files, cwd, agentDir, diagnostics, project)) {
      sections.push({ order: SECTION_ORDER.append, source: part.source, text: part.text });
    }
    for (const value of input.appendSystemPrompt ?? []) {
      const part = await flagText(this.files, value, cwd, "--append-system-prompt", diagnostics);
      sections.push({ order: SECTION_ORDER.append, source: part.source, text: part.text });
    }

    if (!this.options.noContextFiles) {
      const context = await findContextFiles(this.files, cwd, agentDir);
      diagnostics.push(...context.diagnostics);
      if (context.files.length > 0)
        sections.push({ order: SECTION_ORDER.context, source: "project context", text: CONTEXT_HEADING });
      for (const file of context.files) {
        sections.push({
          order: SECTION_ORDER.context,
          source: `${basename(file.path)}: ${file.path}`,
          text: contextFileText(file),
        });
      }
    }

    const skillsText = input.tools.some((t) => t.name === "read")
      ? skillsSectionText(input.skills as LoadedSkill[])
      : "";
    if (skillsText !== "") sections.push({ order: SECTION_ORDER.skills, source: "skills", text: skillsText });

    sections.push({
      order: SECTION_ORDER.environment,
      source: "environment",
      text: environmentSectionText(cwd, input.now),
    });
    this.reporter.update(`prompt ${cwd}`, diagnostics);
    return sections;
  }

  async skills(cwd: string): Promise<Skill[]> {
    const { agentDir, homeDir, skillPaths, noSkills, packages = [] } = this.options;
    const includeProject = await this.projectApplies(cwd);
    const scan = await findSkills(this.files, {
      cwd,
      agentDir,
      homeDir,
      skillPaths,
      noSkills,
      packages,
      includeProject,
    });
    this.reporter.update(`skills ${cwd}`, scan.diagnostics);
    return scan.skills;
  }

  async templates(cwd: string): Promise<PromptTemplate[]> {
    const { agentDir, templatePaths, noTemplates, packages = [] } = this.options;
    const includeProject = await this.projectApplies(cwd);
    const scan = await findTemplates(this.files, {
      cwd,
      agentDir,
      templatePaths,
      noTemplates,
      packages,
      includeProject,
    });
    this.reporter.update(`templates ${cwd}`, scan.diagnostics);
    return scan.templates;
  }

  private async projectApplies(cwd: string): Promise<boolean> {
    return this.options.projectApplies === undefined || (await this.options.projectApplies(cwd));
  }
}
