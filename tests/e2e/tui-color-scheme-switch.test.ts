/**
 * The terminal switching from dark to light while pi runs, as pi 1.6.0 follows it: pi turns on the
 * terminal's light/dark reports (mode 2031), and on a report asks the colours again (OSC 10, 11, 4 and
 * DA1) and repaints the `system` theme fitted to the new background; the reports go off when pi ends.
 * Built CLI under a pseudo-terminal that answers like a terminal whose theme switches.
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
if (!HAS_PYTHON) console.log("tui-color-scheme-switch tests skipped: python3 (for its pty module) is not installed");
const DRIVER = join(import.meta.dirname, "fixtures", "switching-pty.py");

beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
});

const hex = (h: string): TuiRgb => ({
  r: Number.parseInt(h.slice(1, 3), 16),
  g: Number.parseInt(h.slice(3, 5), 16),
  b: Number.parseInt(h.slice(5, 7), 16),
});
const osc = (n: string, h: string): string => `\x1b]${n};rgb:${h.slice(1, 3)}/${h.slice(3, 5)}/${h.slice(5, 7)}\x07`;
const fg = (c: { r?: number; g?: number; b?: number }): string => `38;2;${c.r};${c.g};${c.b}m`;

describe.skipIf(!HAS_PYTHON)(
  "a light/dark switch while pi runs (built CLI, answering pty)",
  { timeout: 120_000 },
  () => {
    for (const mode of ["fullscreen", "regular"] as const) {
      it(`${mode}: the switch report makes pi ask the colours again and repaint the system theme for light`, () => {
        const user = agentHome();
        user.scriptFaux([{ content: "unused" }]);
        const out = join(user.home, "pty.out");
        const dark = { foreground: "#cdd6f4", background: "#1e1e2e" };
        const light = { foreground: "#4c4f69", background: "#eff1f5" };
        const config = {
          cwd: user.project,
          argv: [process.execPath, PI_BIN, "--tui-mode", mode],
          env: { ...user.env, TERM: "xterm-256color", COLORTERM: "truecolor" },
          rows: 30,
          cols: 100,
          timeout: 60,
          dark: `${osc("10", dark.foreground)}${osc("11", dark.background)}\x1b[?62;22c`,
          light: `${osc("10", light.foreground)}${osc("11", light.background)}\x1b[?62;22c`,
          waitFor: "faux-1",
          out,
        };
        execFileSync("python3", [DRIVER, JSON.stringify(config)], { timeout: 90_000 });
        const bytes = readFileSync(out, "utf8");
        const darkTheme = fitSystemTheme({ foreground: hex(dark.foreground), background: hex(dark.background) })!;
        const lightTheme = fitSystemTheme({ foreground: hex(light.foreground), background: hex(light.background) })!;
        // The footer's faint text: fitted to the dark background first, to the light one after the switch.
        const dimDark = fg(darkTheme.colors.dim as never);
        const dimLight = fg(lightTheme.colors.dim as never);
        expect(dimDark).not.toBe(dimLight);
        const on = bytes.indexOf("\x1b[?2031h");
        expect(on).toBeGreaterThan(-1);
        // Asked twice: at start, and after the switch report.
        const second = bytes.indexOf("\x1b]11;?\x07", bytes.indexOf("\x1b]11;?\x07") + 1);
        expect(second).toBeGreaterThan(on);
        expect(bytes.slice(0, second)).toContain(dimDark);
        expect(bytes.slice(0, second)).not.toContain(dimLight);
        expect(bytes.slice(second)).toContain(dimLight);
        // Reports off when pi ends; none of the replies became typed text.
        expect(bytes.lastIndexOf("\x1b[?2031l")).toBeGreaterThan(second);
        expect(bytes).not.toContain("997;2n");
        expect(bytes).not.toContain("rgb:");
      });
    }
  },
);
