/**
 * `importSession` (pi 1.6.0's `/import`): a session JSONL file is copied next to the current session,
 * keeping its id, and the session switches to the copy; a name already taken gets pi's `-1` suffix; a
 * missing file is one clear error and changes nothing.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freeName } from "../../../plugins/session/agent-session/session-extras.js";
import { bootSession, type SessionHarness } from "./harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

function sessionFile(cwd: string, id: string, text: string): string {
  const folder = mkdtempSync(join(tmpdir(), "pi-import-src-"));
  const file = join(folder, "elsewhere.jsonl");
  const at = "2026-12-01T10:00:00.000Z";
  const lines = [
    { type: "session", version: 3, id, timestamp: at, cwd },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: at,
      message: { role: "user", content: text, timestamp: 1 },
    },
  ];
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return file;
}

describe("agent session: importSession", () => {
  it("copies the file next to the current session, switches to it, and says so after session_change", async () => {
    const h = (harness = await bootSession({ faux: { responses: [{ content: "hi" }] } }));
    await h.session.call("prompt", "the first session");
    const before = h.session.call("state").sessionFile!;
    const source = sessionFile(h.cwd, "imported-id", "from elsewhere");
    const original = readFileSync(source, "utf8");

    const info = await h.session.call("importSession", source);
    expect(info?.path).toBe(join(dirname(before), "elsewhere.jsonl"));
    expect(h.session.call("state").sessionId).toBe("imported-id");
    expect(h.session.call("messages").map((m) => (m as { content: unknown }).content)).toEqual(["from elsewhere"]);
    expect(readFileSync(source, "utf8")).toBe(original);
    const change = h.events.findIndex((e) => e.type === "session_change");
    const said = h.events.findIndex((e) => e.type === "notice" && e.message === `Session imported from: ${source}`);
    expect(change).toBeGreaterThanOrEqual(0);
    expect(said).toBeGreaterThan(change);

    // The same name again: pi's -1 suffix, the first copy untouched.
    await h.session.call("importSession", source);
    expect(h.session.call("state").sessionFile).toBe(join(dirname(before), "elsewhere-1.jsonl"));
    expect(existsSync(join(dirname(before), "elsewhere.jsonl"))).toBe(true);
  });

  it("a missing file is one error naming it, and the session stays where it was", async () => {
    const h = (harness = await bootSession({ faux: { responses: [{ content: "hi" }] } }));
    await h.session.call("prompt", "stay here");
    const before = h.session.call("state").sessionFile!;
    const files = readdirSync(dirname(before));
    const missing = join(tmpdir(), "no-such-session.jsonl");
    await expect(h.session.call("importSession", missing)).rejects.toThrow(`File not found: ${missing}`);
    expect(h.session.call("state").sessionFile).toBe(before);
    expect(readdirSync(dirname(before))).toEqual(files);
  });

  it("freeName counts up before the extension", () => {
    const folder = mkdtempSync(join(tmpdir(), "pi-free-name-"));
    expect(freeName(folder, "a.jsonl")).toBe(join(folder, "a.jsonl"));
    writeFileSync(join(folder, "a.jsonl"), "");
    writeFileSync(join(folder, "a-1.jsonl"), "");
    expect(freeName(folder, "a.jsonl")).toBe(join(folder, "a-2.jsonl"));
  });
});
