/**
 * What `pi config` lists: the extensions, skills, prompt templates and themes found in pi's folders — the
 * agent folder's `extensions/`, `skills/`, `prompts/`, `themes/` (User) and, in a trusted project, `.pi/`'s —
 * each with whether it loads, by the switches in settings (kit/fs/resource-overrides.ts, the rule the
 * loaders apply). The folder layout is pi's: an extension is a `*.ts`/`*.js` file or a folder with an
 * `index.ts`/`index.js`; a skill a folder with a SKILL.md (or a loose `*.md` at the top of skills/); a
 * template a `*.md` at the top of prompts/; a theme a `*.json` at the top of themes/.
 */
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { type ResourceKind, type ResourceOverrides, resourceEnabled, switchFor } from "pi-host";

/** The kinds `pi config` lists, in pi's order. */
export const LISTED_KINDS = ["extensions", "skills", "prompts", "themes"] as const satisfies readonly ResourceKind[];

/** pi's heading of each kind. */
export const KIND_LABELS: Record<(typeof LISTED_KINDS)[number], string> = {
  extensions: "Extensions",
  skills: "Skills",
  prompts: "Prompts",
  themes: "Themes",
};

/** One switchable resource. */
export interface ResourceItem {
  kind: (typeof LISTED_KINDS)[number];
  scope: "user" | "project";
  /** Absolute path: the extension entry file, the SKILL.md, the template file. */
  path: string;
  /** The folder its switch is relative to (the agent folder, or the project's `.pi`). */
  baseDir: string;
  /** What pi shows: the file name, `folder/index.ts`, or the skill's folder name. */
  name: string;
  enabled: boolean;
  /**
   * In the project's settings: "load" (`+path`), "unload" (`-path`), or "inherit" (no switch of its
   * own); undefined when the list is for the global settings.
   */
  projectState?: "load" | "unload" | "inherit";
  /** Whether it loads without a project switch: the global settings' say (a project resource: on). */
  inherited: boolean;
  /** For a resource of an installed package: which one (its switch goes into the package's entry). */
  package?: { source: string; scope: "user" | "project"; root: string };
}

/** A group of items as pi heads it: `User (<folder>/)` or `Project (.pi/)`. */
export interface ResourceGroup {
  label: string;
  scope: "user" | "project";
  items: ResourceItem[];
}

/** Lists the resources of the user folder and, when given, the project's `.pi` folder. */
export async function listResources(
  agentDir: string,
  projectDir: string | undefined,
  overrides: ResourceOverrides,
): Promise<ResourceGroup[]> {
  const groups: ResourceGroup[] = [];
  const scopes: Array<["user" | "project", string, string]> = [["user", agentDir, `User (${agentDir}/)`]];
  if (projectDir !== undefined) scopes.push(["project", projectDir, "Project (.pi/)"]);
  for (const [scope, baseDir, label] of scopes) {
    const items: ResourceItem[] = [];
    for (const kind of LISTED_KINDS) {
      const found = await FINDERS[kind](join(baseDir, kind));
      for (const path of found.sort()) {
        const inherited =
          scope === "user" ? (switchFor(overrides.user.entries[kind], overrides.user.baseDir, path) ?? true) : true;
        const own = overrides.project && switchFor(overrides.project.entries[kind], overrides.project.baseDir, path);
        items.push({
          kind,
          scope,
          path,
          baseDir,
          name: displayName(kind, baseDir, path),
          enabled: resourceEnabled(overrides, kind, path),
          inherited,
          ...(overrides.project !== undefined && {
            projectState: own === true ? "load" : own === false ? "unload" : "inherit",
          }),
        });
      }
    }
    if (items.length > 0) groups.push({ label, scope, items });
  }
  return groups;
}

const FINDERS: Record<(typeof LISTED_KINDS)[number], (dir: string) => Promise<string[]>> = {
  extensions: async (dir) => {
    const out: string[] = [];
    for (const entry of await entries(dir)) {
      if (entry.name.startsWith(".")) continue;
      if (entry.isFile() && /\.(ts|js)$/.test(entry.name)) out.push(join(dir, entry.name));
      else if (entry.isDirectory()) {
        const index = (await entries(join(dir, entry.name))).find((e) => e.isFile() && /^index\.(ts|js)$/.test(e.name));
        if (index !== undefined) out.push(join(dir, entry.name, index.name));
      }
    }
    return out;
  },
  skills: async (dir) => {
    const out: string[] = [];
    const walk = async (folder: string, top: boolean): Promise<void> => {
      const list = await entries(folder);
      if (list.some((e) => e.isFile() && e.name === "SKILL.md")) {
        out.push(join(folder, "SKILL.md"));
        return;
      }
      for (const entry of list) {
        if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
        if (entry.isDirectory()) await walk(join(folder, entry.name), false);
        else if (top && entry.isFile() && entry.name.endsWith(".md")) out.push(join(folder, entry.name));
      }
    };
    await walk(dir, true);
    return out;
  },
  prompts: async (dir) => filesEndingIn(dir, ".md"),
  themes: async (dir) => filesEndingIn(dir, ".json"),
};

/** The visible files at the top of `dir` with the ending. */
async function filesEndingIn(dir: string, ending: string): Promise<string[]> {
  return (await entries(dir))
    .filter((e) => e.isFile() && !e.name.startsWith(".") && e.name.endsWith(ending))
    .map((e) => join(dir, e.name));
}

async function entries(dir: string) {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

/** pi's display name of a resource. */
function displayName(kind: ResourceItem["kind"], baseDir: string, path: string): string {
  const parts = relative(join(baseDir, kind), path).split(/[\\/]/);
  const file = parts.at(-1)!;
  if (kind === "skills" && file === "SKILL.md" && parts.length > 1) return parts.at(-2)!;
  if (kind === "extensions" && parts.length > 1) return parts.slice(-2).join("/");
  return file;
}
