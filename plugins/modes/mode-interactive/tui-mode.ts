/**
 * Which terminal mode a run uses and its fullscreen options, from the host's `--tui-mode` flag, then pi's
 * settings (`tuiMode`, `fullscreenScrollbar`, `fullscreenCopyOnSelect`, `fullscreenWheelScrollLines`,
 * `fullscreenExitOutput`), then the plugin's config. A setting with a value pi does not accept is ignored
 * (its default applies), as pi does.
 */
import type { Handle, HostEnvironmentProvider, SettingsStore, TuiFullscreenOptions, TuiMode } from "pi-host";
import { readHostEnvironment } from "pi-host";

/** What the shell is given. */
export interface TerminalChoices {
  tuiMode: TuiMode;
  fullscreen: TuiFullscreenOptions;
  exitOutput: "transcript" | "resume-hint";
}

/** Reads the choices for a run in `cwd`; a settings store that fails counts as no settings. */
export async function terminalChoices(
  host: Handle<HostEnvironmentProvider> | undefined,
  settings: Handle<SettingsStore> | undefined,
  cwd: string,
  configured: TuiMode,
): Promise<TerminalChoices> {
  let values: Record<string, unknown> = {};
  if (settings?.available === true) {
    try {
      values = await settings.api.get(cwd);
    } catch {
      values = {};
    }
  }
  return choicesFrom(readHostEnvironment(host)?.flags?.tuiMode, values, configured);
}

/** The choices from a flag value, a settings object and the configured default. */
export function choicesFrom(
  flag: TuiMode | undefined,
  settings: Record<string, unknown>,
  configured: TuiMode,
): TerminalChoices {
  const mode = settings.tuiMode;
  const scrollbar = settings.fullscreenScrollbar;
  const wheel = settings.fullscreenWheelScrollLines;
  return {
    tuiMode: flag ?? (mode === "fullscreen" || mode === "regular" ? mode : configured),
    fullscreen: {
      scrollbar: scrollbar === "always" || scrollbar === "hidden" || scrollbar === "auto" ? scrollbar : "auto",
      copyOnSelect: settings.fullscreenCopyOnSelect !== false,
      wheelScrollLines:
        typeof wheel === "number" && Number.isInteger(wheel) && wheel >= 1 && wheel <= 100 ? wheel : "auto",
    },
    exitOutput: settings.fullscreenExitOutput === "resume-hint" ? "resume-hint" : "transcript",
  };
}
