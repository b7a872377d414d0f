import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOL_LIMITS } from "../../../contracts/tool.js";
import { formatSize } from "../../../kit/index.js";
import { TailOutput } from "../../../kit/tools/bash/tail-output.js";

describe("TailOutput", () => {
  it("decodes UTF-8 sequences split across chunks", async () => {
    const output = new TailOutput(TOOL_LIMITS);
    const bytes = Buffer.from("héllo wörld\n");
    for (const byte of bytes) output.append(Buffer.from([byte]));
    await output.close();
    expect(output.snapshot().text).toBe("héllo wörld");
    expect(output.snapshot().truncation).toMatchObject({ truncated: false, totalLines: 1, totalBytes: bytes.length });
  });

  it("counts a final line without a newline, and an empty output as zero lines", async () => {
    const output = new TailOutput({ maxLines: 2, maxBytes: 1000 });
    output.append(Buffer.from("a\nb\nc"));
    await output.close();
    expect(output.snapshot()).toMatchObject({
      text: "b\nc",
      truncation: { truncated: true, truncatedBy: "lines", totalLines: 3, outputLines: 2 },
      lastLineBytes: 1,
    });
    const empty = new TailOutput(TOOL_LIMITS);
    await empty.close();
    expect(empty.snapshot()).toMatchObject({
      text: "",
      truncation: { truncated: false, totalLines: 0 },
      fullOutputPath: undefined,
    });
  });

  it("asks the producer to pause while the temp file is backed up, and loses nothing", async () => {
    const output = new TailOutput(TOOL_LIMITS);
    const chunk = Buffer.alloc(64 * 1024, "z\n");
    let pausedAt = -1;
    for (let i = 0; i < 64 && pausedAt === -1; i++) if (!output.append(chunk)) pausedAt = i;
    expect(pausedAt).toBeGreaterThanOrEqual(0);
    await output.drained();
    output.append(Buffer.from("end\n"));
    await output.close();
    const snapshot = output.snapshot();
    expect(statSync(snapshot.fullOutputPath!).size).toBe((pausedAt + 1) * chunk.length + 4);
    expect(readFileSync(snapshot.fullOutputPath!, "utf8").endsWith("z\nz\nend\n")).toBe(true);
    expect(snapshot.text.endsWith("z\nend")).toBe(true);
  });

  it("formats sizes as pi does", () => {
    expect([formatSize(512), formatSize(50 * 1024), formatSize(1.25 * 1024 * 1024)]).toEqual([
      "512B",
      "50.0KB",
      "1.3MB",
    ]);
  });
});
