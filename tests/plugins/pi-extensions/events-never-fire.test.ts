/**
 * pi 1.6.0 events pi-host cannot fire (after_provider_response, user_bash, cache_warming_decision,
 * agent_before_settle): registering one is one warning line saying why, the extension still loads, and
 * its handler never runs during a prompt with a tool call.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import type { SessionHarness } from "../agent-session/harness.js";
import { testTool } from "../agent-session/harness.js";
import { bootWithExtensions, notices, recordingUi } from "./ext-harness.js";

const NEVER = ["after_provider_response", "user_bash", "cache_warming_decision", "agent_before_settle"];

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("pi 1.6.0 events that never fire here", () => {
  it("each is one warning line naming it and why; the extension loads and its command works", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-never-")), "never.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  const fired = [];
  for (const name of ${JSON.stringify(NEVER)}) pi.on(name, (event) => { fired.push(event.type); });
  pi.registerCommand("fired", { handler: async (_a, ctx) => ctx.ui.notify(JSON.stringify(fired)) });
}\n`,
    );
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      tools: [testTool("ls", async () => "listing")],
      faux: { responses: [{ content: [fauxToolCall("ls", {}, "t1")] }, { content: "done" }] },
    }));
    await h.session.call("prompt", "list");
    await h.session.call("prompt", "/fired");
    expect(JSON.parse(ui.notes().at(-1)!)).toEqual([]);
    const lines = notices(h.events);
    expect(lines).toHaveLength(NEVER.length);
    for (const name of NEVER) {
      const line = lines.find((l) => l.includes(`pi.on("${name}")`));
      expect(line, name).toMatch(
        new RegExp(
          `^extension ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: pi\\.on\\("${name}"\\): \\S.*never fires`,
        ),
      );
    }
  });
});
