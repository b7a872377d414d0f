import { afterEach, describe, expect, it } from "vitest";
import type { UserMessage } from "../../../contracts/ai/index.js";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("pi extension commands", () => {
  it("/hello world runs the command with its arguments, through the running mode's ui, and sends nothing to the model", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("hello-command.ts")], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "model answer" }] },
    }));
    await h.session.call("prompt", "/hello world");
    await h.session.call("prompt", "/hello");
    expect(ui.calls.filter((c) => c.method === "notify")).toEqual([
      { method: "notify", args: ["Hello world!", "info"] },
      { method: "notify", args: ["Hello world!", "info"] },
    ]);
    expect(h.faux.requests).toHaveLength(0);
    expect(h.session.call("messages")).toEqual([]);
    expect(h.session.call("state").isStreaming).toBe(false);
    // Text that names no extension command still goes to the model.
    await h.session.call("prompt", "/unknown thing");
    expect(h.faux.requests[0]!.context.messages[0]).toMatchObject({ role: "user", content: "/unknown thing" });
    expect(notices(h.events)).toEqual([]);
  });

  it("a command's sendUserMessage becomes the prompt it sends on (send-user-message.ts); the command is idle while it runs", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("hello-command.ts")], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "4" }] },
    }));
    await h.session.call("prompt", "/ask What is 2+2?");
    expect(ui.notes()).toEqual([]);
    expect(h.faux.requests).toHaveLength(1);
    const sent = h.faux.requests[0]!.context.messages.at(-1) as UserMessage;
    expect(sent).toMatchObject({ role: "user", content: "What is 2+2?" });
    expect(h.session.call("lastAssistantText")).toBe("4");
    await h.session.call("prompt", "/ask");
    expect(ui.notes()).toEqual(["Usage: /ask <message>"]);
  });

  it("a failing command is reported and the prompt ends there", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-cmd-")), "broken.ts");
    writeFileSync(
      file,
      `export default function (pi) { pi.registerCommand("broken", { handler: async () => { throw new Error("it broke"); } }); }\n`,
    );
    const h = (harness = await bootWithExtensions([file]));
    await h.session.call("prompt", "/broken now");
    expect(notices(h.events)).toEqual([`extension ${file}: /broken: it broke`]);
    expect(h.faux.requests).toHaveLength(0);
  });

  it("commands with one name from two extensions are invoked as name:1 and name:2, as in pi", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "pi-ext-dup-"));
    for (const which of ["first", "second"]) {
      writeFileSync(
        join(dir, `${which}.ts`),
        `export default function (pi) { pi.registerCommand("review", { handler: async (args, ctx) => ctx.ui.notify("${which} " + args) }); }\n`,
      );
    }
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([dir], { extra: [ui.plugin] }));
    await h.session.call("prompt", "/review:2 x");
    await h.session.call("prompt", "/review:1 y");
    expect(ui.notes()).toEqual(["second x", "first y"]);
  });
});
