/**
 * pi 1.6.0 extension API members that read the session and the model catalog: `ctx.sessionManager`'s
 * header and session folder, and `ctx.modelRegistry`'s synchronous members.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionHarness } from "../agent-session/harness.js";
import auth from "../../../plugins/ai/auth/index.js";
import { bootWithExtensions, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

function extension(source: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "pi-extapi-")), "ext.ts");
  writeFileSync(file, source);
  return file;
}

const SESSION_READER = `
export default function (pi) {
  pi.registerCommand("where", { handler: async (_a, ctx) => {
    const sm = ctx.sessionManager;
    ctx.ui.notify(JSON.stringify({ header: sm.getHeader(), dir: sm.getSessionDir(), file: sm.getSessionFile() ?? null, id: sm.getSessionId() }));
  } });
}`;

describe("ctx.sessionManager", () => {
  it("getHeader is the session line of the file; getSessionDir is the file's folder", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([extension(SESSION_READER)], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "hi" }] },
    }));
    await h.session.call("prompt", "hello");
    await h.session.call("prompt", "/where");
    const seen = JSON.parse(ui.notes().at(-1)!);
    expect(seen.header).toEqual({
      type: "session",
      version: 3,
      id: seen.id,
      timestamp: expect.any(String),
      cwd: h.cwd,
    });
    expect(seen.file).toMatch(/\.jsonl$/);
    expect(seen.dir).toBe(dirname(seen.file));
    expect(notices(h.events)).toEqual([]);
  });

  it('an in-memory session has a header, and the session folder is "" as in pi', async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([extension(SESSION_READER)], {
      extra: [ui.plugin],
      config: { session: "none" },
    }));
    await h.session.call("prompt", "/where");
    const seen = JSON.parse(ui.notes().at(-1)!);
    expect(seen.file).toBeNull();
    expect(seen.dir).toBe("");
    expect(seen.header).toMatchObject({ type: "session", version: 3, id: seen.id, cwd: h.cwd });
  });
});

const REGISTRY_READER = `
export default function (pi) {
  const read = (ctx) => {
    const r = ctx.modelRegistry;
    return { oauth: r.isUsingOAuth(ctx.model), has: r.hasConfiguredAuth(ctx.model), status: r.getProviderAuthStatus("faux"),
      none: r.getProviderAuthStatus("nobody"), available: r.getAvailable().map((m) => m.provider + "/" + m.id),
      name: r.getProviderDisplayName("faux"), error: r.getError() ?? null, found: r.find("faux", "faux-1")?.id ?? null };
  };
  pi.registerCommand("registry", { handler: async (_a, ctx) => ctx.ui.notify(JSON.stringify(read(ctx))) });
  pi.registerCommand("refresh", { handler: async (_a, ctx) => { await ctx.modelRegistry.refresh(); ctx.ui.notify(JSON.stringify(read(ctx))); } });
}`;

describe("ctx.modelRegistry", () => {
  it("answers pi's synchronous members from the key snapshot, and a refresh sees a sign-in that went away", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-extapi-agent-"));
    const authFile = join(agentDir, "auth.json");
    writeFileSync(
      authFile,
      JSON.stringify({ faux: { type: "oauth", refresh: "r", access: "a", expires: Date.now() + 3_600_000 } }),
    );
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([extension(REGISTRY_READER)], {
      agentDir,
      extra: [ui.plugin],
      entries: [{ id: "auth", source: { kind: "inline", label: "auth", definition: auth }, config: { agentDir } }],
    }));
    await h.session.call("prompt", "/registry");
    expect(JSON.parse(ui.notes().at(-1)!)).toEqual({
      oauth: true,
      has: true,
      status: { configured: true, source: "stored" },
      none: { configured: false },
      available: ["faux/faux-1"],
      name: "faux",
      error: null,
      found: "faux-1",
    });
    writeFileSync(authFile, "{}");
    await h.session.call("prompt", "/refresh");
    expect(JSON.parse(ui.notes().at(-1)!)).toMatchObject({
      oauth: false,
      has: false,
      status: { configured: false },
      available: [],
    });
  });
});

describe("ctx.getSystemPrompt", () => {
  it("before the first request (in session_start and a command) is the prompt that request carries", async () => {
    const ui = recordingUi();
    const file = extension(`
export default function (pi) {
  let atStart;
  pi.on("session_start", (_e, ctx) => { atStart = ctx.getSystemPrompt(); });
  pi.registerCommand("prompt", { handler: async (_a, ctx) => ctx.ui.notify(JSON.stringify([atStart, ctx.getSystemPrompt()])) });
}`);
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "hi" }] },
    }));
    await h.session.call("prompt", "/prompt");
    const [atStart, inCommand] = JSON.parse(ui.notes().at(-1)!);
    await h.session.call("prompt", "hello");
    const sent = h.faux.requests[0]!.context.systemPrompt;
    expect(sent).toEqual(expect.any(String));
    expect(sent!.length).toBeGreaterThan(0);
    expect(atStart).toBe(sent);
    expect(inCommand).toBe(sent);
    expect(notices(h.events)).toEqual([]);
  });
});

describe("messages that start or carry more", () => {
  it("sendMessage with triggerTurn while idle saves the message and the model answers it", async () => {
    const file = extension(`
export default function (pi) {
  pi.registerCommand("nudge", { handler: async () => {
    setTimeout(() => pi.sendMessage({ customType: "nudge", content: "please answer", display: true }, { triggerTurn: true }), 0);
  } });
}`);
    const h = (harness = await bootWithExtensions([file], { faux: { responses: [{ content: "answered" }] } }));
    await h.session.call("prompt", "/nudge");
    for (let i = 0; i < 200 && h.faux.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await h.session.call("idle");
    expect(h.faux.requests).toHaveLength(1);
    const last = h.faux.requests[0]!.context.messages.at(-1)!;
    expect(JSON.stringify(last.content)).toContain("please answer");
    expect(h.session.call("lastAssistantText")).toBe("answered");
    expect(notices(h.events)).toEqual([]);
  });

  it("a command's sendUserMessage carries its images; an input transform's images replace the prompt's", async () => {
    const image = { type: "image", data: "aGVsbG8=", mimeType: "image/png" };
    const file = extension(`
export default function (pi) {
  pi.registerCommand("look", { handler: async () => {
    pi.sendUserMessage([{ type: "text", text: "what is this?" }, ${JSON.stringify(image)}]);
  } });
  pi.on("input", (event) => event.text === "swap" ? { action: "transform", text: "swapped", images: [{ ...${JSON.stringify(image)}, data: "c3dhcA==" }] } : undefined);
}`);
    const h = (harness = await bootWithExtensions([file], {
      faux: { responses: [{ content: "an image" }, { content: "another" }] },
    }));
    await h.session.call("prompt", "/look");
    await h.session.call("idle");
    await h.session.call("prompt", "swap");
    const users = h.faux.requests.map((r) => r.context.messages.filter((m) => m.role === "user").at(-1)!);
    expect(users[0]!.content).toEqual([{ type: "text", text: "what is this?" }, image]);
    expect(users[1]!.content).toEqual([
      { type: "text", text: "swapped" },
      { ...image, data: "c3dhcA==" },
    ]);
    expect(notices(h.events)).toEqual([]);
  });
});
