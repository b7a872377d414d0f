/**
 * The themes of this run, found as pi 1.6.0 finds them: `<agent dir>/themes/`, the trusted project's
 * `.pi/themes/`, the `themes` setting and installed packages (none of these with `--no-themes`), and
 * `--theme` paths (always). A path is a theme file or a folder of `*.json` themes. Which theme shows:
 * `--use-theme`, else the `theme` setting, else `system`; `light/dark` picks by the terminal's background.
 * The active theme, when it is `<agent dir>/themes/<name>.json`, reloads when the file changes (as in pi);
 * a broken save keeps the last good colours.
 */
import { existsSync, readdirSync, readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { Theme } from "./theme.js";
import { DARK_THEME, LIGHT_THEME } from "./theme-builtin.js";
import { parseTheme, SYSTEM_THEME, ThemeError, type ParsedTheme } from "./theme-parse.js";
import { reportedColors, reportedColorsRevision, systemTheme, terminalAppearance } from "./theme-system.js";
import { fitSystemTheme } from "./theme-system-fit.js";

/** Where this run's themes come from (paths absolute). */
export interface ThemeSources {
  agentDir: string;
  /** The trusted project's folder, whose `.pi/themes/` is read; undefined when the project is not trusted. */
  projectDir?: string;
  /** `--no-themes`: only `themePaths` load. */
  noThemes?: boolean;
  /** `--theme` paths. */
  themePaths?: string[];
  /** The `themes` setting's paths. */
  settingPaths?: string[];
  /** Installed packages' theme files and folders. */
  packagePaths?: string[];
  /** Whether a theme found in the agent's or the project's `themes/` is switched on (pi config). */
  switchedOn?: (file: string) => boolean;
  env?: NodeJS.ProcessEnv;
  /** Whether the terminal draws 24-bit colour (the `terminal.trueColor` setting, else detected); default true. */
  trueColor?: boolean;
}

interface Found {
  file: string;
  parsed: ParsedTheme;
  revision: number;
}

const BUILTIN = new Set([SYSTEM_THEME, "dark", "light"]);

/** The themes of one run: what was found, the loaded Theme objects, and the hot-reload watcher. */
export class ThemeRegistry {
  private readonly found = new Map<string, Found>();
  private readonly cache = new Map<string, Theme>();
  private watcher: { name: string; close(): void } | undefined = undefined;
  /** Called when the watched theme file changed and parsed (the plugin asks for a frame). */
  onChange: (() => void) | undefined = undefined;
  /** One line per theme file that could not be used (or whose name was taken), in discovery order. */
  readonly problems: string[] = [];

  constructor(readonly sources: ThemeSources) {
    const folders = sources.noThemes
      ? []
      : [
          join(sources.agentDir, "themes"),
          ...(sources.projectDir !== undefined ? [join(sources.projectDir, ".pi", "themes")] : []),
        ];
    for (const path of folders) this.add(path, false, sources.switchedOn);
    const listed = sources.noThemes ? [] : [...(sources.settingPaths ?? []), ...(sources.packagePaths ?? [])];
    for (const path of listed) this.add(path, false);
    for (const path of sources.themePaths ?? []) this.add(path, true);
  }

  /** The names a user can choose, built-ins first. */
  names(): string[] {
    return [...BUILTIN, ...[...this.found.keys()].sort()];
  }

  /** The theme named `name`; throws one line (a ThemeError) when there is none or its file is broken. */
  load(name: string): Theme {
    if (this.onChange !== undefined) this.watch(name, this.onChange);
    // The system theme follows the colours the terminal reported, which arrive after start.
    const key = name === SYSTEM_THEME ? `${name}#${reportedColorsRevision()}` : name;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    // Failures are not kept: a theme file saved after a failed /theme loads on the next try.
    const theme = this.build(name);
    this.cache.set(key, theme);
    return theme;
  }

  /** The theme name to show: `--use-theme`, else the setting, else system; a `light/dark` pair by appearance. */
  select(useTheme: string | undefined, setting: string | undefined): string {
    const chosen = useTheme ?? setting ?? SYSTEM_THEME;
    const pair = chosen.split("/").map((p) => p.trim());
    if (pair.length !== 2 || pair.some((p) => p === "")) return chosen;
    return terminalAppearance(this.sources.env) === "light" ? pair[0]! : pair[1]!;
  }

  /**
   * Watches the theme `name` when it is `<agent dir>/themes/<name>.json` (pi hot-reloads only those):
   * a save that parses replaces its colours and calls `changed`. Watching another theme stops this one.
   */
  watch(name: string, changed: () => void): void {
    if (this.watcher?.name === name) return;
    this.unwatch();
    const dir = join(this.sources.agentDir, "themes");
    const file = join(dir, `${name}.json`);
    if (BUILTIN.has(name) || this.found.get(name)?.file !== file || !existsSync(file)) return;
    let timer: NodeJS.Timeout | undefined;
    let fsWatcher: FSWatcher;
    try {
      fsWatcher = watch(dir, (_event, changedName) => {
        if (changedName !== null && changedName !== `${name}.json`) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (this.reload(name, file)) changed();
        }, 100);
      });
    } catch {
      return;
    }
    fsWatcher.on("error", () => this.unwatch());
    this.watcher = {
      name,
      close: () => {
        clearTimeout(timer);
        fsWatcher.close();
      },
    };
  }

  /** Stops watching (the plugin's generation ends). */
  unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private reload(name: string, file: string): boolean {
    const before = this.found.get(name);
    let parsed: ParsedTheme;
    try {
      parsed = readTheme(file);
    } catch {
      return false;
    }
    if (parsed.name !== name) return false;
    this.found.set(name, { file, parsed, revision: (before?.revision ?? 0) + 1 });
    this.cache.delete(name);
    return true;
  }

  private build(name: string): Theme {
    const trueColor = this.sources.trueColor;
    if (name === SYSTEM_THEME) {
      // A reported background: colours fitted to it (and to the palette, when reported); else ANSI indices.
      const revision = reportedColorsRevision();
      const fitted = fitSystemTheme(reportedColors());
      if (fitted !== undefined) return new Theme(fitted, { revision, trueColor });
      const { theme, dim } = systemTheme(this.sources.env);
      return new Theme(theme, { dim, revision, trueColor });
    }
    if (name === "dark") return new Theme(DARK_THEME, { trueColor });
    if (name === "light") return new Theme(LIGHT_THEME, { trueColor });
    const found = this.found.get(name);
    if (found !== undefined) return new Theme(found.parsed, { file: found.file, revision: found.revision, trueColor });
    // A theme saved in the user's folder after start-up still loads by name.
    const file = join(this.sources.agentDir, "themes", `${name}.json`);
    if (!this.sources.noThemes && existsSync(file)) {
      this.add(file, true);
      const added = this.found.get(name);
      if (added !== undefined) return new Theme(added.parsed, { file, trueColor });
      throw new ThemeError(this.problems.at(-1) ?? `theme ${file}: its "name" is not "${name}"`);
    }
    throw new ThemeError(`theme "${name}": no such theme (themes here: ${this.names().join(", ")})`);
  }

  /** Adds themes found later (pi extensions' `resources_discover` themePaths); returns the problems they had. */
  addPaths(paths: readonly string[]): string[] {
    const before = this.problems.length;
    for (const path of paths) this.add(path, true);
    return this.problems.slice(before);
  }

  /** Adds a theme file, or every `*.json` of a folder; a missing discovered folder is no problem. */
  private add(path: string, given: boolean, switchedOn?: (file: string) => boolean): void {
    let files: string[];
    try {
      files = statSync(path).isDirectory()
        ? readdirSync(path)
            .filter((f) => f.endsWith(".json"))
            .sort()
            .map((f) => join(path, f))
        : [path];
    } catch (error) {
      if (given || !isMissing(error))
        this.problems.push(`theme ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      return;
    }
    for (const file of files) {
      if (switchedOn !== undefined && !switchedOn(file)) continue;
      let parsed: ParsedTheme;
      try {
        parsed = readTheme(file);
      } catch (error) {
        this.problems.push((error as Error).message);
        continue;
      }
      const taken = BUILTIN.has(parsed.name) ? "built in" : this.found.get(parsed.name)?.file;
      if (taken !== undefined) {
        this.problems.push(`theme ${file}: name "${parsed.name}" is already taken (${taken}); this file is ignored`);
        continue;
      }
      this.found.set(parsed.name, { file, parsed, revision: 0 });
    }
  }
}

/** The `themes` setting's entries as absolute paths (`~/` is the home folder; relative: the agent folder). */
export function settingThemePaths(value: unknown, agentDir: string): string[] {
  if (!Array.isArray(value)) return [];
  return (
    value
      // `+path`, `-path` and `!glob` entries switch discovered themes (pi config); they add none.
      .filter((p): p is string => typeof p === "string" && p.trim() !== "" && !"+-!".includes(p[0]!))
      .map((p) => (p.startsWith("~/") ? join(homedir(), p.slice(2)) : resolve(agentDir, p)))
  );
}

/** Reads and checks one theme file; throws one line naming the file. */
function readTheme(file: string): ParsedTheme {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ThemeError(
      `theme ${file}: ${code !== undefined ? `cannot read it (${code})` : `not valid JSON (${(error as Error).message})`}`,
    );
  }
  return parseTheme(file, json);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

let configured: ThemeRegistry | undefined;
const defaults = new Map<string, ThemeRegistry>();

/** Makes `registry` the run's themes (the tui plugin does this once it knows the flags and settings). */
export function useThemes(registry: ThemeRegistry): void {
  configured?.unwatch();
  configured = registry;
}

/** The run's themes; before the plugin configured them (or in a test), the agent folder's themes. */
export function currentThemes(agentDir: string): ThemeRegistry {
  if (configured !== undefined && configured.sources.agentDir === agentDir) return configured;
  let registry = defaults.get(agentDir);
  if (registry === undefined) {
    registry = new ThemeRegistry({ agentDir });
    defaults.set(agentDir, registry);
  }
  return registry;
}
