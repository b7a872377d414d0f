/**
 * Extension UI surfaces in the built CLI's terminal UI (tmux, fullscreen): a small extension in a temp
 * project, loaded with `-e`, draws its own custom message, tool call rows, a custom screen in place of
 * the editor, an overlay at the top right, a footer and a widget — as an extension written for pi 1.6.0
 * does there; an autocomplete provider's `#` list, and an appendEntry entry that stays after /reload and
 * after the session is resumed (the transcript rebuilt from the session file).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the extension UI terminal tests");

const EXTENSION = `
import { Text, matchesKey, truncateToWidth } from "@earendil-works/pi-tui";
import { Type } from "typebox";

export default function (pi) {
  pi.registerMessageRenderer("e2e-card", (message, _options, theme) =>
    new Text(theme.fg("accent", "E2E CARD " + message.details.n), 0, 0));
  pi.registerTool({
    name: "launch",
    label: "Launch",
    description: "Launch a rocket",
    parameters: Type.Object({ rocket: Type.String() }),
    async execute(_id, params) {
      return { content: [{ type: "text", text: "raw launch output" }], details: { rocket: params.rocket } };
    },
    renderCall: (args) => new Text("E2E LAUNCH CALL " + args.rocket, 0, 0),
    renderResult: (result, { isPartial }) => new Text(isPartial ? "launching" : "E2E LAUNCHED " + result.details.rocket, 0, 0),
  });
  pi.registerCommand("card", { handler: async () => pi.sendMessage({ customType: "e2e-card", content: "c", display: true, details: { n: 7 } }) });
  pi.registerCommand("chrome", {
    handler: async (_a, ctx) => {
      ctx.ui.setFooter((_tui, theme) => ({ render: (w) => [truncateToWidth(theme.fg("dim", "E2E FOOTER"), w)], invalidate() {} }));
      ctx.ui.setWidget("e2e", () => new Text("E2E WIDGET", 0, 0), { placement: "aboveEditor" });
    },
  });
  pi.registerCommand("pick", {
    handler: async (_a, ctx) => {
      const picked = await ctx.ui.custom((tui, _theme, keybindings, done) => {
        const items = ["one", "two"];
        let at = 0;
        return {
          render: (w) => items.map((item, i) => truncateToWidth((i === at ? "> " : "  ") + "E2E PICK " + item, w)),
          handleInput(data) {
            if (keybindings.matches(data, "tui.select.down")) at = (at + 1) % items.length;
            else if (keybindings.matches(data, "tui.select.confirm")) done(items[at]);
            tui.requestRender();
          },
          invalidate() {},
        };
      });
      ctx.ui.notify("E2E picked " + picked, "info");
    },
  });
  pi.registerCommand("overlay", {
    handler: async (_a, ctx) => {
      const value = await ctx.ui.custom(
        (_tui, _theme, _kb, done) => ({
          render: (w) => [truncateToWidth("#E2E OVERLAY#", w, "", true)],
          handleInput(data) { if (matchesKey(data, "x")) done("closed"); },
          invalidate() {},
        }),
        { overlay: true, overlayOptions: { anchor: "top-right", width: 16 } },
      );
      ctx.ui.notify("E2E overlay " + value, "info");
    },
  });
}
`;

const COMPLETION_EXTENSION = `
import { Text } from "@earendil-works/pi-tui";

export default function (pi) {
  pi.registerEntryRenderer("e2e-status", (entry) => new Text("E2E ENTRY " + entry.data.n, 0, 0));
  pi.registerCommand("stamp", { handler: async (_a, ctx) => { pi.appendEntry("e2e-status", { n: 5 }); ctx.ui.notify("E2E stamped", "info"); } });
  pi.registerCommand("issues", {
    handler: async (_a, ctx) => {
      ctx.ui.addAutocompleteProvider((current) => ({
        triggerCharacters: ["#"],
        async getSuggestions(lines, line, col, options) {
          const match = (lines[line] ?? "").slice(0, col).match(/(?:^|[ \\t])#(\\d*)$/);
          if (!match) return current.getSuggestions(lines, line, col, options);
          return { prefix: "#" + match[1], items: [
            { value: "#4242", label: "#4242", description: "Autocomplete e2e issue" },
            { value: "#4300", label: "#4300", description: "Another issue" },
          ].filter((i) => i.value.startsWith("#" + match[1])) };
        },
        applyCompletion: (lines, line, col, item, prefix) => current.applyCompletion(lines, line, col, item, prefix),
      }));
      ctx.ui.notify("E2E completion on", "info");
    },
  });
}
`;

let tmux: TmuxServer | undefined;
beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());

describe.skipIf(!HAS_TMUX)("extension UI on a terminal (tmux, built CLI)", { timeout: 90_000 }, () => {
  it("renderers, a custom screen, an overlay, a footer and a widget from one extension", async () => {
    const user = agentHome();
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "l1", name: "launch", arguments: { rocket: "falcon" } }] },
      { content: "liftoff" },
    ]);
    writeFileSync(join(user.project, "ext-ui.ts"), EXTENSION);
    const pane = tmux!.start({
      cwd: user.project,
      env: user.env,
      args: ["--model", "faux/faux-1", "-e", "./ext-ui.ts"],
      width: 80,
      height: 30,
      watch: "screen",
    });
    await pane.waitFor("faux-1");

    pane.type("/card");
    pane.keys("Enter");
    await pane.waitFor("E2E CARD 7");

    pane.type("/chrome");
    pane.keys("Enter");
    const chrome = await pane.waitFor("E2E FOOTER");
    const rows = chrome.split("\n");
    expect(rows.findIndex((r) => r.includes("E2E WIDGET"))).toBeLessThan(
      rows.findIndex((r) => r.includes("E2E FOOTER")),
    );

    pane.type("/pick");
    pane.keys("Enter");
    await pane.waitFor("> E2E PICK one");
    pane.keys("Down");
    await pane.waitFor("> E2E PICK two");
    pane.keys("Enter");
    await pane.waitFor("E2E picked two");

    pane.type("/overlay");
    pane.keys("Enter");
    const overlay = await pane.waitFor("#E2E OVERLAY#");
    const top = overlay.split("\n").find((r) => r.includes("#E2E OVERLAY#"))!;
    expect(top.indexOf("#E2E OVERLAY#")).toBe(80 - 16);
    pane.type("x");
    await pane.waitFor("E2E overlay closed");
    expect(pane.capture()).not.toContain("#E2E OVERLAY#");

    pane.type("go");
    pane.keys("Enter");
    const tool = await pane.waitFor("liftoff");
    expect(tool).toContain("E2E LAUNCH CALL falcon");
    expect(tool).toContain("E2E LAUNCHED falcon");
    expect(tool).not.toContain("raw launch output");

    pane.keys("C-c");
    pane.keys("C-c");
    await pane.waitFor(/\[pi exited \d+\]/, { all: true });
    expect(pane.exitCode()).toBe(0);
  });

  it("ctx.ui.select takes keybindings.json's tui.select.* keys", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: "unused" }]);
    writeFileSync(
      join(user.project, "ext-select.ts"),
      `export default function (pi) {
  pi.registerCommand("flavour", {
    handler: async (_a, ctx) => {
      const picked = await ctx.ui.select("Pick a flavour", ["vanilla", "mint", "lemon"]);
      ctx.ui.notify("FLAVOUR " + picked, "info");
    },
  });
}
`,
    );
    writeFileSync(
      join(user.agent, "keybindings.json"),
      JSON.stringify({ "tui.select.down": ["ctrl+n"], "tui.select.confirm": ["tab"] }),
    );
    const pane = tmux!.start({
      cwd: user.project,
      env: user.env,
      args: ["--model", "faux/faux-1", "-e", "./ext-select.ts"],
      width: 80,
      height: 30,
      watch: "screen",
    });
    await pane.waitFor("faux-1");
    pane.type("/flavour");
    pane.keys("Enter");
    await pane.waitFor("Pick a flavour");
    // Down is no longer tui.select.down; Ctrl+N is, and Tab confirms.
    pane.keys("Down", "C-n", "C-n", "Tab");
    await pane.waitFor("FLAVOUR lemon");
  });

  it("an autocomplete provider's list and insertion; an appended entry survives /reload and a resume", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: "E2E answer one" }, { content: "E2E answer two" }]);
    writeFileSync(join(user.project, "ext-complete.ts"), COMPLETION_EXTENSION);
    const args = ["--model", "faux/faux-1", "-e", "./ext-complete.ts"];
    const pane = tmux!.start({ cwd: user.project, env: user.env, args, width: 80, height: 30, watch: "screen" });
    await pane.waitFor("faux-1");

    pane.type("/issues");
    pane.keys("Enter");
    await pane.waitFor("E2E completion on");
    pane.type("fix #4");
    const listed = await pane.waitFor("Autocomplete e2e issue");
    expect(listed).toContain("#4300");
    pane.type("2");
    await pane.waitFor((s) => !s.includes("#4300"));
    pane.keys("Tab");
    await pane.waitFor((s) => s.includes("fix #4242") && !s.includes("Autocomplete e2e issue"));
    pane.keys("C-u");
    await pane.waitFor((s) => !s.includes("fix #4242"));

    pane.type("/stamp");
    pane.keys("Enter");
    await pane.waitFor("E2E ENTRY 5");
    pane.type("hello");
    pane.keys("Enter");
    await pane.waitFor("E2E answer one");
    pane.type("/reload");
    pane.keys("Enter");
    await pane.waitFor("Reloading plugins");
    pane.type("again");
    pane.keys("Enter");
    expect(await pane.waitFor("E2E answer two")).toContain("E2E ENTRY 5");
    pane.keys("C-c");
    pane.keys("C-c");
    await pane.waitFor(/\[pi exited \d+\]/, { all: true });

    // The session resumed: the transcript is rebuilt from its file, the entry in its place before the prompt.
    const resumed = tmux!.start({
      cwd: user.project,
      env: user.env,
      args: ["-c", ...args],
      width: 80,
      height: 30,
      watch: "screen",
    });
    const screen = await resumed.waitFor((s) => s.includes("E2E answer one") && s.includes("E2E ENTRY 5"));
    const rows = screen.split("\n");
    expect(rows.findIndex((r) => r.includes("E2E ENTRY 5"))).toBeLessThan(rows.findIndex((r) => r.includes("hello")));
    resumed.keys("C-c");
    resumed.keys("C-c");
    await resumed.waitFor(/\[pi exited \d+\]/, { all: true });
  });
});
