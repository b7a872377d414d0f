/**
 * pi 1.6.0's `/settings`, `/scoped-models`, `/import`, `/share`, `/trust`, `/bug`, `/changelog` and
 * `/debug` in the built CLI's terminal UI, in tmux, against a local OpenAI-compatible suite.server. `/share`
 * runs a fake `gh` put first on PATH, which records what it was asked.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { askAndWait, command, type TuiPane, tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the TUI slash command end-to-end tests", [
  { id: "alpha-1" },
  { id: "beta-2" },
  { id: "gamma-3" },
]);

type Pane = TuiPane;

const start = (env: Record<string, string> = {}): Pane => suite.start({ env, height: 30 });

/** Sends a prompt and waits for its answer with the run over (the "Working…" line gone). */
const ask = (pane: Pane, prompt: string, answer: string) => askAndWait(suite, pane, prompt, answer);

const settingsFile = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(suite.user.agent, "settings.json"), "utf8")) as Record<string, unknown>;

describe.skipIf(!suite.hasTmux)("TUI slash commands in tmux: pi 1.6.0's remaining ones", { timeout: 60_000 }, () => {
  it.each([
    ["/settings", "Open settings"],
    ["/scoped", "Configure the models used by interactive cycling"],
    ["/import", "Import a JSONL session"],
    ["/share", "secret GitHub gist"],
    ["/trust", "Save a project trust decision"],
    ["/bug", "Prepare a private bug report"],
    ["/changelog", "Show changelog entries"],
    ["/debug", "Write the rendered screen"],
    ["/mcp", "Manage MCP servers"],
  ])("%s shows in the editor's autocomplete with its description", async (typed, description) => {
    const pane = start();
    await pane.waitFor("alpha-1");
    // The whole name alone would be a complete match, which closes the list: type all but its last letter.
    pane.type(typed.slice(0, -1));
    await pane.waitFor(description);
  });

  it("/changelog shows pi-host's CHANGELOG.md", async () => {
    const pane = start();
    await pane.waitFor("alpha-1");
    command(pane, "/changelog");
    // Fullscreen shows the end of the transcript: the last line first, then the heading after scrolling up.
    await pane.waitFor("Benchmarks against pi 1.6.0");
    // Page up until the heading shows: the changelog grows with every release.
    for (let page = 0; page < 40 && !pane.capture().includes("What's New"); page++) {
      pane.keys("PageUp");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await pane.waitFor("What's New");
    await pane.waitFor("## [0.1.0]");
  });

  it("/debug writes the frame and the messages to <agentDir>/pi-debug.log", async () => {
    const pane = start();
    await pane.waitFor("alpha-1");
    await ask(pane, "debug me", "the answer to debug");
    command(pane, "/debug");
    await pane.waitFor("Debug log written");
    const log = readFileSync(join(suite.user.agent, "pi-debug.log"), "utf8");
    expect(log).toMatch(/^Debug output at \d{4}-/);
    expect(log).toContain("Terminal: 80x30");
    expect(log).toMatch(/\[\d+\] \(w=\d+\) ".*the answer to debug/);
    const messages = log.split("=== Agent messages (JSONL) ===\n")[1]!.trim().split("\n");
    expect(messages.map((line) => (JSON.parse(line) as { role: string }).role)).toEqual(["user", "assistant"]);
  });

  it("/trust shows the saved decision and saves the chosen one in trust.json", async () => {
    const pane = start();
    await pane.waitFor("alpha-1");
    command(pane, "/trust");
    await pane.waitFor("Saved decision: none");
    await pane.waitFor("Current session: untrusted");
    await pane.waitFor("Trust parent folder");
    pane.keys("Down", "Down", "Enter");
    await pane.waitFor("Saved trust decision: untrusted. Restart pi for this to take effect.");
    const dir = realpathSync(suite.user.project);
    expect(JSON.parse(readFileSync(join(suite.user.agent, "trust.json"), "utf8"))).toEqual({ [dir]: false });
    command(pane, "/trust");
    await pane.waitFor(`Saved decision: untrusted (${dir})`);
    // The saved "Do not trust" is selected; one up is the parent folder.
    pane.keys("Up", "Enter");
    await pane.waitFor("Saved trust decision: trusted.");
    const parent = join(dir, "..");
    expect(JSON.parse(readFileSync(join(suite.user.agent, "trust.json"), "utf8"))).toEqual({
      [realpathSync(parent)]: true,
      [dir]: null,
    });
  });

  it("/import copies a session file next to the current one and switches to it", async () => {
    const outside = mkdtempSync(join(tmpdir(), "pi-import-"));
    const file = join(outside, "shared-session.jsonl");
    const at = "2026-12-01T10:00:00.000Z";
    const lines = [
      { type: "session", version: 3, id: "imported-session-id", timestamp: at, cwd: suite.user.project },
      {
        type: "message",
        id: "u1",
        parentId: null,
        timestamp: at,
        message: { role: "user", content: "a question from elsewhere", timestamp: 1 },
      },
    ];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const pane = start();
    await pane.waitFor("alpha-1");
    await ask(pane, "the session before", "first answer");
    command(pane, "/import");
    await pane.waitFor("Usage: /import <path.jsonl>");
    command(pane, `/import ${file}`);
    await pane.waitFor(`Replace current session with ${file}?`);
    pane.keys("Enter");
    await pane.waitFor(`Session imported from: ${file}`);
    await pane.waitFor("a question from elsewhere");
    const copies = suite.user.sessionFiles().filter((f) => f.endsWith("shared-session.jsonl"));
    expect(copies).toHaveLength(1);
    expect(readFileSync(copies[0]!, "utf8")).toContain("imported-session-id");
    expect(readFileSync(file, "utf8")).toBe(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    command(pane, `/import ${join(outside, "missing.jsonl")}`);
    pane.keys("Enter");
    await pane.waitFor(`Failed to import session: File not found: ${join(outside, "missing.jsonl")}`);
  });

  it("/share makes a secret gist through gh and answers with the viewer link; without gh it says how to get it", async () => {
    const bin = mkdtempSync(join(tmpdir(), "pi-fake-gh-"));
    const record = join(bin, "calls.log");
    writeFileSync(
      join(bin, "gh"),
      `#!/bin/sh\necho "$@" >> ${record}\nif [ "$1" = "gist" ]; then cp "$4" ${join(bin, "shared.html")}; echo https://gist.github.com/someone/0123abcd; fi\nexit 0\n`,
    );
    chmodSync(join(bin, "gh"), 0o755);
    const pane = start({ PATH: `${bin}:/usr/bin:/bin` });
    await pane.waitFor("alpha-1");
    await ask(pane, "share this conversation", "shared answer");
    command(pane, "/share");
    await pane.waitFor("Share URL: https://pi.dev/session/#0123abcd");
    await pane.waitFor("Gist: https://gist.github.com/someone/0123abcd");
    const calls = readFileSync(record, "utf8").trim().split("\n");
    expect(calls[0]).toBe("auth status");
    expect(calls[1]).toMatch(/^gist create --public=false \S+session\.html$/);
    expect(readFileSync(join(bin, "shared.html"), "utf8")).toContain("share this conversation");

    const bare = start({ PATH: "/usr/bin:/bin" });
    await bare.waitFor("alpha-1");
    await ask(bare, "again", "second answer");
    command(bare, "/share");
    await bare.waitFor("GitHub CLI (gh) is not installed. Install it from https://cli.github.com/");
  });

  it("/scoped-models picks the models Ctrl+P cycles through and saves them as enabledModels", async () => {
    const pane = start();
    await pane.waitFor("alpha-1");
    command(pane, "/scoped-models");
    await pane.waitFor("Model Configuration");
    await pane.waitFor("✓ mock/gamma-3");
    pane.keys("C-x");
    await pane.waitFor((screen) => !screen.includes("✓ mock/"), { all: false });
    pane.keys("Enter", "Down", "Down", "Enter");
    await pane.waitFor((screen) => screen.includes("✓ mock/gamma-3") && screen.includes("✓ mock/alpha-1"), {
      all: false,
    });
    pane.keys("C-s");
    await pane.waitFor("Model selection saved to settings");
    expect(settingsFile().enabledModels).toEqual(["mock/alpha-1", "mock/gamma-3"]);
    pane.keys("Escape");
    await pane.waitFor((screen) => !screen.includes("Model Configuration"), { all: false });
    const footer = (screen: string): string => screen.trimEnd().split("\n").slice(-2).join("\n");
    pane.keys("C-p");
    await pane.waitFor((screen) => footer(screen).includes("gamma-3"), { all: false });
    pane.keys("C-p");
    await pane.waitFor((screen) => footer(screen).includes("alpha-1"), { all: false });
  });

  it("/scoped-models: alt+up/down (app.models.reorderUp/Down) set the cycle order that is saved", async () => {
    const pane = start();
    await pane.waitFor("alpha-1");
    command(pane, "/scoped-models");
    await pane.waitFor("✓ mock/gamma-3");
    pane.keys("C-x");
    await pane.waitFor((screen) => !screen.includes("✓ mock/"), { all: false });
    pane.keys("Enter", "Down", "Down", "Enter");
    await pane.waitFor((screen) => screen.includes("✓ mock/gamma-3") && screen.includes("✓ mock/alpha-1"), {
      all: false,
    });
    pane.keys("M-Up", "M-Up");
    await pane.waitFor((screen) => screen.indexOf("✓ mock/gamma-3") < screen.indexOf("✓ mock/alpha-1"), {
      all: false,
    });
    pane.keys("C-s");
    await pane.waitFor("Model selection saved to settings");
    expect(settingsFile().enabledModels).toEqual(["mock/gamma-3", "mock/alpha-1"]);
  });

  // Open bug: with CI set in pi's environment (as .ci/run sets it), Ctrl+S in the /model picker is not taken
  // as app.models.save (typing still reaches the picker; the tty has -ixon); not explained yet. Skipped there
  // with that reason printed, so the run says what it did not check.
  if (process.env.CI !== undefined)
    console.warn("[skip] ctrl+s defaults test: Ctrl+S is not taken with CI set in pi's environment (open bug)");
  it.skipIf(process.env.CI !== undefined)(
    "ctrl+s in /model and /thinking (app.models.save, app.thinking.save) sets the default in settings.json",
    async () => {
      const pane = start();
      await pane.waitFor("alpha-1");
      command(pane, "/model");
      await pane.waitFor("Select a model");
      pane.type("gamma");
      await pane.waitFor((screen) => !screen.includes("mock/beta-2"), { all: false });
      pane.keys("C-s");
      await pane.waitFor("Default model: mock/gamma-3");
      expect(settingsFile()).toMatchObject({ defaultProvider: "mock", defaultModel: "gamma-3" });
      command(pane, "/thinking");
      await pane.waitFor("Thinking level");
      pane.type("high");
      pane.keys("C-s");
      await pane.waitFor("Default thinking level: high");
      expect(settingsFile().defaultThinkingLevel).toBe("high");
    },
  );

  it("/settings cycles a choice and saves a typed value, each into settings.json", async () => {
    const pane = start();
    await pane.waitFor("alpha-1");
    command(pane, "/settings");
    await pane.waitFor("Settings");
    pane.type("steeringMode");
    await pane.waitFor("steeringMode  one-at-a-time");
    pane.keys("Enter");
    await pane.waitFor("steeringMode: all (saved to settings.json)");
    expect(settingsFile().steeringMode).toBe("all");
    // Escape alone first: an Escape the terminal reads together with the next "/" would be Alt+/.
    pane.keys("Escape");
    await pane.waitFor((screen) => !screen.includes("filter: steeringMode"), { all: false });
    command(pane, "/settings");
    pane.type("retry.maxRetries");
    await pane.waitFor("retry.maxRetries  3");
    pane.keys("Enter");
    await pane.waitFor("value:");
    pane.type("7");
    pane.keys("Enter");
    await pane.waitFor("retry.maxRetries: 7 (saved to settings.json)");
    expect(settingsFile()).toEqual({ steeringMode: "all", retry: { maxRetries: 7 } });
    pane.keys("Enter");
    pane.type("lots");
    pane.keys("Enter");
    await pane.waitFor('retry.maxRetries takes a number; got "lots"');
    expect(settingsFile()).toEqual({ steeringMode: "all", retry: { maxRetries: 7 } });
  });

  it("/bug exports a report zip with the transcript when asked, and records it in the session", async () => {
    const pane = start();
    await pane.waitFor("alpha-1");
    await ask(pane, "something odd", "odd answer");
    command(pane, "/bug the footer flickers");
    await pane.waitFor("Include the session transcript?");
    pane.keys("Enter");
    await pane.waitFor("Bug report exported to:");
    const zipName = readdirSync(suite.user.project).find((f) => /^pi-bug-report-.*\.zip$/.test(f));
    expect(zipName).toBeDefined();
    const zip = await JSZip.loadAsync(readFileSync(join(suite.user.project, zipName!)));
    expect(Object.keys(zip.files).sort()).toEqual(["diagnostics.json", "report.json", "session.jsonl"]);
    const report = JSON.parse(await zip.file("report.json")!.async("string")) as Record<string, any>;
    expect(report.hint).toBe("the footer flickers");
    expect(report.session.included).toBe(true);
    expect(report.settings).toBeDefined();
    expect(await zip.file("session.jsonl")!.async("string")).toContain("something odd");
    const session = readFileSync(suite.user.sessionFiles()[0]!, "utf8");
    expect(session).toContain('"customType":"pi.bug-report"');
    command(pane, "/bug");
    await pane.waitFor("What went wrong? (optional)");
    pane.type("no transcript this time");
    pane.keys("Enter");
    await pane.waitFor((screen) => !screen.includes("What went wrong?"), { all: false });
    pane.keys("Down", "Enter");
    await pane.waitFor((screen) => (screen.match(/Bug report exported to:/g) ?? []).length === 2);
    const zips = readdirSync(suite.user.project).filter((f) => /^pi-bug-report-.*\.zip$/.test(f));
    expect(zips).toHaveLength(2);
    const second = zips.find((z) => z !== zipName)!;
    const zip2 = await JSZip.loadAsync(readFileSync(join(suite.user.project, second)));
    expect(Object.keys(zip2.files).sort()).toEqual(["diagnostics.json", "report.json"]);
    const report2 = JSON.parse(await zip2.file("report.json")!.async("string")) as Record<string, any>;
    expect(report2.hint).toBe("no transcript this time");
    expect(report2.session.included).toBe(false);
    command(pane, "/bug");
    await pane.waitFor("What went wrong? (optional)", { all: false });
    pane.keys("Escape");
    await pane.waitFor("Bug report cancelled");
  });
});
