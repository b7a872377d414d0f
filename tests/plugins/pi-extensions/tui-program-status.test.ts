/**
 * pi's program status (OSC 7501) from the terminal view: `custom()` with `blocked` reports pi as blocked
 * (kind and message) while its component is shown, a component without it does not, and a run reports
 * working then done — sent because `PI_PROGRAM_STATUS=1`, as pi sends it without asking the terminal.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatProgramStatus, ProgramStatusReporter } from "../../../plugins/modes/mode-interactive/program-status.js";
import { noteRunEnd, programStatus } from "../../../plugins/ui/tui/program-status.js";
import { initialViewState, type ViewState } from "../../../plugins/ui/tui/state.js";
import { bootTui, type TuiHarness } from "../tui/harness.js";
import { fixture, notices, withExtensions } from "./ext-harness.js";

let harness: TuiHarness | undefined;
const saved = process.env.PI_PROGRAM_STATUS;
beforeAll(() => {
  process.env.PI_PROGRAM_STATUS = "1";
});
afterAll(() => {
  if (saved === undefined) delete process.env.PI_PROGRAM_STATUS;
  else process.env.PI_PROGRAM_STATUS = saved;
});
afterEach(async () => {
  await harness?.stop();
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** Resolves once `text` was written to the terminal after offset `from`. */
const written = (h: TuiHarness, text: string, from = 0): Promise<void> =>
  new Promise<void>((resolve) => {
    const check = (): void => (h.written().indexOf(text, from) >= 0 ? resolve() : void setTimeout(check, 20));
    check();
  });

const blocked = formatProgramStatus({ state: "blocked", kind: "question", message: "Pick a color" });

describe("program status in the TUI", () => {
  it("custom() with blocked reports blocked while shown; after done() the status moves on", async () => {
    const h = (harness = await bootTui({
      ...withExtensions([fixture("blocked-custom.ts")], { faux: { responses: [{ content: "fine" }] } }),
      width: 80,
      height: 24,
    }));
    await h.waitFor("faux");
    expect(h.written()).toContain(formatProgramStatus({ state: "idle" }));
    h.type("/loader\r");
    await h.waitFor("LOADING (x to stop)");
    expect(h.written()).not.toContain("state=blocked");
    h.type("x");
    await h.waitFor("loader done");
    h.type("/ask\r");
    await h.waitFor("ASK: pick a color");
    await written(h, blocked);
    h.type("g");
    await h.waitFor("picked green");
    const after = h.written().slice(h.written().lastIndexOf(blocked));
    expect(after).toMatch(/\x1b\]7501;state=(done|idle)/);
    h.type("hello\r");
    await h.waitFor("fine");
    // The run is over: done (whether a frame caught it working depends on the machine's speed).
    await written(h, formatProgramStatus({ state: "done" }), h.written().lastIndexOf(blocked));
  });

  it("a blocked option that is not { kind, message } fails the call with one clear line", async () => {
    const h = (harness = await bootTui({ ...withExtensions([fixture("blocked-custom.ts")]), width: 80, height: 24 }));
    h.type("/bad-blocked\r");
    await h.waitFor("blocked must be");
    expect(notices(h.events).join("\n")).toContain(
      'ctx.ui.custom: blocked must be { kind: "question" | "permission" | "auth", message }',
    );
  });
});

describe("programStatus", () => {
  const state = (fields: Partial<ViewState>): ViewState => ({ ...initialViewState(), ...fields });

  it("blocked (a dialog first, then a component), working, then how the last run ended", () => {
    const dialog = { id: "d", kind: "confirm" as const, title: "Allow?", selected: 0, text: "" };
    const waiting = { kind: "permission" as const, message: "Allow rm" };
    expect(programStatus(state({ dialogs: [dialog], busy: true }), waiting, "s")).toEqual({
      state: "blocked",
      kind: "question",
      message: "Allow?",
    });
    expect(programStatus(state({ busy: true }), waiting, "s")).toEqual({ state: "blocked", ...waiting });
    expect(programStatus(state({ busy: true }), undefined, "my session")).toEqual({
      state: "working",
      message: "my session",
    });
    expect(programStatus(state({ compacting: true }), undefined, undefined)).toEqual({ state: "working" });
    expect(programStatus(state({}), undefined, "s")).toEqual({ state: "idle" });
    const ended = state({});
    noteRunEnd(ended, {
      type: "agent_end",
      messages: [{ role: "assistant", stopReason: "error", errorMessage: "429 slow down\nmore" }],
    } as never);
    expect(programStatus(ended, undefined, "s")).toEqual({ state: "error", message: "429 slow down" });
    noteRunEnd(ended, { type: "agent_end", messages: [{ role: "assistant", stopReason: "stop" }] } as never);
    expect(programStatus(ended, undefined, "s")).toEqual({ state: "done", message: "s" });
    noteRunEnd(ended, { type: "agent_end", messages: [{ role: "assistant", stopReason: "aborted" }] } as never);
    expect(programStatus(ended, undefined, "s")).toEqual({ state: "idle" });
  });
});

describe("ProgramStatusReporter", () => {
  it("asks the terminal unless PI_PROGRAM_STATUS decides; reports only after a reply, only changes, then clears", () => {
    const out: string[] = [];
    const reporter = new ProgramStatusReporter((bytes) => out.push(bytes), "auto");
    expect(reporter.query()).toBe("\x1b]7501;?\x1b\\");
    reporter.report({ state: "working", message: "my session" });
    expect(out).toEqual([]);
    expect(reporter.takeReplies("a\x1b]7501;?\x1b\\b")).toBe("ab");
    expect(out).toEqual([`\x1b]7501;state=working:msg=${Buffer.from("my session").toString("base64")}\x1b\\`]);
    reporter.report({ state: "working", message: "my session" });
    reporter.report({ state: "blocked", kind: "auth", message: "Log in\n" });
    expect(out[1]).toBe(`\x1b]7501;state=blocked:kind=auth:msg=${Buffer.from("Log in").toString("base64")}\x1b\\`);
    reporter.clear();
    expect(out.at(-1)).toBe("\x1b]7501;state=clear\x1b\\");
    expect(out).toHaveLength(3);
    const off = new ProgramStatusReporter((bytes) => out.push(bytes), "0");
    expect(off.query()).toBe("");
    off.report({ state: "idle" });
    expect(out).toHaveLength(3);
  });
});
