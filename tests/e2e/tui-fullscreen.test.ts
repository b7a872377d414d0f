/**
 * Fullscreen mode (pi 1.6.0's default) end to end: the BUILT `pi` in a detached tmux pane against
 * provider-faux (scripted through the user's plugins.json). It starts on the alternate screen with the
 * editor at the bottom, PageUp scrolls the transcript inside the screen, Ctrl+Shift+F searches it, the
 * wheel scrolls it, a mouse selection is copied, a quit gives the normal screen back (cursor shown, cooked mode) with the transcript
 * printed there; `--tui-mode regular` keeps the terminal's scrollback instead.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, type Pane, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the fullscreen TUI end-to-end tests");

/** 40 paragraphs, each with its own marker word, streamed fast. */
const ANSWER = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} holds marker-${i} in it.`).join("\n\n");

function makeHome(settings: Record<string, unknown> = {}): { home: string; cwd: string } {
  const home = mkdtempSync(join(tmpdir(), "pi-tui-fullscreen-"));
  const agent = join(home, "agent");
  const cwd = join(home, "work");
  mkdirSync(agent, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(
    join(agent, "models.json"),
    JSON.stringify({
      providers: { faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] } },
    }),
  );
  writeFileSync(
    join(agent, "settings.json"),
    JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1", ...settings }),
  );
  writeFileSync(
    join(agent, "plugins.json"),
    JSON.stringify({
      plugins: [{ id: "provider-faux", config: { tokensPerSecond: 2_000, responses: [{ content: ANSWER }] } }],
    }),
  );
  return { home, cwd };
}

let tmux: TmuxServer | undefined;
afterEach(() => tmux?.killPanes());
beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());

/** pi in an 80×24 pane, answered once: resolves when the whole answer is in and the turn is over. */
async function answered(args: string[] = [], settings: Record<string, unknown> = {}): Promise<Pane> {
  const { home, cwd } = makeHome(settings);
  const pane = tmux!.start({
    cwd,
    env: { PI_CODING_AGENT_DIR: join(home, "agent"), HOME: home },
    args,
    watch: "screen",
  });
  await pane.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));
  pane.type("tell me");
  pane.keys("Enter");
  await pane.waitFor((s) => s.includes("marker-39 in it.") && !s.includes("Working…"));
  return pane;
}

/** The screen's rows. */
const rows = (pane: Pane): string[] => pane.capture().split("\n");

describe.skipIf(!HAS_TMUX)("fullscreen TUI in tmux (built CLI)", { timeout: 60_000 }, () => {
  it("starts on the alternate screen with the editor and footer at the bottom, and scrolls with PageUp and the wheel", async () => {
    const pane = await answered();
    expect(pane.terminalModes().split(" ")[0]).toBe("1");
    expect(pane.mouseModes()).toBe("1 1");
    // The footer is the screen's last row; the answer's end sits right above the live area.
    const screen = rows(pane);
    expect(screen[23]).toContain("faux-1");
    expect(screen.filter((row) => /^─+$/.test(row))).toHaveLength(2);
    // Nothing goes to tmux's history on the alternate screen.
    expect(pane.captureAll()).not.toContain("marker-0 ");
    pane.keys("PageUp");
    await pane.waitFor((s) => !s.includes("marker-39 ") && s.includes("marker-30 "));
    // While scrolled up, the scrollbar is drawn in the last column.
    expect(rows(pane).filter((row) => /^ Paragraph .*[│┃]$/.test(row)).length).toBeGreaterThan(0);
    pane.keys("PageUp", "PageUp", "PageUp");
    await pane.waitFor((s) => s.includes("marker-0 ") && s.includes("pi-host"));
    // The wheel (SGR mouse reports, which pi turned on) scrolls back down.
    for (let i = 0; i < 40; i++) pane.type("\x1b[<65;10;5M");
    await pane.waitFor((s) => s.includes("marker-39 "));
    // The editor kept working all along.
    pane.type("still typing");
    await pane.waitFor(/^still typing/m);
  });

  it("Ctrl+Shift+F searches the transcript: the match is scrolled into view and counted; Escape closes the box", async () => {
    const pane = await answered();
    // Ctrl+Shift+F as a terminal with CSI-u keys sends it.
    pane.type("\x1b[102;6u");
    await pane.waitFor("Find in transcript");
    pane.type("marker-7 ");
    await pane.waitFor((s) => s.includes("1/1") && s.includes("Paragraph 7 holds marker-7 in it."));
    expect(pane.capture()).not.toContain("marker-39 ");
    pane.type("zzz");
    await pane.waitFor("No matches");
    pane.keys("Escape");
    await pane.waitFor((s) => !s.includes("No matches") && !s.includes("Find in transcript"));
    // Escape closed the search, not the run: the editor takes text again.
    pane.type("after search");
    await pane.waitFor(/^after search/m);
  });

  it("copies a mouse selection on release (OSC 52 without a display)", async () => {
    tmux!.run("set-option", "-s", "set-clipboard", "on");
    const pane = await answered();
    const row = rows(pane).findIndex((r) => r.startsWith(" Paragraph 39 holds"));
    expect(row).toBeGreaterThanOrEqual(0);
    // Press on "P" (column 2, 1-based), drag to column 12, release: cells 1–11 of that row.
    pane.type(`\x1b[<0;2;${row + 1}M\x1b[<32;12;${row + 1}M\x1b[<0;12;${row + 1}m`);
    await pane.waitFor("Copied the selection");
    expect(tmux!.run("show-buffer")).toBe("Paragraph 3");
  });

  it("quitting restores the terminal: normal screen, cursor shown, cooked mode, the transcript left in the scrollback", async () => {
    const pane = await answered();
    pane.keys("C-d");
    await pane.waitFor(/\[tty [^\]]*\]/, { all: true });
    expect(pane.exitCode()).toBe(0);
    expect(pane.terminalModes()).toBe("0 1");
    expect(pane.ttyAfterExit()).toBe("icanon echo");
    const all = pane.captureAll();
    expect(all).toContain("Paragraph 0 holds marker-0 in it.");
    expect(all).toContain("Paragraph 39 holds marker-39 in it.");
    expect(all.split("\n").filter((row) => row.includes("pi-host ·"))).toHaveLength(1);
    // No mouse reporting is left on: a wheel report now would be the shell's input, not pi's.
    expect(pane.mouseModes()).toBe("0 0");
  });

  it("--tui-mode regular keeps the normal screen and its scrollback; the tuiMode setting does the same", async () => {
    for (const [args, settings] of [
      [["--tui-mode", "regular"], {}],
      [[], { tuiMode: "regular" }],
    ] as const) {
      const pane = await answered([...args], settings);
      expect(pane.terminalModes().split(" ")[0]).toBe("0");
      // The answer's start scrolled into tmux's history, where the user scrolls to read it.
      const history = pane.captureAll();
      expect(history).toContain("Paragraph 0 holds marker-0 in it.");
      expect(pane.capture()).not.toContain("marker-0 ");
      tmux!.killPanes();
    }
  });

  it("a bad --tui-mode is a usage error", async () => {
    const { home, cwd } = makeHome();
    const pane = tmux!.start({
      cwd,
      env: { PI_CODING_AGENT_DIR: join(home, "agent"), HOME: home },
      args: ["--tui-mode", "sideways"],
    });
    await pane.waitFor(/\[pi exited \d+\]/);
    expect(pane.exitCode()).toBe(2);
    expect(pane.captureAll()).toContain('--tui-mode must be one of fullscreen, regular, not "sideways"');
  });
});
