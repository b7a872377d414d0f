import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UserMessage } from "../../../contracts/ai/index.js";
import { fauxThinking, fauxText } from "../../../plugins/ai/provider-faux/faux.js";
import { bootTui, type TuiHarness } from "./harness.js";

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.stop();
  await h?.kernel.shutdown();
  h = undefined;
});

const ready = (t: TuiHarness) => t.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));

describe("tui view in-process", () => {
  it("a reload of the tui plugin keeps the transcript, the editor text and cursor, and the next frame writes only what changed", async () => {
    h = await bootTui({ faux: { responses: [{ content: "the kept answer" }] } });
    await ready(h);
    h.type("question\r");
    await h.waitFor("the kept answer");
    h.type("half-typed");
    h.type("\x1b[D\x1b[D");
    await h.waitFor("half-typed");
    const before = h.screen();
    const bytesBefore = h.vt.bytes;
    const result = await h.kernel.reload("tui");
    expect(result.status).toBe("committed");
    expect(h.kernel.activeGeneration("tui")).toBe(2);
    h.type("X");
    const after = await h.waitFor("half-typXed");
    expect(after).toContain("the kept answer");
    expect(after.replace("half-typXed", "half-typed")).toBe(before);
    // Only the edited row changed: a handful of bytes, not a redraw.
    expect(h.vt.bytes - bytesBefore).toBeLessThan(200);
  });

  it("Alt+Enter while the agent works queues a follow-up, shown until the run takes it", async () => {
    h = await bootTui({
      faux: {
        tokensPerSecond: 200,
        responses: [{ content: `${"long ".repeat(150)}FIRST-DONE` }, { content: "follow-up answer" }],
      },
    });
    await ready(h);
    h.type("start\r");
    await h.waitFor("Working…");
    h.type("later please\x1b\r");
    await h.waitFor("Follow-up: later please");
    const done = await h.waitFor((s) => s.includes("follow-up answer") && !s.includes("Working…"));
    expect(done).not.toContain("Follow-up:");
    const users = h.faux.requests[1]!.context.messages.filter((m): m is UserMessage => m.role === "user");
    expect(
      users.map((m) =>
        typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
      ),
    ).toEqual(["start", "later please"]);
  });

  it("coalesces a fast stream into far fewer frames than deltas", async () => {
    h = await bootTui({ faux: { responses: [{ content: "token ".repeat(400) }] } });
    await ready(h);
    const framesBefore = h.vt.frames;
    h.type("go\r");
    await h.waitFor((s) => !s.includes("Working…") && s.includes("token token"));
    expect(h.vt.frames - framesBefore).toBeLessThan(200);
  });

  it("completes /commands and @files, collapses thinking until Ctrl+T, and exits on Ctrl+D in an empty editor", async () => {
    h = await bootTui({
      faux: { responses: [{ content: [fauxThinking("secret reasoning here"), fauxText("visible answer")] }] },
    });
    mkdirSync(join(h.cwd, "src"));
    writeFileSync(join(h.cwd, "src", "main.ts"), "");
    await ready(h);
    h.type("/mo");
    await h.waitFor("/model  Pick the model");
    h.type("\t");
    await h.waitFor((s) => /^\/model$/m.test(s) && !s.includes("Pick the model"));
    h.type("\x15look at @sr");
    await h.waitFor("@src/");
    h.type("\t");
    await h.waitFor("look at @src/");
    h.type("m\t");
    await h.waitFor((s) => s.includes("look at @src/main.ts") && h!.vt.col === "look at @src/main.ts ".length);
    h.type("\r");
    await h.waitFor("visible answer");
    expect(h.screen()).not.toContain("secret reasoning");
    expect(h.screen()).toContain("Thinking (ctrl+t to expand)");
    h.type("\x14");
    await h.waitFor("secret reasoning here");
    h.type("\x04");
    expect(await h.exited).toBe(0);
  });

  it("Esc aborts, and Ctrl+C clears the editor, then a second Ctrl+C exits", async () => {
    h = await bootTui({ faux: { tokensPerSecond: 50, responses: [{ content: "slow ".repeat(500) }] } });
    await ready(h);
    h.type("go\r");
    await h.waitFor("slow slow");
    h.type("\x1b");
    await h.waitFor("Aborted");
    h.type("some text");
    await h.waitFor("some text");
    h.type("\x03");
    const cleared = await h.waitFor("Press ctrl+c again to exit");
    expect(cleared).not.toContain("some text");
    h.type("\x03");
    expect(await h.exited).toBe(0);
  });
});

