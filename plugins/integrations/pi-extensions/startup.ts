/**
 * pi 1.6.0's startup events that change what loads:
 *
 *   project_trust      → user and command-line extensions decide whether an untrusted project's own
 *                        `.pi/extensions/` load in this process (the first "yes" or "no" wins);
 *   resources_discover → after `session_start`, handlers return skill and prompt-template paths, which
 *                        this plugin then offers as a resource source (skills for `/skill:name`,
 *                        templates for `/name`).
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, extname, join, resolve } from "node:path";
import type { PromptSection, PromptTemplate, ResourceSource, Skill } from "pi-host";
import type { Discovery, ExtensionLocation } from "./discover.js";
import type { ExtensionRuntime } from "./runtime.js";

/** The project's extensions the untrusted discovery left out. */
export async function untrustedProjectExtensions(
  find: (trusted: boolean) => Promise<Discovery>,
  loaded: ExtensionLocation[],
): Promise<ExtensionLocation[]> {
  const all = await find(true);
  return all.found.filter((l) => l.scope === "project" && !loaded.some((k) => k.path === l.path));
}

/** Asks `project_trust` handlers; "undecided" when none decides. `remember` is not saved by this plugin. */
export async function decideProjectTrust(runtime: ExtensionRuntime, cwd: string): Promise<"yes" | "no" | "undecided"> {
  const ui = runtime.context().ui;
  const ctx = {
    cwd,
    mode: runtime.mode(),
    get hasUI() {
      return runtime.ui().hasUI();
    },
    ui: { select: ui.select, confirm: ui.confirm, input: ui.input, notify: ui.notify },
  };
  for (const { extension, handler } of runtime.handlers("project_trust")) {
    try {
      const result = (await handler({ type: "project_trust", cwd }, ctx)) as { trusted?: string; remember?: boolean };
      if (result?.trusted === "yes" || result?.trusted === "no") {
        if (result.remember === true)
          runtime.notice(
            "warning",
            `extension ${extension.path}: project_trust: "remember" is not saved here; run \`pi trust\` to keep the decision`,
          );
        return result.trusted;
      }
    } catch (error) {
      runtime.report(extension, "project_trust", error);
    }
  }
  return "undecided";
}

/** The paths `resources_discover` handlers returned, as a resource source. */
export class ResourcePaths {
  private skillPaths: string[] = [];
  private promptPaths: string[] = [];

  /** Runs the handlers and keeps what they return (relative paths start at the working folder). */
  async discover(runtime: ExtensionRuntime, reason: "startup" | "reload"): Promise<void> {
    const cwd = runtime.cwd;
    const skills: string[] = [];
    const prompts: string[] = [];
    const ctx = runtime.context();
    for (const { extension, handler } of runtime.handlers("resources_discover")) {
      try {
        const result = (await handler({ type: "resources_discover", cwd, reason }, ctx)) as
          | { skillPaths?: unknown; promptPaths?: unknown; themePaths?: unknown }
          | undefined;
        skills.push(...strings(result?.skillPaths).map((p) => userPath(p, cwd)));
        prompts.push(...strings(result?.promptPaths).map((p) => userPath(p, cwd)));
        const themes = strings(result?.themePaths).map((p) => userPath(p, cwd));
        // Themes are the TUI's; RPC, print and JSON mode show none, as under pi.
        const app = runtime.tui.app();
        if (themes.length > 0 && app !== undefined)
          for (const problem of app.addThemes(themes))
            runtime.notice("warning", `extension ${extension.path}: resources_discover: ${problem}`);
      } catch (error) {
        runtime.report(extension, "resources_discover", error);
      }
    }
    this.skillPaths = skills;
    this.promptPaths = prompts;
    if (skills.length + prompts.length > 0) await runtime.refreshResourceCommands();
  }

  /** The resource source over the discovered paths. */
  source(): ResourceSource {
    return {
      promptSections: async (): Promise<PromptSection[]> => [],
      skills: async (): Promise<Skill[]> => {
        const out: Skill[] = [];
        for (const path of this.skillPaths) out.push(...(await skillsAt(path)));
        return out;
      },
      templates: async (): Promise<PromptTemplate[]> => {
        const out: PromptTemplate[] = [];
        for (const path of this.promptPaths) out.push(...(await templatesAt(path)));
        return out;
      },
    };
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
}

function userPath(path: string, cwd: string): string {
  if (path === "~" || path.startsWith("~/")) return join(homedir(), path.slice(1));
  return resolve(cwd, path);
}

/** Frontmatter fields (`key: value` lines between `---` lines) and the body after them. */
function frontmatter(text: string): { fields: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (match === null) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0)
      fields[line.slice(0, colon).trim()] = line
        .slice(colon + 1)
        .trim()
        .replace(/^["']|["']$/g, "");
  }
  return { fields, body: text.slice(match[0].length) };
}

async function isFolder(path: string): Promise<boolean | undefined> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => undefined,
  );
}

/** A SKILL.md file, or a folder whose subfolders hold SKILL.md files (pi's skill layout). */
async function skillsAt(path: string): Promise<Skill[]> {
  const folder = await isFolder(path);
  if (folder === undefined) return [];
  const files = folder ? await skillFiles(path) : [path];
  const out: Skill[] = [];
  for (const file of files) {
    const { fields } = frontmatter(await readFile(file, "utf8").catch(() => ""));
    const name = fields.name ?? basename(resolve(file, ".."));
    if (fields.description) out.push({ name, description: fields.description, path: file, origin: "extension" });
  }
  return out;
}

async function skillFiles(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...(await skillFiles(path)));
    else if (entry.name === "SKILL.md") out.push(path);
  }
  return out;
}

/** A template file, or the `*.md` files of a folder; the name is the file name without `.md`. */
async function templatesAt(path: string): Promise<PromptTemplate[]> {
  const folder = await isFolder(path);
  if (folder === undefined) return [];
  const files = folder ? (await readdir(path)).filter((n) => extname(n) === ".md").map((n) => join(path, n)) : [path];
  const out: PromptTemplate[] = [];
  for (const file of files) {
    const { fields, body } = frontmatter(await readFile(file, "utf8").catch(() => ""));
    const description =
      fields.description ??
      body
        .split("\n")
        .find((l) => l.trim() !== "")
        ?.trim() ??
      "";
    out.push({ name: basename(file, ".md"), description, body, path: file, origin: "extension" });
  }
  return out;
}
