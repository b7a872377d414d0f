/**
 * Finds skills where pi finds them, in pi's order (the first skill of a name wins):
 *   1. project `<cwd>/.pi/skills/`
 *   2. project `.agents/skills/` in cwd and each ancestor up to the git repository root (the filesystem
 *      root outside a repository)
 *   3. user `<agentDir>/skills/`
 *   4. user `~/.agents/skills/`
 *   5. installed packages' skill paths (config `packages`, from their package.json `pi.skills` or
 *      `skills/` folder), origin "package:<source>"
 *   6. `--skill` paths (config `skillPaths`, files or folders), which still load with `noSkills`.
 * In a folder, a SKILL.md makes that folder one skill (nothing below it is searched); otherwise its
 * sub-folders are searched, skipping hidden ones and node_modules. Loose `*.md` files directly inside
 * `.pi/skills/`, `<agentDir>/skills/` or a --skill folder are single-file skills; the `.agents` folders
 * only hold SKILL.md skills. Two paths to one file (a link) count once. Not done: pi also honours
 * .gitignore files inside skill folders and the `skills` paths of settings.json.
 */
import { readResourceOverrides, resourceEnabled } from "pi-host";
import { basename, dirname, join } from "node:path";
import type { Skill } from "pi-host";
import { resolveUserPath } from "./user-path.js";
import type { ResourceDiagnostic } from "./diagnostics.js";
import type { FileCache } from "./file-cache.js";
import { FrontmatterError, parseFrontmatter } from "pi-host";
import { skillDescriptionProblems, skillNameProblems } from "./skill-rules.js";

/** A skill as this plugin returns it: the contract's fields plus pi's opt-out from the prompt. */
export interface LoadedSkill extends Skill {
  /** `disable-model-invocation: true`: usable as /skill:name, never listed in the system prompt. */
  disableModelInvocation?: boolean;
}

/** An installed package's resource paths (absolute), as the host's packages layer passes them. */
export interface PackageResources {
  /** The package's source, e.g. "npm:my-skills". */
  name: string;
  skills: string[];
  prompts: string[];
}

/** Where to look. */
export interface SkillSearch {
  cwd: string;
  agentDir: string;
  homeDir: string;
  skillPaths: string[];
  noSkills: boolean;
  packages?: PackageResources[];
  /** Project skills (`.pi/skills`, project `.agents/skills`) load only in a trusted project; default true. */
  includeProject?: boolean;
}

/** The skills found and the problems met on the way. */
export interface SkillScan {
  skills: LoadedSkill[];
  diagnostics: ResourceDiagnostic[];
}

type FolderMode = "pi" | "agents";

/** Finds every skill for `search`, reading files through `files`. */
export async function findSkills(files: FileCache, search: SkillSearch): Promise<SkillScan> {
  // pi config's switches (`-skills/x/SKILL.md` in settings) leave a discovered skill out.
  const overrides = await readResourceOverrides(search.agentDir, search.cwd, search.includeProject !== false);
  const scan = new SkillCollector(files, (path) => resourceEnabled(overrides, "skills", path));
  if (!search.noSkills) {
    const userAgentsDir = join(search.homeDir, ".agents", "skills");
    if (search.includeProject !== false) {
      await scan.folder(join(search.cwd, ".pi", "skills"), "pi", "project");
      for (const dir of await ancestorAgentsDirs(files, search.cwd)) {
        if (dir !== userAgentsDir) await scan.folder(dir, "agents", "project");
      }
    }
    await scan.folder(join(search.agentDir, "skills"), "pi", "user");
    await scan.folder(userAgentsDir, "agents", "user");
    for (const pkg of search.packages ?? [])
      for (const path of pkg.skills) await scan.explicitPath(path, `package:${pkg.name}`);
  }
  for (const raw of search.skillPaths) await scan.explicitPath(resolveUserPath(raw, search.cwd), "flag");
  return { skills: scan.skills, diagnostics: scan.diagnostics };
}

