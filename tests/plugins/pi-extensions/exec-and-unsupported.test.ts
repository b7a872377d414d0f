import { afterEach, describe, expect, it } from "vitest";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("pi.exec", () => {
  it("runs a program in the session's folder and returns stdout, stderr, code and killed, as pi does", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("exec-demo.ts")], { extra: [ui.plugin] }));
    await h.session.call("prompt", "/exec-demo");
    expect(JSON.parse(ui.notes()[0]!)).toEqual({ stdout: h.cwd, stderr: "warned", code: 3, killed: false });
  });

  it("a timeout kills the program (killed: true); a program that cannot start gives code 1", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("exec-demo.ts")], { extra: [ui.plugin] }));
    await h.session.call("prompt", "/exec-demo slow");
    expect(JSON.parse(ui.notes()[0]!)).toMatchObject({ killed: true, stdout: "", stderr: "" });
    await h.session.call("prompt", "/exec-missing");
    expect(JSON.parse(ui.notes()[1]!)).toEqual({ code: 1, killed: false });
  });
});

describe("members pi-host does not support yet", () => {
  it("throw 'not supported yet: <name>' where they are called (pi-tui's own TUI exports); the rest answer", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("unsupported-call.ts")], { extra: [ui.plugin] }));
    await h.session.call("prompt", "/probe");
    expect(JSON.parse(ui.notes()[0]!)).toEqual(["not supported yet: Image", "no error", "no error"]);
    expect(notices(h.events)).toEqual([]);
  });

  it("an extension tool named like a built-in tool replaces it: the model sees its description, calls run it", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const { fauxToolCall } = await import("../../../plugins/ai/provider-faux/faux.js");
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-override-")), "read-override.ts");
    writeFileSync(
      file,
      `import { Type } from "typebox";\nexport default function (pi) { pi.registerTool({ name: "read", label: "Read", description: "logged read", parameters: Type.Object({ path: Type.String() }), async execute(_id, params) { return { content: [{ type: "text", text: "extension read " + params.path }] }; } }); }\n`,
    );
    const { testTool } = await import("../agent-session/harness.js");
    const ran: string[] = [];
    const h = (harness = await bootWithExtensions([file], {
      tools: [testTool("read", async () => (ran.push("built-in"), "built-in")), testTool("ls", async () => "ls")],
      faux: { responses: [{ content: [fauxToolCall("read", { path: "a.txt" }, "r1")] }, { content: "done" }] },
    }));
    await h.session.call("prompt", "hello");
    const tools = h.faux.requests[0]!.context.tools!;
    expect(tools.map((t) => [t.name, t.description])).toEqual([
      ["read", "logged read"],
      ["ls", "test tool ls"],
    ]);
    expect(ran).toEqual([]);
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({
      role: "toolResult",
      content: [{ type: "text", text: "extension read a.txt" }],
    });
    expect(notices(h.events)).toEqual([]);
  });

  it("one used while an extension loads stops that extension from loading, with a notice naming it; the others load", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("unsupported-at-load.ts"), fixture("hello-command.ts")], {
      extra: [ui.plugin],
    }));
    await h.session.call("prompt", "/hello there");
    expect(ui.notes()).toEqual(["Hello there!"]);
    expect(notices(h.events)).toEqual([
      `pi-extensions: failed to load extension ${fixture("unsupported-at-load.ts")}: not supported yet: Agent`,
    ]);
  });
});
