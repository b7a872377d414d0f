/**
 * What the terminal view is given and what its handlers share: the plugin's side of the view (state,
 * the session, redraws, dialogs), the view's own actions that the key, command and picker handlers call
 * back into, and the guard for synchronous session calls while a reload holds the session.
 */
import type { AgentSession, Handle, HostTrust, PluginTableEntry, SessionState, SessionStore } from "pi-host";
import type { KeyOutcome, TuiSurfaces } from "pi-host";
import type { AgentHooks, ManyHandle, SettingsStore, UserBashSpawn } from "pi-host";
import type { ExtraCommand } from "./complete.js";
import type { ViewState } from "./state.js";

/** What the view needs from its plugin: its state, the session, and a way to ask for a frame. */
export interface ViewDeps {
  state(): ViewState;
  /** The lines the host printed before the UI started; fullscreen mode draws over them, so it shows them. */
  hostNotices?(): readonly string[];
  /** Hands the (mutated) state back to the kernel, which checks its shape. */
  save(state: ViewState): void;
  session: Handle<AgentSession>;
  store: Handle<SessionStore>;
  /** settings.json, for /settings and /scoped-models (absent: nothing to save to). */
  settings?: Handle<SettingsStore>;
  /** The hooks asked before /new, /resume, /fork, /tree and /compact (pi's `session_before_*`). */
  hooks?: ManyHandle<AgentHooks>;
  /** The host's trust store, for /trust (absent: no host provides host/trust). */
  trust?: Handle<HostTrust>;
  /** The selected theme name from settings.json, if any. */
  settingsTheme(cwd: string): Promise<string | undefined>;
  /** Prompt templates and skills, for `/` completion. */
  extraCommands(cwd: string): Promise<ExtraCommand[]>;
  redraw(): void;
  requestReload(): void;
  /** Answers a `ui` dialog (undefined: dismissed, its default). */
  settleDialog(id: string, value: unknown): void;
  /** Every open dialog takes its default (the run ended). */
  settleAllDialogs(): void;
  /** The host's plugin table (`host/plugins`), or undefined when no host provides one. */
  plugins(): readonly PluginTableEntry[] | undefined;
  agentDir: string;
  /** What other plugins draw in the view (`tui/surfaces`). */
  surfaceProviders?(): ReadonlyArray<Handle<TuiSurfaces>>;
  /** What the keys a replacement editor passed on asked of the shell, once (then nothing). */
  takeKeyOutcome?(): KeyOutcome;
  /** Runs another plugin's shortcut for `keyId` ("ctrl+shift+p"); false when none has it. */
  shortcut?(keyId: string): boolean;
  /** Starts the user's `!command` shell (the plugin passes `ownedSpawn(ctx, …)`, so the kernel owns the child). */
  spawn: UserBashSpawn;
  now?: () => number;
}

/**
 * What the slash command and picker handlers need from the view they serve; the view implements it, so
 * those handlers can live in their own files and still reach the view's caches and redraws.
 */
export interface ViewActions {
  readonly deps: ViewDeps;
  /** The terminal's height in rows at the last frame, for picker paging. */
  terminalHeight(): number;
  /** The session's state as of the last refresh (model, session file), for marking the current choice. */
  sessionState(): SessionState | undefined;
  /** Runs a session operation without blocking the key; its failure becomes a notice. */
  background<T>(what: string, operation: () => T | Promise<T>, after?: (value: T) => void): void;
  /** Changes state after an await, then asks for a frame; a view that was swapped out meanwhile does nothing. */
  later(change: (state: ViewState) => void): void;
  /** Rebuilds the transcript from the session's messages. */
  rebuild(s: ViewState): void;
  /** Switches to a theme by name; a theme that fails to load becomes an error notice. */
  useTheme(s: ViewState, name: string): void;
  /** The current frame's rows at the terminal's size, for `/debug`. */
  renderedFrame(): { width: number; height: number; lines: string[] };
  /** Hands the terminal a control sequence with the next frame (OSC 52). */
  writeToTerminal(sequence: string): void;
}

/** Calls a synchronous session method; a held handle (the session reloading) answers `fallback`. */
export function syncCall<T>(produce: () => T | Promise<T>, fallback: T): T {
  try {
    const value = produce();
    if (value !== null && typeof value === "object" && typeof (value as Promise<T>).then === "function") {
      (value as Promise<T>).catch(() => undefined);
      return fallback;
    }
    return value as T;
  } catch {
    return fallback;
  }
}
