/**
 * The interactive mode plugin: `pi` on a terminal. A thin shell that owns the terminal (raw mode, keys,
 * resize, frame timing, the differential renderer) and holds no UI state: the view — transcript, editor,
 * pickers — is the `tui/view` contract (the tui plugin), called once per key, event and frame, so it can be
 * reloaded or replaced between two frames while the session stays open. Two terminal modes, as pi 1.6.0
 * has them: "fullscreen" (the default; the alternate screen, the transcript scrolling in a viewport) and
 * "regular" (the normal screen, the transcript going into the terminal's scrollback). `--tui-mode` (the
 * host's flags) beats the `tuiMode` setting, which beats this plugin's config.
 */
import { Type } from "@sinclair/typebox";
import { SESSION_EVENT, type SessionEvent } from "pi-host";
import { ModeContract, type Mode } from "pi-host";
import { TUI_REDRAW_EVENT, TuiViewContract } from "pi-host";
import { definePlugin, HostEnvironmentContract, SettingsContract } from "pi-host";
import type { InteractiveShell } from "./shell.js";
import { terminalChoices } from "./tui-mode.js";

export default definePlugin({
  id: "mode-interactive",
  version: "1.0.0",
  description: "Interactive mode: the terminal shell around the tui view (keys, frames, differential rendering)",
  provides: [ModeContract],
  requires: [
    TuiViewContract,
    // `--tui-mode` reaches the mode through the host's flags, the `tuiMode` setting through settings.
    { contract: HostEnvironmentContract, optional: true },
    { contract: SettingsContract, optional: true },
  ],
  config: Type.Object({
    /** The folder shown in the footer and searched for @file completion; default the process's. */
    cwd: Type.Optional(Type.String({ minLength: 1 })),
    /** Frame coalescing interval while text streams, in milliseconds. */
    frameIntervalMs: Type.Number({ minimum: 0, default: 16 }),
    /** The terminal mode when neither `--tui-mode` nor the `tuiMode` setting chooses one. */
    tuiMode: Type.Union([Type.Literal("fullscreen"), Type.Literal("regular")], { default: "fullscreen" }),
  }),
  setup(ctx) {
    const view = ctx.use(TuiViewContract);
    const host = ctx.use(HostEnvironmentContract);
    const settings = ctx.use(SettingsContract);
    let active: InteractiveShell | undefined;
    ctx.on(SESSION_EVENT, (event: SessionEvent) => active?.onSessionEvent(event));
    ctx.on(TUI_REDRAW_EVENT, () => active?.redraw());
    // A plugin swapped (the view itself, a provider, the session): its next frame may differ.
    ctx.on("kernel:commit", () => active?.swapped());
    ctx.onDispose(() => active?.stop(0), "leave the terminal");

    const mode: Mode = {
      name: "interactive",
      async run(input, io) {
        if (active !== undefined) {
          io.stderr.write("pi: the interactive mode is already running on this terminal\n");
          return 1;
        }
        // The terminal code loads only when a run is interactive, so `pi -p` never pays for it.
        const { InteractiveShell } = await import("./shell.js");
        const cwd = ctx.config.cwd ?? process.cwd();
        const choices = await terminalChoices(host, settings, cwd, ctx.config.tuiMode);
        const shell = new InteractiveShell(input, io, {
          view,
          cwd,
          frameIntervalMs: ctx.config.frameIntervalMs,
          ...choices,
          externalEditor: async () => {
            if (settings?.available !== true) return undefined;
            const value = (await settings.api.get(cwd)).externalEditor;
            return typeof value === "string" && value.trim() !== "" ? value : undefined;
          },
        });
        active = shell;
        try {
          return await shell.run();
        } finally {
          active = undefined;
        }
      },
    };
    ctx.provide(ModeContract, mode, { key: "interactive" });
  },
});
