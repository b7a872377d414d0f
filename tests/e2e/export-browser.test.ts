/**
 * The exported page in a real browser (headless Chromium through playwright-core): built with the CLI
 * from the fixture session, opened from file:// with every network request refused, it shows every
 * message and tool call of the active path, runs no script from a message, switches branches from the
 * tree, and renders to a non-empty screenshot. Skips with the reason when /usr/bin/chromium is absent.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runPi } from "./run-pi.js";

const CHROMIUM = "/usr/bin/chromium";
const missing = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (apt-get install chromium)`;
if (missing !== undefined) console.log(`[skip] export page in a browser: ${missing}`);

const FIXTURE = new URL("../fixtures/sessions/branched.jsonl", import.meta.url).pathname;

describe.skipIf(missing !== undefined)("the export page in headless Chromium", () => {
  it("shows every message and tool call, switches branches, and renders", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-export-browser-"));
    copyFileSync(FIXTURE, join(dir, "branched.jsonl"));
    const r = await runPi(["--export", "branched.jsonl", "page.html"], { cwd: dir, env: { HOME: dir } });
    expect(r.code).toBe(0);
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "pi-chromium-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith("file:") && !request.url().startsWith("data:")) requests.push(request.url());
      });
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(pathToFileURL(join(dir, "page.html")).href);

      const visible = async (text: string) =>
        page.locator("#entries").getByText(text, { exact: false }).first().isVisible();
      for (const text of [
        "List the files in",
        "Let me look.",
        "The user wants a listing of src.",
        "Tool call: ls",
        '"path": "src"',
        "util.ts",
        "There are two files:",
        "</script><script>window.pwned=1</script>",
        "The user asked about main.ts",
        `What is in this picture? <img src=x onerror="window.pwned=2"></div>`,
        "Tool call: bash",
        "echo '<b>hi</b>' && exit 3",
        "exit code 3",
        "A tiny red square.",
        "Describe src and a picture.",
        "Thanks, that is all.",
        "You are welcome.",
      ])
        expect(await visible(text), text).toBe(true);
      expect(await visible("abandoned answer")).toBe(false);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      const image = page.locator("img.image");
      expect(await image.count()).toBe(1);
      expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

      // Picking the abandoned answer in the tree shows its branch instead of the active one.
      await page.locator('#tree .node[data-target="a0000007"]').click();
      expect(await visible("abandoned answer")).toBe(true);
      expect(await visible("Explain main.ts (first branch)")).toBe(true);
      expect(await visible("You are welcome.")).toBe(false);
      await page.locator('#tree .node[data-target="a0000010"]').click();
      expect(await visible("You are welcome.")).toBe(true);

      const shot = join(mkdtempSync(join(tmpdir(), "pi-export-shot-")), "page.png");
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(1000);
      expect(readFileSync(shot).subarray(1, 4).toString()).toBe("PNG");
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
