/**
 * pi 1.6.0's events: an unknown name is a warning, not a failed load; the new notification events carry
 * pi's payloads; the request hooks after `context` change what the provider receives; the startup
 * events change what loads.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

function extension(source: string, name = "ext.ts"): string {
  const file = join(mkdtempSync(join(tmpdir(), "pi-ext16-")), name);
  writeFileSync(file, source);
  return file;
}

const RECORDER = `
export default function (pi) {
  const seen = [];
  pi.on("no_such_event", () => seen.push("never"));
  for (const name of ["agent_settled", "session_info_changed", "thinking_level_select", "ui_prompt_start", "ui_prompt_end"])
    pi.on(name, (event) => { seen.push(event); });
  pi.on("provider_stream_event", (event) => { if (event.data.type === "text_end") seen.push({ type: event.type, provider: event.provider, model: event.model, text: event.data.content }); });
  pi.registerCommand("ask", { handler: async (_a, ctx) => { await ctx.ui.confirm("Sure?", "really"); } });
  pi.registerCommand("seen", { handler: async (_a, ctx) => ctx.ui.notify(JSON.stringify(seen)) });
}`;

describe("pi 1.6.0 events", () => {
  it("an unknown event is one warning line and the extension still loads; new events arrive with pi's payloads", async () => {
    const ui = recordingUi(() => true);
    const file = extension(RECORDER);
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "hi" }] },
    }));
    await h.session.call("prompt", "hello");
    await h.session.call("setSessionName", "Named");
    await h.session.call("setThinkingLevel", "high");
    await h.session.call("prompt", "/ask");
    await h.session.call("prompt", "/seen");
    const seen = JSON.parse(ui.notes().at(-1)!);
    expect(seen).toEqual([
      { type: "provider_stream_event", provider: "faux", model: "faux-1", text: "hi" },
      { type: "agent_settled", aborted: false },
      { type: "session_info_changed", name: "Named" },
      { type: "thinking_level_select", level: "high", previousLevel: expect.any(String) },
      { type: "ui_prompt_start", reason: "ui_prompt", kind: "confirm", title: "Sure?" },
      { type: "ui_prompt_end", reason: "ui_prompt", kind: "confirm" },
    ]);
    expect(notices(h.events)).toEqual([
      `extension ${file}: pi.on("no_such_event"): pi 1.6.0 has no such event, so the handler never runs`,
    ]);
  });

  it("context_with_system rewrites the system prompt and transcript; headers mutate; before_provider_request replaces the payload, chained", async () => {
    const file = extension(`
export default function (pi) {
  pi.on("context_with_system", (event) => {
    const [head, ...rest] = event.messages;
    return { messages: [{ ...head, content: head.content + "\\nEXTRA" }, ...rest, { role: "user", content: "appended", timestamp: 1 }] };
  });
  pi.on("before_provider_headers", (event, ctx) => { event.headers["x-session"] = ctx.sessionManager.getSessionId(); event.headers["x-drop"] = null; });
  pi.on("before_provider_headers", (event) => { event.headers["x-seen"] = String("x-session" in event.headers); });
  pi.on("before_provider_request", (event) => ({ ...event.payload, temperature: 0 }));
  pi.on("before_provider_request", (event) => { event.payload.touched = true; });
}`);
    const h = (harness = await bootWithExtensions([file], { faux: { responses: [{ content: "hi" }] } }));
    await h.session.call("prompt", "hello");
    const request = h.faux.requests[0]!;
    expect(request.context.systemPrompt!.endsWith("\nEXTRA")).toBe(true);
    expect(request.context.messages.map((m) => m.content)).toEqual(["hello", "appended"]);
    const sessionId = h.session.call("state").sessionId;
    expect(request.options!.headers).toEqual({ "x-session": sessionId, "x-seen": "true" });
    const sent = await request.options!.onPayload!({ model: "m", temperature: 1 }, h.model);
    expect(sent).toEqual({ model: "m", temperature: 0, touched: true });
    expect(notices(h.events)).toEqual([]);
  });

  it("a context_with_system handler that drops the system head is reported and its change not used", async () => {
    const file = extension(
      `export default function (pi) { pi.on("context_with_system", (e) => ({ messages: e.messages.slice(1) })); }`,
    );
    const h = (harness = await bootWithExtensions([file], { faux: { responses: [{ content: "hi" }] } }));
    await h.session.call("prompt", "hello");
    expect(h.faux.requests[0]!.context.messages.map((m) => m.content)).toEqual(["hello"]);
    expect(h.faux.requests[0]!.context.systemPrompt!.length).toBeGreaterThan(0);
    expect(notices(h.events)).toEqual([
      `extension ${file}: context_with_system: context_with_system: the first message must stay the system message (the change was dropped)`,
    ]);
  });

  it("resources_discover: the prompt templates a handler returns run as /name", async () => {
    const prompts = mkdtempSync(join(tmpdir(), "pi-ext16-prompts-"));
    writeFileSync(join(prompts, "review.md"), "---\ndescription: Review code\n---\nReview $1 carefully.");
    const file = extension(`
export default function (pi) {
  pi.on("resources_discover", (event) => ({ promptPaths: [${JSON.stringify(prompts)}], seen: event.reason }));
  pi.registerCommand("cmds", { handler: async (_a, ctx) => ctx.ui.notify(JSON.stringify(pi.getCommands().filter((c) => c.source === "prompt").map((c) => [c.name, c.description]))) });
}`);
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      resources: true,
      faux: { responses: [{ content: "ok" }] },
    }));
    await h.session.call("prompt", "/cmds");
    expect(JSON.parse(ui.notes()[0]!)).toEqual([["review", "Review code"]]);
    await h.session.call("prompt", "/review auth.ts");
    expect(h.faux.requests[0]!.context.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Review auth.ts carefully.",
    });
  });

  it("project_trust: a user extension's yes loads the untrusted project's own extensions", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-ext16-agent-"));
    const cwd = mkdtempSync(join(tmpdir(), "pi-ext16-cwd-"));
    mkdirSync(join(agentDir, "extensions"), { recursive: true });
    mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
    writeFileSync(
      join(agentDir, "extensions", "trust.ts"),
      `export default function (pi) { pi.on("project_trust", (event, ctx) => { ctx.ui.notify("asked " + (event.cwd === ctx.cwd)); return { trusted: "yes" }; }); }`,
    );
    writeFileSync(
      join(cwd, ".pi", "extensions", "local.ts"),
      `export default function (pi) { pi.registerCommand("local", { handler: async (_a, ctx) => ctx.ui.notify("project extension ran") }); }`,
    );
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([], { extra: [ui.plugin], agentDir, cwd }));
    await h.session.call("prompt", "/local");
    expect(ui.notes()).toEqual(["asked true", "project extension ran"]);
  });

  it("project_trust: undecided leaves the untrusted project's extensions out (/local goes to the model)", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-ext16-agent-"));
    const cwd = mkdtempSync(join(tmpdir(), "pi-ext16-cwd-"));
    mkdirSync(join(agentDir, "extensions"), { recursive: true });
    mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
    writeFileSync(
      join(agentDir, "extensions", "trust.ts"),
      `export default function (pi) { pi.on("project_trust", () => ({ trusted: "undecided" })); }`,
    );
    writeFileSync(
      join(cwd, ".pi", "extensions", "local.ts"),
      `export default function (pi) { pi.registerCommand("local", { handler: async () => {} }); }`,
    );
    const h = (harness = await bootWithExtensions([], {
      agentDir,
      cwd,
      faux: { responses: [{ content: "model got it" }] },
    }));
    await h.session.call("prompt", "/local");
    expect(h.faux.requests).toHaveLength(1);
    expect(notices(h.events)).toEqual([]);
  });
});
