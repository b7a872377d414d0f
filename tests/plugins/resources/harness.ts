/** Helpers for the resources plugin tests: a temp world (agent folder, home, a git project) and a booted plugin. */
import { hostEnvironmentEntry } from "../../support/host-environment.js";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  ResourcesContract,
  type PromptInput,
  type PromptSection,
  type ResourceSource,
} from "../../../contracts/resources.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import resourcesPlugin, {
  RESOURCES_DIAGNOSTIC_EVENT,
  type ResourceDiagnostic,
} from "../../../plugins/config/resources/index.js";

/** Folders of one test world. `cwd` is `repo/packages/app`, inside a git repository at `repo`. */
export interface World {
  root: string;
  agentDir: string;
  home: string;
  repo: string;
  cwd: string;
}

/** A fresh world on disk; HOME points at its home folder until `restoreHome()`. */
export function makeWorld(): World {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-resources-")));
  const world = {
    root,
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    repo: join(root, "repo"),
    cwd: join(root, "repo", "packages", "app"),
  };
  for (const dir of [world.agentDir, world.home, join(world.repo, ".git"), world.cwd])
    mkdirSync(dir, { recursive: true });
  return world;
}

/** Writes `text` at `path`, creating folders. */
export function put(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A SKILL.md text with the given frontmatter lines. */
export function skillText(frontmatter: Record<string, string>, body = "# Instructions\n\nDo the thing."): string {
  return `---\n${Object.entries(frontmatter)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\n${body}\n`;
}

/** A booted resources plugin and what it reported. */
export interface Booted {
  kernel: Kernel;
  source: Handle<ResourceSource>;
  diagnostics: ResourceDiagnostic[];
}

/** Boots the plugin with `config` (agentDir filled in from the world) and collects its diagnostics. */
export async function bootResources(world: World, config: Record<string, unknown> = {}): Promise<Booted> {
  const kernel = new Kernel();
  const diagnostics: ResourceDiagnostic[] = [];
  kernel.on(RESOURCES_DIAGNOSTIC_EVENT, (d: ResourceDiagnostic) => diagnostics.push(d));
  // The world's project files are trusted, as after `pi trust` (tests/security covers the untrusted case).
  const boot = await kernel.boot([
    hostEnvironmentEntry(world.root, world.agentDir),
    {
      id: "resources",
      source: { kind: "inline", label: "resources", definition: resourcesPlugin },
      config: { agentDir: world.agentDir, ...config },
    },
  ]);
  if (boot.errors.length > 0 || boot.configErrors.length > 0) throw new Error(JSON.stringify(boot));
  const [source] = kernel.useAll(ResourcesContract).list();
  return { kernel, source, diagnostics };
}

/** The tools of a default pi run, with guidelines on two of them. */
export const DEFAULT_TOOLS: PromptInput["tools"] = [
  {
    name: "read",
    description: "Read the contents of a file.\nSupports text and images.",
    guidelines: ["Use read to look at files, not cat or sed."],
  },
  { name: "bash", description: "Execute a bash command in the current working directory." },
  {
    name: "edit",
    description: "Edit a file by replacing exact text.",
    guidelines: [
      "Use edit for precise changes; the old text must match exactly.",
      "Use read to look at files, not cat or sed.",
    ],
  },
  { name: "write", description: "Create or overwrite a file." },
];

/** A prompt input for `cwd` with the default tools, no skills, at a fixed date. */
export function promptInput(cwd: string, extra: Partial<PromptInput> = {}): PromptInput {
  return { cwd, tools: DEFAULT_TOOLS, skills: [], now: new Date(2025, 2, 7, 15, 30), ...extra };
}

/** The sections for `input`, as a list of `[order, source]` pairs (for order assertions). */
export function outline(sections: PromptSection[]): Array<[number, string]> {
  return sections.map((s) => [s.order, s.source]);
}

/** The whole prompt as the agent-session plugin assembles it. */
export function assemble(sections: PromptSection[]): string {
  return [...sections]
    .sort((a, b) => a.order - b.order)
    .map((s) => s.text.trim())
    .filter((t) => t !== "")
    .join("\n\n");
}
