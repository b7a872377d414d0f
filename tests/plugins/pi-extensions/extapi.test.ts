/**
 * pi 1.6.0 extension API members that read the session and the model catalog: `ctx.sessionManager`'s
 * header and session folder, and `ctx.modelRegistry`'s synchronous members.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionHarness } from "../agent-session/harness.js";
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
