/**
 * The session asks the resources plugin's prompt expander what a prompt means: a registered command runs
 * (before a template of the same name), a template or skill is expanded before it is sent, steering is
 * expanded but never runs a command, and without the resources plugin every prompt is sent as typed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CommandContract } from "../../../contracts/command.js";
import { definePlugin } from "../../../kernel/index.js";
import { bootSession, type SessionHarness } from "./harness.js";

function commandsPlugin(ran: string[]) {
  return definePlugin({
    id: "test-commands",
    version: "1.0.0",
    provides: [CommandContract],
    setup(ctx) {
      for (const name of ["deploy", "review"])
        ctx.provide(
          CommandContract,
          { name, description: name, run: async (args: string) => void ran.push(`${name} ${args}`) },
          { key: name },
        );
    },
  });
}

function put(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("prompt expansion through the resources plugin", () => {
  it("runs a command before a template of its name, expands templates, and refuses an unknown skill", async () => {
    const ran: string[] = [];
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "one" }, { content: "two" }] },
      extra: [commandsPlugin(ran)],
      resources: true,
    }));
    put(join(h.agentDir, "prompts", "greet.md"), "Hello $1");
    put(join(h.agentDir, "prompts", "review.md"), "Review $@");
    await h.session.call("prompt", "/review the parser");
    expect(ran).toEqual(["review the parser"]);
    expect(h.faux.requests).toHaveLength(0);
    await h.session.call("prompt", "/greet Ann");
    expect(h.faux.requests[0]!.context.messages.at(-1)).toMatchObject({ role: "user", content: "Hello Ann" });
    await expect(h.session.call("prompt", "/skill:nope")).rejects.toThrow('unknown skill "nope"');
    expect(h.faux.requests).toHaveLength(1);
    expect(h.session.call("state").isStreaming).toBe(false);
  });

  it("expands steering with templates and never runs a command from it", async () => {
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = (harness = await bootSession({
      faux: {
        responses: [async () => (await gate, { content: "first" }), { content: "second" }],
      },
      extra: [commandsPlugin(ran)],
      resources: true,
    }));
    put(join(h.agentDir, "prompts", "review.md"), "Review $@");
    const running = h.session.call("prompt", "start");
    while (h.faux.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await h.session.call("steer", "/review this too");
    release();
    await running;
    expect(ran).toEqual([]);
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({ role: "user", content: "Review this too" });
  });

  it("without the resources plugin, a command line and a template line go to the model as typed", async () => {
    const ran: string[] = [];
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "sent" }] },
      extra: [commandsPlugin(ran)],
    }));
    await h.session.call("prompt", "/deploy staging");
    expect(ran).toEqual([]);
    expect(h.faux.requests[0]!.context.messages[0]).toMatchObject({ content: "/deploy staging" });
  });
});