/** `.agents/skills` in cwd and each ancestor, nearest first, stopping at the git root. */
async function ancestorAgentsDirs(files: FileCache, cwd: string): Promise<string[]> {
  const dirs: string[] = [];
  let dir = cwd;
  for (;;) {
    dirs.push(join(dir, ".agents", "skills"));
    if ((await files.info(join(dir, ".git"))) !== undefined) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

/** Accumulates skills in discovery order, first name wins, one entry per file. */
class SkillCollector {
  readonly skills: LoadedSkill[] = [];
  readonly diagnostics: ResourceDiagnostic[] = [];
  private readonly byName = new Map<string, LoadedSkill>();
  private readonly seenFiles = new Set<string>();

  constructor(
    private readonly files: FileCache,
    /** Whether a skill found in the user or project folders is switched on. */
    private readonly switchedOn: (path: string) => boolean,
  ) {}

  /** Searches a skills folder; `mode` says whether loose .md files at its top count. */
  async folder(root: string, mode: FolderMode, origin: string): Promise<void> {
    await this.walk(root, mode, origin, true);
  }

  /** A --skill or package path: a folder to search, or one markdown file. */
  async explicitPath(path: string, origin: string): Promise<void> {
    const info = await this.files.info(path);
    if (info === undefined) this.problem(path, "skill path does not exist");
    else if (info.kind === "dir") await this.walk(path, "pi", origin, true);
    else if (info.kind === "file" && path.endsWith(".md")) await this.file(path, origin);
    else this.problem(path, "skill path is not a folder or a markdown file");
  }

  private async walk(dir: string, mode: FolderMode, origin: string, isRoot: boolean): Promise<void> {
    const names = await this.list(dir);
    if (names.includes("SKILL.md") && (await this.files.info(join(dir, "SKILL.md")))?.kind === "file") {
      await this.file(join(dir, "SKILL.md"), origin);
      return;
    }
    for (const name of names) {
      if (name.startsWith(".") || name === "node_modules") continue;
      const path = join(dir, name);
      const info = await this.files.info(path);
      if (info?.kind === "dir") await this.walk(path, mode, origin, false);
      else if (info?.kind === "file" && isRoot && mode === "pi" && name.endsWith(".md")) await this.file(path, origin);
    }
  }

  private async list(dir: string): Promise<string[]> {
    try {
      return (await this.files.list(dir)) ?? [];
    } catch (error) {
      this.problem(dir, `cannot be listed (${(error as Error).message})`);
      return [];
    }
  }

  /** Loads one skill file; a rule-breaking one is reported and skipped. */
  private async file(path: string, origin: string): Promise<void> {
    if ((origin === "user" || origin === "project") && !this.switchedOn(path)) return;
    const info = await this.files.info(path);
    if (info === undefined || this.seenFiles.has(info.identity)) return;
    this.seenFiles.add(info.identity);
    const skill = await this.parse(path, origin);
    if (skill === undefined) return;
    const winner = this.byName.get(skill.name);
    if (winner !== undefined) {
      this.problem(path, `skipped: the name "${skill.name}" is already taken by ${winner.path}`);
      return;
    }
    this.byName.set(skill.name, skill);
    this.skills.push(skill);
  }

  private async parse(path: string, origin: string): Promise<LoadedSkill | undefined> {
    let text: string | undefined;
    try {
      text = await this.files.text(path);
    } catch (error) {
      this.problem(path, `skipped: cannot be read (${(error as Error).message})`);
      return undefined;
    }
    if (text === undefined) return undefined;
    let frontmatter: Record<string, unknown>;
    try {
      frontmatter = parseFrontmatter(text).frontmatter;
    } catch (error) {
      if (!(error instanceof FrontmatterError)) throw error;
      this.problem(path, `skipped: invalid frontmatter (${error.message})`);
      return undefined;
    }
    // The folder names a SKILL.md skill; a single-file skill is named by its file.
    const expected = basename(path) === "SKILL.md" ? basename(dirname(path)) : basename(path, ".md");
    const name = frontmatter.name ?? expected;
    const problems = [...skillNameProblems(name, expected), ...skillDescriptionProblems(frontmatter.description)];
    if (problems.length > 0) {
      this.problem(path, `skipped: ${problems.join("; ")}`);
      return undefined;
    }
    const skill: LoadedSkill = { name: name as string, description: frontmatter.description as string, path, origin };
    if (frontmatter["disable-model-invocation"] === true) skill.disableModelInvocation = true;
    return skill;
  }

  private problem(path: string, message: string): void {
    this.diagnostics.push({ resource: "skill", path, message });
  }
}
