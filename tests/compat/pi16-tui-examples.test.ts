/**
 * pi 1.6.0's own example extensions for its TUI, run unchanged in pi-host's terminal view (in-process,
 * on a virtual terminal): a message renderer, a custom footer, a modal (vim-like) editor, the snake
 * game as a custom screen, and the hidden thinking label. Skipped with the reason when pi 1.6.0 is
 * not installed in tests/compat/pi16.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../plugins/ai/provider-faux/faux.js";
import { withExtensions } from "../plugins/pi-extensions/ext-harness.js";
import { bootTui, type TuiHarness } from "../plugins/tui/harness.js";
import { PI16_CLI, pi16Missing } from "./pi16.js";

const EXAMPLES = join(PI16_CLI, "..", "..", "examples", "extensions");
if (pi16Missing) console.log(`skipping pi 1.6.0's TUI examples: ${pi16Missing}`);

let harness: TuiHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  await harness?.kernel.shutdown();
  harness = undefined;
});

const boot = async (...names: string[]) => bootWith({}, ...names);
const bootWith = async (options: Parameters<typeof withExtensions>[1], ...names: string[]) =>
  (harness = await bootTui({
    ...withExtensions(
      names.map((n) => join(EXAMPLES, n)),
      options,
    ),
    width: 80,
    height: 30,
  }));

describe.skipIf(pi16Missing !== undefined)("pi 1.6.0's TUI example extensions", () => {
  it("message-renderer.ts: /status draws the message with its renderer", async () => {
    const h = await boot("message-renderer.ts");
    h.type("/status warn disk almost full\r");
    const screen = await h.waitFor("[WARN] disk almost full");
    expect(screen).not.toContain("[status-update]");
  });

  it("custom-footer.ts: /footer replaces the footer with tokens, cost and the model", async () => {
    const h = await boot("custom-footer.ts");
    h.type("/footer\r");
    await h.waitFor("Custom footer enabled");
    const screen = await h.waitFor("faux-1");
    expect(screen).toContain("↑0 ↓0 $0.000");
    h.type("/footer\r");
    await h.waitFor("Default footer restored");
  });

  it("modal-editor.ts: the editor switches to normal mode on Escape, hjkl and x edit the TUI's text", async () => {
    const h = await boot("modal-editor.ts", "message-renderer.ts");
    // Extensions load on first use: the first command runs session_start, which sets the editor.
    h.type("/status ready\r");
    await h.waitFor("INSERT");
    h.type("hello");
    await h.waitFor("hello");
    h.type("\x1b");
    await h.waitFor("NORMAL");
    h.type("0");
    h.type("x");
    await h.waitFor((s) => s.includes("ello") && !s.includes("hello"));
    h.type("i");
    await h.waitFor("INSERT");
    h.type("J");
    await h.waitFor("Jello");
  });

  it("snake.ts: /snake takes the editor's place and the keys; Escape saves the game, /snake resumes it paused", async () => {
    const h = await boot("snake.ts");
    h.type("/snake\r");
    await h.waitFor("SNAKE");
    h.type("\x1b");
    await h.waitFor((s) => !s.includes("SNAKE"));
    h.type("/snake\r");
    await h.waitFor("PAUSED");
    h.type("q");
    await h.waitFor((s) => !s.includes("SNAKE"));
    h.type("typed after");
    await h.waitFor("typed after");
  });

  it("question.ts: the model's question is a custom screen; 'Type something.' opens an Editor whose text is the answer", async () => {
    const h = await bootWith(
      {
        faux: {
          responses: [
            {
              content: [
                fauxToolCall(
                  "question",
                  { question: "Favourite colour?", options: [{ label: "red" }, { label: "blue" }] },
                  "q1",
                ),
              ],
            },
            { content: "noted" },
          ],
        },
      },
      "question.ts",
    );
    h.type("ask me\r");
    await h.waitFor("Favourite colour?");
    await h.waitFor("3. Type something.");
    h.type("\x1b[B\x1b[B");
    h.type("\r");
    await h.waitFor("Your answer:");
    h.type("purple");
    await h.waitFor("purple");
    h.type("\r");
    await h.waitFor("noted");
    const result = h.faux.requests[1]!.context.messages.find((m) => m.role === "toolResult");
    expect(JSON.stringify(result)).toContain("User wrote: purple");
  });

  it("hidden-thinking-label.ts: /thinking-label sets the collapsed thinking row's text", async () => {
    const h = await boot("hidden-thinking-label.ts");
    h.type("/thinking-label Mulling it over\r");
    await h.waitFor("Hidden thinking label set to: Mulling it over");
  });
});
