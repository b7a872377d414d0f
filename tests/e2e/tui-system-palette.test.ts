/**
 * The `system` theme fitted to the terminal's palette, in the built CLI under a pseudo-terminal that
 * answers pi's start-up queries as a terminal with a known theme would: OSC 10/11 (foreground,
 * background), OSC 4 for colours 0-15, then DA1. The colours drawn are the ones fitted to that palette
 * (a different palette gives different colours), and none of the replies reach the editor as keys.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TuiRgb } from "pi-host";
import { beforeAll, describe, expect, it } from "vitest";
import { fitSystemTheme } from "../../plugins/ui/tui/theme-system-fit.js";
import { agentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

const HAS_PYTHON = spawnSync("python3", ["--version"]).status === 0;
if (!HAS_PYTHON) console.log("tui-system-palette tests skipped: python3 (for its pty module) is not installed");
const DRIVER = join(import.meta.dirname, "fixtures", "answering-pty.py");

beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
});

const hex = (h: string): TuiRgb => ({
  r: Number.parseInt(h.slice(1, 3), 16),
  g: Number.parseInt(h.slice(3, 5), 16),
  b: Number.parseInt(h.slice(5, 7), 16),
});
const MOCHA = [
  "#45475a",
  "#f38ba8",
  "#a6e3a1",
  "#f9e2af",
  "#89b4fa",
  "#f5c2e7",
  "#94e2d5",
  "#bac2de",
  "#585b70",
  "#f38ba8",
  "#a6e3a1",
  "#f9e2af",
  "#89b4fa",
  "#f5c2e7",
  "#94e2d5",
  "#a6adc8",
];
const osc = (n: string, h: string): string => `\x1b]${n};rgb:${h.slice(1, 3)}/${h.slice(3, 5)}/${h.slice(5, 7)}\x07`;

/** Runs pi until its footer shows, answering the colour queries with `palette` (none: OSC 4 unanswered); the bytes it wrote. */
function runAnswering(palette: string[] | undefined): string {
  const user = agentHome();
  user.scriptFaux([{ content: "unused" }]);
  const reply = `${osc("10", "#cdd6f4")}${osc("11", "#1e1e2e")}${(palette ?? []).map((h, i) => osc(`4;${i}`, h)).join("")}\x1b[?62;22c`;
  const out = join(user.home, "pty.out");
  const config = {
    cwd: user.project,
    argv: [process.execPath, PI_BIN],
    env: { ...user.env, TERM: "xterm-256color", COLORTERM: "truecolor" },
    rows: 30,
    cols: 100,
    timeout: 60,
    reply,
    waitFor: "faux-1",
    out,
  };
  execFileSync("python3", [DRIVER, JSON.stringify(config)], { timeout: 90_000 });
  return readFileSync(out, "utf8");
}

const fg = (c: { kind: string; r?: number; g?: number; b?: number }): string => `38;2;${c.r};${c.g};${c.b}m`;

describe.skipIf(!HAS_PYTHON)(
  "the system theme takes the terminal's palette (built CLI, answering pty)",
  { timeout: 120_000 },
  () => {
    it("draws the colours fitted to the reported palette; another palette, other colours; replies are not typed", () => {
      const withPalette = runAnswering(MOCHA);
      expect(withPalette).toContain("\x1b]4;15;?\x07");
      const fitted = fitSystemTheme({
        foreground: hex("#cdd6f4"),
        background: hex("#1e1e2e"),
        palette: MOCHA.map(hex),
      })!;
      // The accent (the header) and the faint rows take the palette's violet and grey.
      expect(withPalette).toContain(fg(fitted.colors.accent as never));
      expect(withPalette).toContain(fg(fitted.colors.dim as never));
      expect(withPalette).not.toContain("rgb:");

      // A palette whose violet slot is orange: an orange accent.
      const orange = [...MOCHA];
      orange[5] = "#fab387";
      const other = fitSystemTheme({
        foreground: hex("#cdd6f4"),
        background: hex("#1e1e2e"),
        palette: orange.map(hex),
      })!;
      const withOrange = runAnswering(orange);
      expect(fg(other.colors.accent as never)).not.toBe(fg(fitted.colors.accent as never));
      expect(withOrange).toContain(fg(other.colors.accent as never));
      expect(withOrange).not.toContain(fg(fitted.colors.accent as never));

      // Background only: the families' own hues, still fitted to the background.
      const own = fitSystemTheme({ foreground: hex("#cdd6f4"), background: hex("#1e1e2e") })!;
      const withoutPalette = runAnswering(undefined);
      expect(withoutPalette).toContain(fg(own.colors.accent as never));
      expect(withoutPalette).not.toContain(fg(fitted.colors.accent as never));
    });
  },
);
