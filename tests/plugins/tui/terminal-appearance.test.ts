import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DARK_THEME, LIGHT_THEME } from "../../../plugins/ui/tui/theme.js";
import { appearanceOf, reportTerminalColors } from "../../../plugins/ui/tui/theme-system.js";
import { fitSystemTheme } from "../../../plugins/ui/tui/theme-system-fit.js";
import { ThemeRegistry } from "../../../plugins/ui/tui/themes.js";
import { PI16_NODE, pi16Missing } from "../../compat/pi16.js";

const registry = (env: NodeJS.ProcessEnv = {}) =>
  new ThemeRegistry({ agentDir: mkdtempSync(join(tmpdir(), "pi-appearance-")), env });

afterEach(() => reportTerminalColors(undefined));

/** Colours a terminal may report, with and without its foreground. */
const SAMPLES: Array<{
  background: { r: number; g: number; b: number };
  foreground?: { r: number; g: number; b: number };
}> = [
  { background: { r: 0, g: 0, b: 0 } },
  { background: { r: 255, g: 255, b: 255 } },
  { background: { r: 0, g: 43, b: 54 }, foreground: { r: 131, g: 148, b: 150 } },
  { background: { r: 253, g: 246, b: 227 }, foreground: { r: 101, g: 123, b: 131 } },
  { background: { r: 128, g: 128, b: 128 } },
  { background: { r: 118, g: 118, b: 118 }, foreground: { r: 250, g: 250, b: 250 } },
  { background: { r: 140, g: 140, b: 140 }, foreground: { r: 10, g: 10, b: 10 } },
  { background: { r: 40, g: 44, b: 52 }, foreground: { r: 40, g: 44, b: 60 } },
];

describe("the system theme by the terminal's reported background", () => {
  it("dark and light backgrounds are told apart; the foreground's direction decides when it is readable", () => {
    expect(appearanceOf({ r: 0, g: 0, b: 0 })).toBe("dark");
    expect(appearanceOf({ r: 255, g: 255, b: 255 })).toBe("light");
    expect(appearanceOf({ r: 253, g: 246, b: 227 }, { r: 101, g: 123, b: 131 })).toBe("light");
    expect(appearanceOf({ r: 0, g: 43, b: 54 }, { r: 131, g: 148, b: 150 })).toBe("dark");
  });

  it.skipIf(pi16Missing !== undefined)("decides as pi 1.6.0's terminalAppearance does", () => {
    if (pi16Missing) console.log(`skipped: ${pi16Missing}`);
    const entry = fileURLToPath(
      new URL(
        "../../compat/pi16/node_modules/@earendil-works/pi-coding-agent/dist/modes/interactive/theme/system-theme.js",
        import.meta.url,
      ),
    );
    const script = `import(${JSON.stringify(entry)}).then((m) => console.log(JSON.stringify(${JSON.stringify(SAMPLES)}.map((c) => m.terminalAppearance(c.background, c.foreground)))))`;
    const theirs = JSON.parse(execFileSync(PI16_NODE, ["--input-type=module", "-e", script], { encoding: "utf8" }));
    expect(SAMPLES.map((c) => appearanceOf(c.background, c.foreground))).toEqual(theirs);
  });

  it("a reported background draws system fitted to it (darker colours on light, lighter on dark); none as the palette", () => {
    const themes = registry();
    const unanswered = themes.load("system");
    expect(unanswered.fg("error", "x")).toBe("\x1b[38;5;1mx\x1b[39m");
    const sgr = (painted: string): string => /\x1b\[([34]8;2;[\d;]+)m/.exec(painted)![1]!;
    reportTerminalColors({ background: { r: 250, g: 250, b: 250 } });
    const onLight = themes.load("system");
    const lightFit = fitSystemTheme({ background: { r: 250, g: 250, b: 250 } })!;
    const rgb = (c: unknown): string => {
      const { r, g, b } = c as { r: number; g: number; b: number };
      return `${r};${g};${b}`;
    };
    expect(sgr(onLight.fg("error", "x"))).toBe(`38;2;${rgb(lightFit.colors.error)}`);
    expect(sgr(onLight.bg("userMessageBg", "x"))).toBe(`48;2;${rgb(lightFit.colors.userMessageBg)}`);
    expect(onLight.key).not.toBe(unanswered.key);
    reportTerminalColors({ background: { r: 20, g: 20, b: 24 } });
    const onDark = themes.load("system");
    const darkFit = fitSystemTheme({ background: { r: 20, g: 20, b: 24 } })!;
    expect(sgr(onDark.fg("error", "x"))).toBe(`38;2;${rgb(darkFit.colors.error)}`);
    expect(onDark.name).toBe("system");
    expect(DARK_THEME.name).toBe("dark");
    expect(LIGHT_THEME.name).toBe("light");
  });

  it("light/dark pairs follow the reported background before COLORFGBG; no report and no COLORFGBG is dark", () => {
    expect(registry({ COLORFGBG: "0;15" }).select(undefined, "light/dark")).toBe("light");
    reportTerminalColors({ background: { r: 0, g: 0, b: 0 } });
    expect(registry({ COLORFGBG: "0;15" }).select(undefined, "light/dark")).toBe("dark");
    reportTerminalColors({ background: { r: 255, g: 255, b: 255 } });
    expect(registry({}).select(undefined, "light/dark")).toBe("light");
    reportTerminalColors({});
    expect(registry({}).select(undefined, "light/dark")).toBe("dark");
  });
});
