/** cleanErrorText: provider error text made safe for a terminal and small enough for a session file. */
import { describe, expect, it } from "vitest";
import { AssistantEventStream, cleanErrorText, newAssistantMessage } from "../../../hosts/api.js";

describe("cleanErrorText", () => {
  it("keeps short clean text as it is, newlines and tabs included", () => {
    expect(cleanErrorText("429 rate limited\n\tretry later")).toBe("429 rate limited\n\tretry later");
  });

  it("removes CSI, OSC and C1 sequences and stray control characters", () => {
    expect(
      cleanErrorText("a\u001b[31mred\u001b[0m b\u001b]0;title\u0007c\u001b]8;;http://x\u001b\\d\u009b2Je\r\u0000f"),
    ).toBe("ared bcdef");
  });

  it("keeps the first 4 KB and says how many bytes were cut", () => {
    const text = "é".repeat(10_000); // 2 bytes each
    const cleaned = cleanErrorText(text);
    const [kept, note] = cleaned.split("…");
    expect(Buffer.byteLength(kept!, "utf8")).toBeLessThanOrEqual(4_096);
    expect(kept).toMatch(/^é+$/);
    expect(note).toBe(` (${20_000 - Buffer.byteLength(kept!, "utf8")} bytes cut)`);
  });

  it("is applied to every error event a stream ends with", () => {
    const stream = new AssistantEventStream();
    const message = newAssistantMessage({ api: "x", provider: "p", id: "m" });
    message.stopReason = "error";
    message.errorMessage = `boom\u001b[2J${"x".repeat(10_000)}`;
    stream.push({ type: "error", reason: "error", error: message });
    expect(message.errorMessage).toMatch(/^boomx+… \(\d+ bytes cut\)$/);
  });
});
