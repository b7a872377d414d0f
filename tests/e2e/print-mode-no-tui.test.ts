/**
 * `pi -p` with an extension that uses the TUI surfaces (renderers, components) loads none of the
 * terminal view's rendering code: width tables and wrapping stay unloaded outside the interactive mode.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { agentHome } from "./agent-home.js";
import { runPiRecordingModules } from "./record-modules.js";
import { PI_BIN } from "./run-pi.js";

const DIST = dirname(PI_BIN);

beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
});

describe("print mode and extension UI", () => {
  it("an extension with renderers and a custom screen runs in print mode without loading the TUI's code", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: "printed answer" }]);
    writeFileSync(
      join(user.project, "ui-ext.ts"),
      `import { Text } from "@earendil-works/pi-tui";
export default function (pi) {
  pi.registerMessageRenderer("card", () => new Text("card", 0, 0));
  pi.on("session_start", async (_e, ctx) => {
    const value = await ctx.ui.custom(() => new Text("x", 0, 0));
    ctx.ui.setFooter(() => new Text("footer", 0, 0));
    console.error("custom gave " + value + " in " + ctx.mode);
  });
}`,
    );
    const { run, modules } = await runPiRecordingModules(
      ["-p", "--no-session", "--model", "faux/faux-1", "-e", "./ui-ext.ts", "hello"],
      user.project,
      user.env,
    );
    expect(run.stdout).toBe("printed answer\n");
    expect(run.stderr).toContain("custom gave undefined in print");
    // The built files holding the view, its tui/app and the width tables (esbuild names their sources).
    const tuiChunks = readdirSync(DIST)
      .filter((name) => name.endsWith(".js"))
      .filter((name) =>
        /^\/\/ (plugins\/ui\/tui\/(view|app-impl)\.ts|node_modules\/string-width\/index\.js)$/m.test(
          readFileSync(join(DIST, name), "utf8"),
        ),
      );
    expect(tuiChunks.length).toBeGreaterThanOrEqual(2);
    const loaded = modules.filter((url) => tuiChunks.some((name) => url.endsWith(`/dist/${name}`)));
    expect(modules.some((url) => url.endsWith("/dist/cli.js"))).toBe(true);
    expect(loaded).toEqual([]);
  });
});
