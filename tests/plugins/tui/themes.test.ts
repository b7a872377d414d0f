/**
 * Themes as pi 1.6.0 reads them: the built-in dark and light themes give pi's own colours (checked
 * against pi-tui's colour conversion when pi 1.6.0 is installed), a broken theme file is one line naming
 * the file and the field, themes are found in the agent and project folders, the `themes` setting,
 * packages and `--theme` (only `--theme` with `--no-themes`), `light/dark` picks by COLORFGBG, and the
 * active user theme reloads when its file changes.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DARK_THEME, LIGHT_THEME } from "../../../plugins/ui/tui/theme-builtin.js";
import { parseColorText, parseTheme } from "../../../plugins/ui/tui/theme-parse.js";
import { systemTheme } from "../../../plugins/ui/tui/theme-system.js";
import { TOKEN_NAMES } from "../../../plugins/ui/tui/theme-tokens.js";
import { ThemeRegistry } from "../../../plugins/ui/tui/themes.js";
import { PI16_NODE, pi16Missing } from "../../compat/pi16.js";

/** A complete theme named `name` whose every token is `value`. */
function themeJson(name: string, value: string | number = "#112233"): Record<string, unknown> {
  return { name, colors: Object.fromEntries(TOKEN_NAMES.map((t) => [t, value])) };
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "pi-themes-"));
}

function write(file: string, json: unknown): string {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json));
  return file;
}

describe("theme files", () => {
  it.skipIf(pi16Missing !== undefined)("the built-in dark and light themes resolve to pi-tui's colours", () => {
    if (pi16Missing) console.log(`skipped: ${pi16Missing}`);
    const entry = fileURLToPath(
      new URL("../../compat/pi16/node_modules/@earendil-works/pi-tui/dist/index.js", import.meta.url),
    );
    const values = [DARK_THEME, LIGHT_THEME].flatMap((t) =>
      Object.values(t.vars ?? {})
        .concat(Object.values(t.colors))
        .filter((v) => typeof v === "string" && /^ok/.test(v)),
    ) as string[];
    const script = `import(${JSON.stringify(entry)}).then((m) => console.log(JSON.stringify(${JSON.stringify(values)}.map((v) => { const c = m.colorToRgb ? m.colorToRgb(m.parseColor(v)) : m.parseColor(v); return [c.r, c.g, c.b]; }))))`;
    const theirs = JSON.parse(execFileSync(PI16_NODE, ["--input-type=module", "-e", script], { encoding: "utf8" }));
    const ours = values.map((v) => {
      const c = parseColorText(v);
      return c?.kind === "rgb" ? [c.r, c.g, c.b] : undefined;
    });
    for (const [i, value] of values.entries()) {
      const diff = Math.max(...ours[i]!.map((channel, k) => Math.abs(channel - theirs[i][k])));
      expect(diff, value).toBeLessThanOrEqual(1);
    }
    expect(values.length).toBeGreaterThan(50);
  });

  it("reads every colour form: hex, OKLCH, OKHSL, an index, vars of vars, the terminal default", () => {
    const json = themeJson("forms");
    json.vars = { base: "#0af", alias: "base" };
    Object.assign(json.colors as object, {
      accent: "alias",
      border: "oklch(62% 0.1 200)",
      text: "",
      muted: 39,
      success: "okhsl(159 59% 67%)",
    });
    delete (json.colors as Record<string, unknown>).thinkingMax;
    const parsed = parseTheme("forms.json", json);
    expect(parsed.colors.accent).toEqual({ kind: "rgb", r: 0, g: 170, b: 255 });
    expect(parsed.colors.text).toEqual({ kind: "default" });
    expect(parsed.colors.muted).toEqual({ kind: "index", index: 39 });
    expect(parsed.colors.border.kind).toBe("rgb");
    // An optional token falls back as pi's do: thinkingMax to thinkingXhigh.
    expect(parsed.colors.thinkingMax).toEqual(parsed.colors.thinkingXhigh);
  });

  const broken: Array<[string, (json: Record<string, any>) => void, string]> = [
    ["an unknown token", (j) => (j.colors.accnt = "#fff"), "colors.accnt: unknown colour token"],
    ["a missing token", (j) => delete j.colors.accent, "colors.accent: missing"],
    ["an undefined var", (j) => (j.colors.error = "crimson"), 'colors.error: "crimson" is not a colour'],
    ["a circular var", (j) => ((j.vars = { a: "b", b: "a" }), (j.colors.error = "a")), "colors.error: circular"],
    ["a bad value", (j) => (j.colors.error = 300), "colors.error: 300 is not a colour"],
    ["a bad hex", (j) => (j.colors.error = "#12345"), 'colors.error: "#12345" is not a valid colour'],
    ["a top-level extra", (j) => (j.author = "me"), "author: unknown field"],
    ["a slash in the name", (j) => (j.name = "a/b"), 'name: "a/b" contains "/"'],
    ["a bad appearance", (j) => (j.appearance = "dim"), 'appearance: must be "dark" or "light"'],
  ];
  for (const [what, change, message] of broken) {
    it(`${what} is one line naming the file and the field`, () => {
      const json = themeJson("bad");
      change(json);
      let error: Error | undefined;
      try {
        parseTheme("/x/bad.json", json);
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).toContain(`theme /x/bad.json: ${message}`);
      expect(error?.message).not.toContain("\n");
    });
  }
});

