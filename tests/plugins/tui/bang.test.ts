import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../../contracts/ai/index.js";
import { parseBang } from "../../../plugins/ui/tui/view-bash.js";
import { bootTui, type TuiHarness } from "./harness.js";

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.stop();
  await h?.kernel.shutdown();
  h = undefined;
});

const ready = (t: TuiHarness) => t.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));

/** Every user text of a request, joined. */
function userTexts(messages: readonly Message[]): string[] {
  return messages
    .filter((m) => m.role === "user")
    .map((m) =>
      typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
    );
}

describe("parseBang", () => {
  it("reads ! and !! lines and leaves every other line to the prompt", () => {
    expect(parseBang("!echo hi")).toEqual({ command: "echo hi", excludeFromContext: false });
    expect(parseBang("!! ls -la ")).toEqual({ command: "ls -la", excludeFromContext: true });
    expect(parseBang("!")).toBeUndefined();
    expect(parseBang("!!  ")).toBeUndefined();
    expect(parseBang("say !hi")).toBeUndefined();
  });
});

describe("tui !command", () => {
  it("!echo shows the output and the next request carries the run", async () => {
    h = await bootTui({ faux: { responses: [{ content: "seen it" }] } });
    await ready(h);
    h.type("!echo bang-$((40+2))\r");
    await h.waitFor((s) => s.includes("$ echo bang-$((40+2))") && s.includes("bang-42"));
    h.type("what did it print\r");
    await h.waitFor("seen it");
    expect(h.faux.requests).toHaveLength(1);
    const texts = userTexts(h.faux.requests[0]!.context.messages);
    expect(texts).toEqual(["Ran `echo bang-$((40+2))`\n```\nbang-42\n\n```", "what did it print"]);
  });

  it("!!echo shows the output and the next request leaves it out", async () => {
    h = await bootTui({ faux: { responses: [{ content: "nothing seen" }] } });
    await ready(h);
    h.type("!!echo quiet-run\r");
    await h.waitFor((s) => s.includes("$ echo quiet-run (not sent to the model)") && /^\s*quiet-run\s*$/m.test(s));
    h.type("hello\r");
    await h.waitFor("nothing seen");
    expect(userTexts(h.faux.requests[0]!.context.messages)).toEqual(["hello"]);
    const recorded = h.session.api.messages().find((m) => m.role === "bashExecution") as unknown as Record<
      string,
      unknown
    >;
    expect(recorded).toMatchObject({ command: "echo quiet-run", excludeFromContext: true, exitCode: 0 });
  });

  it("a failing command shows its exit code, and the model reads it", async () => {
    h = await bootTui({ faux: { responses: [{ content: "ok" }] } });
    await ready(h);
    h.type("!echo oops; exit 3\r");
    await h.waitFor("Command exited with code 3");
    h.type("and?\r");
    await h.waitFor((s) => s.includes("and?") && /\bok\b/.test(s));
    expect(userTexts(h.faux.requests[0]!.context.messages)[0]).toContain("Command exited with code 3");
  });

  it("a long output keeps pi's tail and names the file with the whole output", async () => {
    h = await bootTui({ faux: { responses: [{ content: "ok" }] } });
    await ready(h);
    h.type("!seq 1 3000\r");
    await h.waitFor("Output truncated");
    const recorded = h.session.api.messages().find((m) => m.role === "bashExecution") as unknown as Record<
      string,
      unknown
    >;
    expect(recorded.truncated).toBe(true);
    const lines = String(recorded.output).split("\n");
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe("1001");
    expect(lines.at(-1)).toBe("3000");
    expect(recorded.fullOutputPath).toMatch(/pi-bash-.*\.log$/);
  });

  it("a reload of the tui plugin while the command runs stops it, and the box shows it ended", async () => {
    h = await bootTui({ faux: { responses: [{ content: "ok" }] } });
    await ready(h);
    h.type("!sleep 5; echo never-printed\r");
    await h.waitFor("$ sleep 5; echo never-printed …");
    // The kernel owns the shell, so the retired generation's child stops; the new view learns the
    // result from the recorded message.
    expect((await h.kernel.reload("tui")).status).toBe("committed");
    h.type("x");
    await h.waitFor((s) => s.includes("$ sleep 5; echo never-printed") && !s.includes("never-printed …"));
    const recorded = h.session.api.messages().find((m) => m.role === "bashExecution") as unknown as Record<
      string,
      unknown
    >;
    expect(recorded).toMatchObject({ command: "sleep 5; echo never-printed", output: "" });
    expect(recorded.exitCode).not.toBe(0);
  });
});
