import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { testTool, type SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

const report = (notes: string[]) => JSON.parse(notes.at(-1)!);

describe("ExtensionAPI and ExtensionContext", () => {
  it("events of a run reach handlers with pi's names and fields; flags, commands, tools, session and context read as pi's docs say", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("api-tour.ts"), fixture("hello-command.ts")], {
      extra: [ui.plugin],
      tools: [testTool("bash", async () => "ok")],
      extensionConfig: { flags: { depth: "deep" } },
      faux: { responses: [{ content: [fauxToolCall("bash", { command: "ls" }, "b1")] }, { content: "done" }] },
    }));
    await h.session.call("prompt", "list files");
    await h.session.call("prompt", "/tour");
    const tour = report(ui.notes());
    expect(tour.seen).toEqual([
      "session_start:startup",
      "agent_start",
      "turn_start:0",
      "message_end:user",
      "message_end:assistant",
      "tool_execution_start:bash",
      "tool_execution_end:bash:false",
      "message_end:toolResult",
      "turn_end:0:1",
      "turn_start:1",
      "message_end:assistant",
      "turn_end:1:0",
      "agent_end:4",
    ]);
    expect(tour.flags).toEqual([false, "deep", null]);
    expect(tour.commands).toEqual([
      "extension:tour",
      "extension:name",
      "extension:label",
      "extension:only",
      "extension:think",
      "extension:summarize",
      "extension:hello",
      "extension:ask",
    ]);
    expect(tour.tools).toEqual(["builtin:bash", "cli:queue_followup"]);
    expect(tour.active).toEqual(["bash", "queue_followup"]);
    expect(tour).toMatchObject({
      thinking: "medium",
      model: "faux-1",
      hasUI: true,
      idle: true,
      sessionName: null,
      systemPromptKnown: true,
      sizes: "2.0KB",
      tail: "b\nc",
    });
    expect(tour.branch).toEqual(["model_change", "thinking_level_change", "message", "message", "message", "message"]);
    expect(notices(h.events)).toEqual([]);
  });

  it("setSessionName, setLabel, setThinkingLevel and setActiveTools act on the session", async () => {
    const ui = recordingUi();
    const ran: string[] = [];
    const h = (harness = await bootWithExtensions([fixture("api-tour.ts")], {
      extra: [ui.plugin],
      tools: [testTool("bash", async () => (ran.push("bash"), "ok")), testTool("read", async () => "text")],
      faux: { responses: [{ content: [fauxToolCall("bash", { command: "ls" }, "b1")] }, { content: "done" }] },
    }));
    await h.session.call("prompt", "/name Refactor auth module");
    await h.session.call("prompt", "/think high");
    await h.session.call("prompt", "/only read,queue_followup");
    await h.session.call("prompt", "go");
    expect(h.faux.requests[0]!.context.tools!.map((t) => t.name)).toEqual(["read", "queue_followup"]);
    expect(ran).toEqual([]);
    const blocked = h.session.call("messages").find((m): m is ToolResultMessage => m.role === "toolResult")!;
    expect(blocked).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'Tool "bash" is not active; the active tools are: read, queue_followup' }],
    });
    const leaf = h.kernel.use((await import("../../../contracts/session.js")).SessionStoreContract).call("leafId")!;
    await h.session.call("prompt", "/label checkpoint");
    await h.session.call("prompt", "/tour");
    const tour = report(ui.notes());
    expect(tour).toMatchObject({
      sessionName: "Refactor auth module",
      thinking: "high",
      active: ["read", "queue_followup"],
    });
    expect(tour.seen).toContain("thinking_level_select:medium->high");
    expect(h.session.call("state")).toMatchObject({ sessionName: "Refactor auth module", thinkingLevel: "high" });
    expect(h.session.call("entries").find((e) => e.type === "label")).toMatchObject({
      targetId: leaf,
      label: "checkpoint",
    });
  });

  it("a tool's sendUserMessage with deliverAs followUp continues the run; pi-ai's complete() goes through the host's provider", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("api-tour.ts")], {
      extra: [ui.plugin],
      faux: {
        responses: [
          { content: [fauxToolCall("queue_followup", { text: "and then summarize" }, "q1")] },
          { content: "first" },
          { content: "summary" },
          { content: "one line" },
        ],
      },
    }));
    await h.session.call("prompt", "start");
    expect(h.faux.requests).toHaveLength(3);
    expect(h.faux.requests[2]!.context.messages.at(-1)).toMatchObject({ role: "user", content: "and then summarize" });
    await h.session.call("prompt", "/summarize a long story");
    expect(ui.notes()).toEqual(["stop: one line"]);
    expect(h.faux.requests[3]!.context).toMatchObject({
      systemPrompt: "Summarize in one line.",
      messages: [{ role: "user", content: "a long story" }],
    });
  });

  it("a new session: session_shutdown then session_start with pi's reasons and the previous file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-ext-session-"));
    const file = join(dir, "lifecycle.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  for (const name of ["session_start", "session_shutdown"]) pi.on(name, async (event, ctx) => ctx.ui.notify(JSON.stringify(event)));
  pi.registerCommand("noop", { handler: async () => {} });
}
`,
    );
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "hi" }] },
    }));
    await h.session.call("prompt", "hello");
    const first = h.session.call("state").sessionFile!;
    await h.session.call("newSession");
    await h.session.call("prompt", "/noop");
    const second = h.session.call("state").sessionFile!;
    expect(ui.notes().map((n) => JSON.parse(n))).toEqual([
      { type: "session_start", reason: "startup" },
      { type: "session_shutdown", reason: "new", targetSessionFile: second },
      { type: "session_start", reason: "new", previousSessionFile: first },
    ]);
  });

  it("session_shutdown reaches handlers when the plugin stops", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-ext-shutdown-"));
    const marker = join(dir, "shutdown.txt");
    const file = join(dir, "cleanup.ts");
    writeFileSync(
      file,
      `import { writeFileSync } from "node:fs";\nexport default function (pi) { pi.on("session_shutdown", async (event) => writeFileSync(${JSON.stringify(marker)}, event.reason)); }\n`,
    );
    const h = await bootWithExtensions([file], { faux: { responses: [{ content: "hi" }] } });
    await h.session.call("prompt", "hello");
    expect(existsSync(marker)).toBe(false);
    await h.kernel.shutdown();
    expect(readFileSync(marker, "utf8")).toBe("quit");
  });
});

describe("where extensions come from", () => {
  it("<agentDir>/extensions/ (files and folders with index.ts or a pi manifest), the extensions setting, and trusted projects' .pi/extensions/", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-ext-discover-agent-"));
    const cwd = mkdtempSync(join(tmpdir(), "pi-ext-discover-cwd-"));
    const command = (name: string) =>
      `export default function (pi) { pi.registerCommand(${JSON.stringify(name)}, { handler: async (_a, ctx) => ctx.ui.notify(${JSON.stringify(name)}) }); }\n`;
    mkdirSync(join(agentDir, "extensions", "folder"), { recursive: true });
    mkdirSync(join(agentDir, "extensions", "package", "src"), { recursive: true });
    writeFileSync(join(agentDir, "extensions", "single.ts"), command("single"));
    writeFileSync(join(agentDir, "extensions", "notes.md"), "not an extension");
    writeFileSync(join(agentDir, "extensions", "folder", "index.ts"), command("folder"));
    writeFileSync(
      join(agentDir, "extensions", "package", "package.json"),
      JSON.stringify({ name: "p", pi: { extensions: ["./src/main.ts"] } }),
    );
    writeFileSync(join(agentDir, "extensions", "package", "src", "main.ts"), command("package"));
    mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
    writeFileSync(join(cwd, ".pi", "extensions", "project.ts"), command("project"));
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ extensions: ["./from-settings.ts"] }));
    writeFileSync(join(cwd, "from-settings.ts"), command("settings"));

    const ui = recordingUi();
    const { default: settings } = await import("../../../plugins/config/settings/index.js");
    const settingsEntry = {
      id: "settings",
      source: { kind: "inline" as const, label: "settings", definition: settings },
      config: { agentDir },
    };
    const h = (harness = await bootWithExtensions([], { agentDir, cwd, extra: [ui.plugin], entries: [settingsEntry] }));
    for (const name of ["single", "folder", "package", "settings", "project"])
      await h.session.call("prompt", `/${name}`);
    expect(ui.notes()).toEqual(["single", "folder", "package", "settings"]);
    // No host environment says the project is trusted, so its extension is skipped (the host's startup line says so, not this plugin).
    expect(notices(h.events)).toEqual([]);
    // Untrusted, the project's command does not exist: the text went to the model.
    expect(h.faux.requests.map((r) => r.context.messages.at(-1))).toEqual([
      expect.objectContaining({ role: "user", content: "/project" }),
    ]);
    await h.kernel.shutdown();

    // The host's decision, as the CLI's own plugin provides it: trusted by a saved decision.
    const { HostEnvironmentContract } = await import("../../../contracts/host-environment.js");
    const hostDefinition = {
      id: "host",
      version: "1.0.0",
      provides: [HostEnvironmentContract],
      setup(ctx: any) {
        ctx.provide(HostEnvironmentContract, {
          environment: () => ({ cwd, agentDir, projectTrust: { trusted: true, source: "saved" } }),
        });
      },
    };
    const hostEntry = {
      id: "host",
      source: { kind: "inline" as const, label: "host", definition: hostDefinition },
      config: {},
    };
    const ui2 = recordingUi();
    const trusted = (harness = await bootWithExtensions([], {
      agentDir,
      cwd,
      extra: [ui2.plugin],
      entries: [hostEntry, settingsEntry],
    }));
    await trusted.session.call("prompt", "/project");
    expect(ui2.notes()).toEqual(["project"]);
  });
});