describe("tui commands in-process", () => {
  it("/fork starts a new session from an earlier message and puts its text in the editor", async () => {
    h = await bootTui({ faux: { responses: [{ content: "reply one" }, { content: "reply two" }] } });
    await ready(h);
    h.type("first message\r");
    await h.waitFor("reply one");
    h.type("second message\r");
    await h.waitFor("reply two");
    const before = h.session.call("state").sessionFile;
    h.type("/fork\r");
    await h.waitFor((s) => s.includes("Fork from a message") && s.includes("second message"));
    h.type("second\r");
    const forked = await h.waitFor((s) => !s.includes("Fork from a message") && !s.includes("reply two"));
    expect(forked).toContain("reply one");
    expect(forked).toMatch(/^second message$/m);
    expect(h.session.call("state").sessionFile).not.toBe(before);
  });

  it("/tree labels an entry with L, and the label shows in the tree and in the session file", async () => {
    h = await bootTui({ faux: { responses: [{ content: "an answer" }] } });
    await ready(h);
    h.type("label me\r");
    await h.waitFor("an answer");
    h.type("/tree\r");
    await h.waitFor("user: label me");
    h.type("label me");
    await h.waitFor("filter: label me");
    h.type("L");
    await h.waitFor("label:");
    h.type("milestone\r");
    await h.waitFor("[milestone]");
    const labels = h.kernel
      .use((await import("../../../contracts/session.js")).SessionStoreContract)
      .call("entries")
      .filter((e) => e.type === "label");
    expect(labels).toHaveLength(1);
    // As in pi, Esc clears a typed search first, then closes the tree.
    h.type("\x1b");
    await h.waitFor((s) => s.includes("Session Tree") && !s.includes("filter: label me"));
    h.type("\x1b");
    await h.waitFor((s) => !s.includes("Session Tree"));
  });

  it("/session, /plugins, /help and /theme report in the transcript", async () => {
    const { definePlugin } = await import("../../../kernel/index.js");
    const off = definePlugin({ id: "switched-off", version: "1.0.0", setup() {} });
    h = await bootTui({
      faux: { responses: [{ content: "ok" }] },
      entries: [{ id: off.id, source: { kind: "inline", label: off.id, definition: off }, enabled: false }],
    });
    await ready(h);
    h.type("hello\r");
    await h.waitFor("ok");
    h.type("/session\r");
    const session = await h.waitFor("messages: 1 user, 1 assistant");
    expect(session).toContain("model: faux/faux-1");
    h.type("/plugins\r");
    const plugins = await h.waitFor("Plugins serving this session:");
    expect(plugins).toMatch(/tui\s+gen 1\s+tui\/view/);
    expect(plugins).toMatch(/agent-session\s+gen 1\s+agent\/session/);
    expect(plugins).toMatch(/session-jsonl\s+gen 1\s+session\/store/);
    expect(plugins).toMatch(/Not serving:\n\s+switched-off\s+disabled/);
    h.type("/theme light\r");
    h.type("/theme\r");
    await h.waitFor("Theme: light");
    h.type("/theme nosuch\r");
    await h.waitFor('theme "nosuch": no such theme (themes here: system, dark, light)');
    h.type("/help\r");
    await h.waitFor("complete /commands and @files");
  });
});

describe("the ui contract while the TUI runs", () => {
  it("shows other plugins' dialogs in place of the editor and hands back the answers; status, widget, notice and title appear", async () => {
    const { activeUi, UiContract } = await import("../../../contracts/ui.js");
    const { testTool } = await import("../agent-session/harness.js");
    const { fauxToolCall } = await import("../../../plugins/ai/provider-faux/faux.js");
    let ui: () => import("../../../contracts/ui.js").UserInterface = () => {
      throw new Error("not booted");
    };
    const ask = testTool("ask", async () => {
      const u = ui();
      const color = await u.select("Pick a color", ["red", "green", "blue"]);
      const sure = await u.confirm("Really?", `use ${color}?`);
      const name = await u.input("Name it", "a name");
      u.setStatus("ext", "status from ext");
      u.setWidget("w", ["widget row"]);
      u.notify("a notice from ext", "warning");
      u.setTitle("pi: asked");
      return `answers: ${color} ${sure} ${name}`;
    });
    h = await bootTui({
      tools: [ask],
      faux: { responses: [{ content: [fauxToolCall("ask", {}, "a1")] }, { content: "thanks" }] },
    });
    const uis = h.kernel.useAll(UiContract);
    ui = () => activeUi(uis);
    await ready(h);
    expect(ui().hasUI()).toBe(true);
    h.type("ask me\r");
    await h.waitFor((s) => s.includes("Pick a color") && s.includes("› red"));
    h.type("\x1b[B\r");
    await h.waitFor((s) => s.includes("Really?") && s.includes("use green?"));
    h.type("y");
    await h.waitFor("Name it");
    h.type("Verdant\r");
    const done = await h.waitFor("thanks");
    expect(done).toContain("answers: green true Verdant");
    expect(done).toContain("status from ext");
    expect(done).toContain("widget row");
    expect(done).toContain("a notice from ext");
    expect(h.vt.title).toBe("pi: asked");
    // After the run, there is no user: dialogs take their defaults at once.
    await h.stop();
    expect(ui().hasUI()).toBe(false);
    expect(await ui().confirm("late", "nobody")).toBe(false);
  });

  it("Esc dismisses a dialog (its default), and a timeout answers for the user", async () => {
    const { activeUi, UiContract } = await import("../../../contracts/ui.js");
    h = await bootTui();
    await ready(h);
    const ui = activeUi(h.kernel.useAll(UiContract));
    const picked = ui.select("Choose", ["a", "b"]);
    await h.waitFor("Choose");
    h.type("\x1b");
    expect(await picked).toBeUndefined();
    await h.waitFor((s) => !s.includes("Choose"));
    const timed = ui.input("Slow question", undefined, { timeout: 20 });
    expect(await timed).toBeUndefined();
    await h.waitFor((s) => !s.includes("Slow question"));
  });
});
