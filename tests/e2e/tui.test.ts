/**
 * The interactive terminal UI end to end: the BUILT `pi` runs in a detached tmux session of a fixed size
 * (its own tmux server socket), against provider-faux scripted through the user's plugins.json and paced
 * in tokens per second so streaming is visible. The tests type with `send-keys` and read the screen with
 * `capture-pane`, synchronizing by polling the screen for expected text with a timeout — never by sleeping.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import stringWidth from "string-width";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "../../plugins/ui/tui/markdown.js";
import { Theme, DARK_THEME } from "../../plugins/ui/tui/theme.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer, type Pane } from "./tmux-pane.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the interactive TUI end-to-end tests");

/** A home with an agent folder: faux models, the faux script in the user's plugins.json overlay, settings. */
function makeHome(
  responses: unknown[],
  options: { tokensPerSecond?: number; settings?: Record<string, unknown>; plugins?: unknown[] } = {},
): { home: string; cwd: string } {
  const home = mkdtempSync(join(tmpdir(), "pi-tui-e2e-"));
  const agent = join(home, "agent");
  const cwd = join(home, "work");
  mkdirSync(agent, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(
    join(agent, "models.json"),
    JSON.stringify({
      providers: {
        faux: {
          api: "faux",
          baseUrl: "http://localhost:0",
          apiKey: "none",
          models: [{ id: "faux-1", reasoning: true }, { id: "faux-2" }],
        },
      },
    }),
  );
  writeFileSync(
    join(agent, "settings.json"),
    JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1", ...options.settings }),
  );
  writeFileSync(
    join(agent, "plugins.json"),
    JSON.stringify({
      plugins: [
        { id: "provider-faux", config: { tokensPerSecond: options.tokensPerSecond ?? 100, responses } },
        ...(options.plugins ?? []),
      ],
    }),
  );
  return { home, cwd };
}

/** Screen rows of an answer as the view renders it at `width` (markdown, one-cell margin), colours stripped. */
function expectedAnswerRows(text: string, width: number): string[] {
  return renderMarkdown(text, width - 2, new Theme(DARK_THEME)).map((row) =>
    ` ${row}`.replace(/\x1b\[[0-9;:]*m/g, "").trimEnd(),
  );
}

let tmux: TmuxServer | undefined;
afterEach(() => tmux?.killPanes());

beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});

afterAll(() => tmux?.close());

/** pi in a pane for `home`, whose waitFor polls the visible screen. */
const start = (options: { home: string; cwd: string; args?: string[]; width?: number; height?: number }): Pane =>
  tmux!.start({
    cwd: options.cwd,
    env: { PI_CODING_AGENT_DIR: join(options.home, "agent"), HOME: options.home },
    args: options.args,
    width: options.width,
    height: options.height,
    watch: "screen",
  });

