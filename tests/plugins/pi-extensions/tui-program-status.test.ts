/**
 * pi's program status (OSC 7501) from the terminal view: `custom()` with `blocked` reports pi as blocked
 * (kind and message) while its component is shown, a component without it does not, and a run reports
 * working then done — sent because `PI_PROGRAM_STATUS=1`, as pi sends it without asking the terminal.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatProgramStatus, ProgramStatusReporter } from "../../../plugins/modes/mode-interactive/program-status.js";
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
    await new Promise<void>((resolve) => {
      const check = (): void => (h.written().includes(blocked) ? resolve() : void setTimeout(check, 20));
      check();
    });
    h.type("g");
    await h.waitFor("picked green");
    const after = h.written().slice(h.written().lastIndexOf(blocked));
    expect(after).toMatch(/\x1b\]7501;state=(done|idle)/);
    h.type("hello\r");
    await h.waitFor("fine");
    const run = h.written().slice(h.written().lastIndexOf(blocked));
    expect(run).toContain("\x1b]7501;state=working");
    expect(run.lastIndexOf("\x1b]7501;state=done")).toBeGreaterThan(run.indexOf("\x1b]7501;state=working"));
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
