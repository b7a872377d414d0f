/**
 * Images in the built CLI under tmux: Ctrl+V with an image on the clipboard saves it to a temporary
 * `pi-clipboard-*.png` and puts the path in the editor, as pi 1.6.0 does (the clipboard is read through
 * `xclip`; a stand-in script on PATH answers as xclip does, since the test machine has no X display);
 * an image the read tool returns shows as pi's placeholder where the terminal draws no images (tmux),
 * and as a kitty graphics sequence — the PNG itself — with `PI_IMAGE_PROTOCOL=kitty` (the raw bytes pi
 * wrote, recorded by `pipe-pane`, since tmux does not draw images).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { tinyPng } from "../support/tiny-png.js";
import { agentHome, completionsText, completionsToolCall } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.log("tui-images tests skipped: tmux is not installed");

let tmux: TmuxServer | undefined;
let server: MockLlmServer | undefined;
beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());
afterEach(async () => {
  tmux?.killPanes();
  await server?.close();
  server = undefined;
});

/** A user on the mock server with `answers` queued. */
async function mockUser(...answers: Array<ReturnType<typeof completionsText>>) {
  server = await new MockLlmServer().start();
  for (const sse of answers) server.enqueue({ sse });
  const user = agentHome();
  user.useMockServer(server.url);
  writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-1" }));
  return user;
}

describe.skipIf(!HAS_TMUX)("images (built CLI in tmux)", { timeout: 120_000 }, () => {
  it("Ctrl+V saves the clipboard's PNG to a temp file and puts its path in the editor; the prompt carries it", async () => {
    const user = await mockUser(completionsText("I see a red picture"));
    const picture = tinyPng(3, 2);
    const clip = join(user.project, "clip.png");
    writeFileSync(clip, picture);
    // xclip as the clipboard has it: the TARGETS list, then the image for `-t image/png -o`.
    const bin = join(user.project, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "xclip"),
      `#!/bin/sh\ncase "$*" in\n  *TARGETS*) printf 'TARGETS\\ntext/plain\\nimage/png\\n' ;;\n  *image/png*) cat '${clip}' ;;\n  *) exit 1 ;;\nesac\n`,
    );
    chmodSync(join(bin, "xclip"), 0o755);
    const env = { ...user.env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, DISPLAY: ":99" };
    const pane = tmux!.start({ cwd: user.project, env, width: 120, height: 30, watch: "screen" });
    await pane.waitFor("mock-1");
    pane.type("what is in ");
    pane.keys("C-v");
    const pasted = await pane.waitFor(/what is in \/\S*pi-clipboard-[0-9a-f-]+\.png/);
    const file = /\/\S*pi-clipboard-[0-9a-f-]+\.png/.exec(pasted)![0];
    expect(readFileSync(file).equals(picture)).toBe(true);
    pane.keys("Enter");
    await pane.waitFor("I see a red picture");
    expect(JSON.stringify(server!.requests.at(-1)!.body)).toContain(`what is in ${file}`);
  });

  it("a clipboard without an image pastes its text", async () => {
    const user = await mockUser();
    const bin = join(user.project, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "xclip"),
      `#!/bin/sh\ncase "$*" in\n  *TARGETS*) printf 'TARGETS\\nUTF8_STRING\\n' ;;\n  *-o*) printf 'copied words' ;;\n  *) exit 1 ;;\nesac\n`,
    );
    chmodSync(join(bin, "xclip"), 0o755);
    const env = { ...user.env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, DISPLAY: ":99" };
    const pane = tmux!.start({ cwd: user.project, env, width: 100, height: 24, watch: "screen" });
    await pane.waitFor("mock-1");
    pane.keys("C-v");
    await pane.waitFor("copied words");
  });

  it("images.autoResize (pi's default): the read tool's 2400x1200 PNG reaches the model at 2000x1000, with pi's note", async () => {
    const user = await mockUser(
      completionsToolCall("call-1", "read", { path: "big.png" }),
      completionsText("Big and red."),
    );
    writeFileSync(join(user.project, "big.png"), tinyPng(2400, 1200));
    const pane = tmux!.start({ cwd: user.project, env: user.env, width: 100, height: 30, watch: "screen" });
    await pane.waitFor("mock-1");
    pane.type("look at big.png");
    pane.keys("Enter");
    await pane.waitFor("Big and red.");
    const request = JSON.stringify(server!.requests.at(-1)!.body);
    expect(request).toContain(
      "[Image: original 2400x1200, displayed at 2000x1000. Multiply coordinates by 1.20 to map to original image.]",
    );
    expect(request).not.toContain(tinyPng(2400, 1200).toString("base64"));
  });

  for (const protocol of ["none", "kitty"] as const) {
    it(`an image the read tool returns: ${protocol === "none" ? "pi's placeholder in tmux" : "a kitty graphics sequence of the PNG with PI_IMAGE_PROTOCOL=kitty"}`, async () => {
      const user = await mockUser(
        completionsToolCall("call-1", "read", { path: "pic.png" }),
        completionsText("It is red."),
      );
      const picture = tinyPng(90, 36);
      writeFileSync(join(user.project, "pic.png"), picture);
      const env = protocol === "kitty" ? { ...user.env, PI_IMAGE_PROTOCOL: "kitty" } : user.env;
      const raw = join(user.project, "raw.out");
      const pane = tmux!.start({ cwd: user.project, env, width: 100, height: 40, watch: "screen" });
      tmux!.run("pipe-pane", "-t", pane.name, "-o", `cat >> '${raw}'`);
      await pane.waitFor("mock-1");
      pane.type("look at pic.png");
      pane.keys("Enter");
      const screen = await pane.waitFor("It is red.");
      const written = readFileSync(raw, "latin1");
      if (protocol === "none") {
        expect(screen).toContain("[Image: [image/png] 90x36]");
        expect(written).not.toContain("\x1b_G");
      } else {
        expect(screen).not.toContain("[Image:");
        // pi's size for a 90x36 image: 60 columns, 12 rows of 9x18-pixel cells.
        expect(written).toMatch(/\x1b_Ga=T,f=100,q=2,C=1,c=60,r=12,i=\d+;/);
        expect(written).toContain(`;${picture.toString("base64")}\x1b\\`);
      }
    });
  }
});
