/**
 * Finds prompt templates where pi finds them, in pi's order (the first template of a name wins):
 * project `<cwd>/.pi/prompts/`, user `<agentDir>/prompts/`, installed packages' prompt paths (config
 * `packages`), then `--prompt-template` paths (config `templatePaths`, files or folders), which still
 * load with `noTemplates`. Folders are not searched
 * recursively. A template is `<name>.md`, invoked as `/name`; its optional frontmatter gives
 * `description` (else the body's first non-empty line, cut at 60 characters) and `argument-hint`.
 * Not done: pi also reads the `prompts` paths of settings.json.
 */
import { basename, join } from "node:path";
import type { PromptTemplate } from "pi-host";
import { resolveUserPath } from "./user-path.js";
import type { ResourceDiagnostic } from "./diagnostics.js";
import type { PackageResources } from "./skills.js";
import type { FileCache } from "./file-cache.js";
import { FrontmatterError, parseFrontmatter, readResourceOverrides, resourceEnabled } from "pi-host";

/** A template as this plugin returns it: the contract's fields plus pi's autocomplete hint. */
export interface LoadedTemplate extends PromptTemplate {
  /** `argument-hint`, e.g. "<PR-URL>", shown before the description in autocomplete. */
  argumentHint?: string;
}

/** Where to look. */
export interface TemplateSearch {
  cwd: string;
  agentDir: string;
  templatePaths: string[];
  noTemplates: boolean;
  packages?: PackageResources[];
  /** The project's `.pi/prompts` loads only in a trusted project; default true. */
  includeProject?: boolean;
}

/** The templates found and the problems met on the way. */
export interface TemplateScan {
  templates: LoadedTemplate[];
  diagnostics: ResourceDiagnostic[];
}

const DESCRIPTION_FROM_BODY_MAX = 60;

/** Finds every prompt template for `search`, reading files through `files`. */
export async function findTemplates(files: FileCache, search: TemplateSearch): Promise<TemplateScan> {
  // pi config's switches (`-prompts/x.md` in settings) leave a discovered template out.
  const overrides = await readResourceOverrides(search.agentDir, search.cwd, search.includeProject !== false);
  const found: LoadedTemplate[] = [];
  const diagnostics: ResourceDiagnostic[] = [];
  const problem = (path: string, message: string): void =>
    void diagnostics.push({ resource: "template", path, message });

  const loadFile = async (path: string, origin: string): Promise<void> => {
    const template = await loadTemplate(files, path, origin, problem);
    if (template === undefined) return;
    const winner = found.find((t) => t.name === template.name);
    if (winner !== undefined) problem(path, `skipped: the name "/${template.name}" is already taken by ${winner.path}`);
    else found.push(template);
  };
  const loadFolder = async (dir: string, origin: string): Promise<void> => {
    let names: string[];
    try {
      names = (await files.list(dir)) ?? [];
    } catch (error) {
      problem(dir, `cannot be listed (${(error as Error).message})`);
      return;
    }
    for (const name of names) {
      if (name.startsWith(".") || !name.endsWith(".md")) continue;
      const discovered = origin === "user" || origin === "project";
      if (discovered && !resourceEnabled(overrides, "prompts", join(dir, name))) continue;
      if ((await files.info(join(dir, name)))?.kind === "file") await loadFile(join(dir, name), origin);
    }
  };

  if (!search.noTemplates) {
    if (search.includeProject !== false) await loadFolder(join(search.cwd, ".pi", "prompts"), "project");
    await loadFolder(join(search.agentDir, "prompts"), "user");
  }
  const loadPath = async (path: string, origin: string): Promise<void> => {
    const info = await files.info(path);
    if (info === undefined) problem(path, "prompt template path does not exist");
    else if (info.kind === "dir") await loadFolder(path, origin);
    else if (info.kind === "file" && path.endsWith(".md")) await loadFile(path, origin);
    else problem(path, "prompt template path is not a folder or a markdown file");
  };
  if (!search.noTemplates)
    for (const pkg of search.packages ?? [])
      for (const path of pkg.prompts) await loadPath(path, `package:${pkg.name}`);
  for (const raw of search.templatePaths) await loadPath(resolveUserPath(raw, search.cwd), "flag");
  return { templates: found, diagnostics };
}

async function loadTemplate(
  files: FileCache,
  path: string,
  origin: string,
  problem: (path: string, message: string) => void,
): Promise<LoadedTemplate | undefined> {
  let text: string | undefined;
  try {
    text = await files.text(path);
  } catch (error) {
    problem(path, `skipped: cannot be read (${(error as Error).message})`);
    return undefined;
  }
  if (text === undefined) return undefined;
  let document;
  try {
    document = parseFrontmatter(text);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    problem(path, `skipped: invalid frontmatter (${error.message})`);
    return undefined;
  }
  const { frontmatter, body } = document;
  const template: LoadedTemplate = {
    name: basename(path, ".md"),
    description:
      typeof frontmatter.description === "string" && frontmatter.description.trim() !== ""
        ? frontmatter.description
        : descriptionFromBody(body),
    body,
    path,
    origin,
  };
  if (typeof frontmatter["argument-hint"] === "string" && frontmatter["argument-hint"] !== "")
    template.argumentHint = frontmatter["argument-hint"];
  return template;
}

/** pi's fallback description: the first non-empty line (trimmed), cut at 60 characters with "...". */
function descriptionFromBody(body: string): string {
  const first = body
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim();
  if (first === undefined) return "";
  return first.length > DESCRIPTION_FROM_BODY_MAX ? `${first.slice(0, DESCRIPTION_FROM_BODY_MAX)}...` : first;
}