describe("the run's themes", () => {
  it("are found in the agent and project folders, the themes setting, packages and --theme", () => {
    const root = tempDir();
    const agentDir = join(root, "agent");
    write(join(agentDir, "themes", "mine.json"), themeJson("mine"));
    write(join(root, "project", ".pi", "themes", "proj.json"), themeJson("proj"));
    write(join(root, "setting", "s.json"), themeJson("from-setting"));
    write(join(root, "pkg", "themes", "p.json"), themeJson("from-package"));
    write(join(root, "given.json"), themeJson("given"));
    const all = new ThemeRegistry({
      agentDir,
      projectDir: join(root, "project"),
      settingPaths: [join(root, "setting")],
      packagePaths: [join(root, "pkg", "themes")],
      themePaths: [join(root, "given.json")],
    });
    expect(all.names()).toEqual(["system", "dark", "light", "from-package", "from-setting", "given", "mine", "proj"]);
    expect(all.problems).toEqual([]);
    // --no-themes: only --theme paths load; an untrusted project's themes never do.
    const only = new ThemeRegistry({
      agentDir,
      projectDir: undefined,
      noThemes: true,
      settingPaths: [join(root, "setting")],
      themePaths: [join(root, "given.json")],
    });
    expect(only.names()).toEqual(["system", "dark", "light", "given"]);
    expect(() => only.load("mine")).toThrow('theme "mine": no such theme');
  });

  it("a theme pi config switched off (-themes/x.json) is not found; the themes setting's switches add no path", async () => {
    const { readResourceOverrides, resourceEnabled } = await import("../../../kit/fs/resource-overrides.js");
    const { settingThemePaths } = await import("../../../plugins/ui/tui/themes.js");
    const root = tempDir();
    const agentDir = join(root, "agent");
    write(join(agentDir, "themes", "mine.json"), themeJson("mine"));
    write(join(agentDir, "themes", "other.json"), themeJson("other"));
    write(join(agentDir, "settings.json"), { themes: ["-themes/mine.json"] });
    const overrides = await readResourceOverrides(agentDir, root, false);
    const registry = new ThemeRegistry({
      agentDir,
      settingPaths: settingThemePaths(["-themes/mine.json"], agentDir),
      switchedOn: (file) => resourceEnabled(overrides, "themes", file),
    });
    expect(registry.names()).toEqual(["system", "dark", "light", "other"]);
    expect(registry.problems).toEqual([]);
  });

  it("a broken file and a taken name are problems; the other themes still load", () => {
    const agentDir = tempDir();
    write(join(agentDir, "themes", "a.json"), "{ not json");
    write(join(agentDir, "themes", "b.json"), themeJson("dark"));
    write(join(agentDir, "themes", "c.json"), themeJson("fine"));
    const registry = new ThemeRegistry({ agentDir });
    expect(registry.problems).toEqual([
      expect.stringMatching(/^theme .*a\.json: not valid JSON/),
      expect.stringMatching(/^theme .*b\.json: name "dark" is already taken \(built in\)/),
    ]);
    expect(registry.load("fine").fg("accent", "x")).toBe("\x1b[38;2;17;34;51mx\x1b[39m");
  });

  it("--use-theme beats the setting, system is the default, and light/dark follows COLORFGBG", () => {
    const registry = (env: NodeJS.ProcessEnv) => new ThemeRegistry({ agentDir: tempDir(), env });
    expect(registry({}).select(undefined, undefined)).toBe("system");
    expect(registry({}).select("light", "dark")).toBe("light");
    expect(registry({}).select(undefined, "dark")).toBe("dark");
    expect(registry({ COLORFGBG: "0;15" }).select("light/dark", undefined)).toBe("light");
    expect(registry({ COLORFGBG: "15;default;0" }).select(undefined, "light/dark")).toBe("dark");
    expect(registry({}).select(undefined, "light/dark")).toBe("dark");
  });

  it("the system theme takes the terminal's palette and default colours, with faint secondary text", () => {
    const { theme, dim } = systemTheme({});
    expect(theme.colors.error).toEqual({ kind: "index", index: 1 });
    expect(theme.colors.accent).toEqual({ kind: "index", index: 5 });
    expect(theme.colors.text).toEqual({ kind: "default" });
    expect(theme.colors.userMessageBg).toEqual({ kind: "default" });
    expect(dim).toContain("muted");
    expect(dim).not.toContain("text");
    const painted = new ThemeRegistry({ agentDir: tempDir() }).load("system");
    expect(painted.fg("muted", "x")).toBe("\x1b[2mx\x1b[22m");
    expect(painted.fg("error", "x")).toBe("\x1b[38;5;1mx\x1b[39m");
  });

  it("the active user theme reloads when its file changes; a broken save keeps the last colours", async () => {
    const agentDir = tempDir();
    const file = write(join(agentDir, "themes", "live.json"), themeJson("live", "#000001"));
    const registry = new ThemeRegistry({ agentDir });
    let changes = 0;
    let notify: () => void = () => {};
    registry.onChange = () => {
      changes++;
      notify();
    };
    const before = registry.load("live");
    expect(before.fg("accent", "x")).toContain("38;2;0;0;1m");
    const changed = new Promise<void>((resolve) => (notify = resolve));
    write(file, themeJson("live", "#000002"));
    await changed;
    const after = registry.load("live");
    expect(after.fg("accent", "x")).toContain("38;2;0;0;2m");
    expect(after.key).not.toBe(before.key);
    write(file, "{ broken");
    write(join(agentDir, "themes", "other.json"), themeJson("other"));
    const seen = changes;
    // The broken save is not applied; the next good one is.
    const again = new Promise<void>((resolve) => (notify = resolve));
    write(file, themeJson("live", "#000003"));
    await again;
    expect(changes).toBe(seen + 1);
    expect(registry.load("live").fg("accent", "x")).toContain("38;2;0;0;3m");
    registry.unwatch();
  });
});
