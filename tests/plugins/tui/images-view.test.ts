import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import settingsPlugin from "../../../plugins/config/settings/index.js";
import { tinyPng } from "../../support/tiny-png.js";
import { bootTui, type TuiHarness } from "./harness.js";

let h: TuiHarness | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await h?.stop();
  await h?.kernel.shutdown();
  h = undefined;
});

const image = { type: "image" as const, data: tinyPng(4, 3).toString("base64"), mimeType: "image/png" };

async function boot(settings: Record<string, unknown>): Promise<TuiHarness> {
  const agentDir = mkdtempSync(join(tmpdir(), "pi-images-view-"));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings));
  const harness = await bootTui({
    agentDir,
    faux: { responses: [{ content: "an answer" }] },
    entries: [
      {
        id: settingsPlugin.id,
        source: { kind: "inline", label: "settings", definition: settingsPlugin },
        config: { agentDir },
      },
    ],
  });
  await harness.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));
  return harness;
}

describe("images in the transcript (in-process)", () => {
  it("a prompt's image shows under its text as pi's placeholder where the terminal draws none", async () => {
    vi.stubEnv("PI_IMAGE_PROTOCOL", "none");
    h = await boot({});
    await h.session.call("prompt", "what is this", { images: [image] });
    const screen = await h.waitFor("an answer");
    expect(screen).toMatch(/what is this\s*\n\s*\[Image: \[image\/png\] 4x3\]/);
    expect(screen).not.toContain("[image]");
  });

  it("terminal.showImages false: the placeholder even where the terminal could draw it", async () => {
    vi.stubEnv("PI_IMAGE_PROTOCOL", "kitty");
    h = await boot({ terminal: { showImages: false } });
    await h.session.call("prompt", "what is this", { images: [image] });
    const screen = await h.waitFor("an answer");
    expect(screen).toContain("[Image: [image/png] 4x3]");
    expect(h.vt.lines().join("\n")).not.toContain("_Ga=T");
  });
});
