import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import settingsPlugin from "../../../plugins/config/settings/index.js";
import { tinyPng } from "../../support/tiny-png.js";
import { bootSession, type SessionHarness } from "./harness.js";

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.kernel.shutdown();
  h = undefined;
});

async function withSettings(settings: Record<string, unknown>): Promise<SessionHarness> {
  const agentDir = mkdtempSync(join(tmpdir(), "pi-block-images-"));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings));
  return bootSession({
    agentDir,
    faux: { responses: [{ content: "seen" }] },
    entries: [
      {
        id: settingsPlugin.id,
        source: { kind: "inline", label: "settings", definition: settingsPlugin },
        config: { agentDir },
      },
    ],
  });
}

const image = { type: "image" as const, data: tinyPng(2, 2).toString("base64"), mimeType: "image/png" };

describe("images.blockImages", () => {
  it("on: the model gets pi's text in place of the image; the session keeps the image", async () => {
    h = await withSettings({ images: { blockImages: true } });
    await h.session.call("prompt", "what is this", { images: [image] });
    const sent = h.faux.requests[0]!.context.messages[0]!;
    expect(sent.content).toEqual([
      { type: "text", text: "what is this" },
      { type: "text", text: "Image reading is disabled." },
    ]);
    const kept = h.session.call("messages")[0]!;
    expect(JSON.stringify(kept)).toContain(image.data);
  });

  it("off (pi's default): the image goes to the model", async () => {
    h = await withSettings({});
    await h.session.call("prompt", "what is this", { images: [image] });
    expect(h.faux.requests[0]!.context.messages[0]!.content).toContainEqual(image);
  });
});

describe("images.autoResize", () => {
  const big = { type: "image" as const, data: tinyPng(2400, 1200).toString("base64"), mimeType: "image/png" };
  const pngSize = (data: string) => {
    const bytes = Buffer.from(data, "base64");
    return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  };

  it("on (pi's default): an image over 2000x2000 reaches the model scaled to fit, with pi's note", async () => {
    h = await withSettings({});
    await h.session.call("prompt", "what is this", { images: [big] });
    const content = h.faux.requests[0]!.context.messages[0]!.content as Array<{
      type: string;
      data?: string;
      text?: string;
      mimeType?: string;
    }>;
    const sent = content.find((b) => b.type === "image")!;
    if (sent.mimeType === "image/png") expect(pngSize(sent.data!)).toEqual([2000, 1000]);
    else expect(sent.mimeType).toBe("image/jpeg");
    expect(content).toContainEqual({
      type: "text",
      text: "[Image: original 2400x1200, displayed at 2000x1000. Multiply coordinates by 1.20 to map to original image.]",
    });
    // The session keeps the original.
    expect(JSON.stringify(h.session.call("messages")[0])).toContain(big.data);
  });

  it("off: the image goes as it is; a small image is never touched", async () => {
    h = await withSettings({ images: { autoResize: false } });
    await h.session.call("prompt", "what is this", { images: [big] });
    expect(h.faux.requests[0]!.context.messages[0]!.content).toContainEqual(big);
    await h.kernel.shutdown();
    h = await withSettings({});
    await h.session.call("prompt", "small", { images: [image] });
    expect(h.faux.requests[0]!.context.messages[0]!.content).toEqual([{ type: "text", text: "small" }, image]);
  });
});