// Each test drives a real terminal for several seconds; a loaded CI machine gets room.
describe.skipIf(!HAS_TMUX)("interactive TUI in tmux (built CLI)", { timeout: 120_000 }, () => {
  it("acceptance 1: a prompt streams an answer and a tool call; Esc aborts a long answer; a message typed while streaming is queued and sent after the answer", async () => {
    const { home, cwd } = makeHome([
      { content: "Hello from the **faux** model." },
      {
        content: [{ type: "toolCall", id: "call-1", name: "bash", arguments: { command: "echo tool-output-marker" } }],
      },
      { content: "The tool printed its marker." },
      { content: "word ".repeat(3_000) },
      { content: `First part of the answer, ${"still streaming ".repeat(25)}END-OF-FIRST` },
      { content: "The steered answer." },
    ]);
    const pane = start({ home, cwd });
    await pane.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));

    pane.type("say hello");
    pane.keys("Enter");
    await pane.waitFor("Hello from the faux model.");
    expect(pane.capture()).toMatch(/^ say hello/m);

    pane.type("use the tool");
    pane.keys("Enter");
    const afterTool = await pane.waitFor("The tool printed its marker.");
    expect(afterTool).toContain("$ echo tool-output-marker");
    expect(afterTool).toMatch(/^ tool-output-marker/m);

    // A long answer streams (we see part of it, with the working line), then Esc aborts it.
    pane.type("a long one please");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Working…") && /(word ){10}/.test(s));
    pane.keys("Escape");
    const aborted = await pane.waitFor("Aborted");
    expect(aborted).not.toContain("Working…");
    // At least the ten words waited for above stay on screen (Esc may land right after them), and fewer
    // than the whole answer: the stream was cut.
    const words = pane.captureAll().match(/\bword\b/g)?.length ?? 0;
    expect(words).toBeGreaterThanOrEqual(10);
    expect(words).toBeLessThan(3_000);

    // Typed while the answer streams: shown as queued steering, then sent when the answer is done.
    pane.type("go on");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Working…") && s.includes("First part of the answer"));
    pane.type("please steer");
    pane.keys("Enter");
    const queued = await pane.waitFor("Steering: please steer");
    expect(queued).not.toContain("END-OF-FIRST");
    const done = await pane.waitFor((s) => s.includes("The steered answer.") && !s.includes("Working…"));
    expect(done).not.toContain("Steering:");
    const all = pane.captureAll();
    const endOfFirst = all.indexOf("END-OF-FIRST");
    const steerEntry = all.search(/^ please steer/m);
    expect(endOfFirst).toBeGreaterThan(0);
    expect(steerEntry).toBeGreaterThan(endOfFirst);
    expect(all.indexOf("The steered answer.")).toBeGreaterThan(steerEntry);

    // Ctrl+C twice leaves.
    pane.keys("C-c");
    await pane.waitFor("Press ctrl+c again to exit");
    pane.keys("C-c");
    await pane.waitFor("[pi exited 0]");
  });

  it("acceptance 2: /model picks a model, /tree switches branches, /compact summarizes, /resume reopens a session", async () => {
    const { home, cwd } = makeHome(
      [
        { content: "answer one" },
        { content: "answer two" },
        { content: "answer three" },
        // A cut inside a turn: one summary of the history, one of the turn's start.
        { content: "Summary: the user asked questions." },
        { content: "Summary of the turn prefix." },
        { content: "fresh answer" },
      ],
      { tokensPerSecond: 0, settings: { compaction: { keepRecentTokens: 1 } } },
    );
    const pane = start({ home, cwd, width: 90, height: 30 });
    await pane.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));

    // /model: the picker lists both models; filtering and Enter switch to faux-2.
    pane.type("/model");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Select a model") && s.includes("faux/faux-2"));
    pane.type("faux-2");
    pane.keys("Enter");
    await pane.waitFor((s) => /faux-2\s*$/m.test(s) && !s.includes("Select a model"));

    pane.type("first question");
    pane.keys("Enter");
    await pane.waitFor("answer one");
    pane.type("second question");
    pane.keys("Enter");
    await pane.waitFor("answer two");

    // /tree: choose the first user message — the editor gets its text, the transcript goes back before it.
    pane.type("/tree");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Session Tree") && s.includes("user: second question"));
    pane.type("first question");
    pane.keys("Enter");
    // pi's question about the branch being left: "No summary" is the first answer.
    await pane.waitFor((s) => s.includes("Summarize branch?") && s.includes("Summarize with custom prompt"));
    pane.keys("Enter");
    await pane.waitFor((s) => !s.includes("Summarize branch?") && !s.includes("answer one"));
    pane.type(" again");
    pane.keys("Enter");
    const branched = await pane.waitFor("answer three");
    expect(branched).toContain("first question again");
    expect(branched).not.toContain("answer two");

    // /tree again: both branches; switching to the old one shows its messages.
    pane.type("/tree");
    pane.keys("Enter");
    const tree = await pane.waitFor((s) => s.includes("Session Tree") && s.includes("user: first question again"));
    expect(tree).toContain("assistant: answer two");
    pane.type("answer two");
    pane.keys("Enter");
    await pane.waitFor("Summarize branch?");
    pane.keys("Enter");
    const switched = await pane.waitFor((s) => !s.includes("Summarize branch?") && s.includes("answer two"));
    expect(switched).toContain("second question");
    expect(switched).not.toContain("answer three");

    // /compact: the summary entry appears.
    pane.type("/compact");
    pane.keys("Enter");
    await pane.waitFor("Compacted");

    // /new, then /resume the first session.
    pane.type("/new");
    pane.keys("Enter");
    await pane.waitFor((s) => !s.includes("answer two"));
    pane.type("new session question");
    pane.keys("Enter");
    await pane.waitFor("fresh answer");
    pane.type("/resume");
    pane.keys("Enter");
    await pane.waitFor(
      (s) => s.includes("Resume a session") && s.includes("first question") && s.includes("new session question"),
    );
    pane.type("first question");
    pane.keys("Enter");
    const resumed = await pane.waitFor((s) => !s.includes("Resume a session") && s.includes("answer two"));
    expect(resumed).not.toContain("fresh answer");
  });

  it("acceptance 3: resizing mid-stream leaves no stray characters; CJK and emoji line up", async () => {
    const answer = [
      "Wide text: 中文字符和日本語のテキスト mixed with emoji 👍🎉 and plain words that wrap across rows.",
      "",
      ...Array.from(
        { length: 12 },
        (_, i) =>
          `- Line ${i + 1}: 漢字 ${"🙂".repeat(i % 4)} alpha beta gamma delta epsilon zeta eta theta iota kappa.`,
      ),
    ].join("\n");
    const { home, cwd } = makeHome([{ content: answer }], { tokensPerSecond: 60 });
    // The scrollback is what this checks: regular mode keeps the transcript there.
    const pane = start({ home, cwd, width: 80, height: 24, args: ["--tui-mode", "regular"] });
    await pane.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));
    pane.type("show wide text");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Working…") && s.includes("Line 2:"));
    pane.resize(60, 20);
    await pane.waitFor((s) => s.includes("Line 12:") && !s.includes("Working…"));

    const all = pane.captureAll().split("\n");
    // Every row fits the new width.
    for (const row of all) expect(stringWidth(row), row).toBeLessThanOrEqual(60);
    // The transcript was redrawn once at the new width: one header, no rows left from the old width.
    expect(all.filter((row) => row.includes("pi-host")).length).toBe(1);
    const expected = expectedAnswerRows(answer, 60);
    const first = all.indexOf(expected[0]);
    expect(first, all.join("\n")).toBeGreaterThan(0);
    expect(all.slice(first, first + expected.length)).toEqual(expected);
    // The live area follows at the new width.
    const borders = all.filter((row) => /^─+$/.test(row));
    expect(borders.length).toBe(2);
    for (const border of borders) expect(border.length).toBe(60);
  });

  it("acceptance 4: under pi --watch, editing a file of the tui plugin swaps the UI and keeps the transcript and the editor text", async () => {
    // A copy of the tui plugin's source (with the kernel and contracts it imports), loaded with --plugin.
    const tree = mkdtempSync(join(tmpdir(), "pi-tui-copy-"));
    for (const dir of ["kernel", "contracts", "plugins/ui/tui"])
      cpSync(join(ROOT, dir), join(tree, dir), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    const footer = join(tree, "plugins/ui/tui/footer.ts");
    const source = readFileSync(footer, "utf8");
    expect(source).toContain(" ctx`");

    const { home, cwd } = makeHome([{ content: "An answer that must survive the swap." }], { tokensPerSecond: 0 });
    const pane = start({ home, cwd, args: ["--watch", "--plugin", `tui=${join(tree, "plugins/ui/tui/index.ts")}`] });
    await pane.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));
    pane.type("before the swap");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("An answer that must survive the swap.") && s.includes("128k ctx"));
    pane.type("draft in the editor");
    await pane.waitFor("draft in the editor");

    writeFileSync(footer, source.replace(" ctx`", " context`"));
    const swapped = await pane.waitFor("128k context");
    expect(swapped).toContain("An answer that must survive the swap.");
    expect(swapped).toMatch(/^ before the swap/m);
    expect(swapped).toContain("draft in the editor");
    // The editor still works on the new code, with the same text and cursor.
    pane.type(" and more");
    await pane.waitFor("draft in the editor and more");
  });
});
