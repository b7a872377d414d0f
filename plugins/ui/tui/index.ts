/**
 * The tui plugin: the interactive mode's view (`tui/view`) — transcript, markdown, tool boxes, editor,
 * pickers, footer, themes. It keeps everything it shows in its kernel state, so editing this plugin under
 * `pi --watch` swaps the UI between two frames and keeps the transcript, the editor text and the pickers'
 * scroll. It reaches the agent only through contracts (`agent/session`, and `session/store` for session
 * lists and labels); the terminal itself belongs to the mode-interactive plugin.
 */
import { Type } from "@sinclair/typebox";
import { AgentSessionContract } from "pi-host";
import { HostPluginsContract, HostTrustContract, readPluginTable } from "pi-host";
import { HostEnvironmentContract, projectFilesApply, readHostEnvironment, SESSION_EVENT } from "pi-host";
import { CommandContract, HooksContract, ResourcesContract, SettingsContract } from "pi-host";
import { SessionStoreContract } from "pi-host";
import { HOST_RELOAD_REQUEST_EVENT, TUI_REDRAW_EVENT, TuiShortcutsContract, TuiViewContract } from "pi-host";
import { TuiAppContract, TuiSurfacesContract, type KeyOutcome, type TuiKey } from "pi-host";
import { UiContract } from "pi-host";
import { ModelsContract } from "pi-host";
import { agentDir as agentDirOf, definePlugin, ownedSpawn, readResourceOverrides, resourceEnabled } from "pi-host";
import { initialViewState, migrateViewState, STATE_VERSION, ViewStateSchema, type ViewState } from "./state.js";
import { DialogBroker } from "./dialogs.js";
import { LazyView } from "./lazy-view.js";
import { TuiUserInterface } from "./ui.js";
import { TuiAppFront } from "./app.js";

export default definePlugin({
  id: "tui",
  version: "1.0.0",
  description: "The terminal UI's view: transcript, editor, pickers and footer behind the tui/view contract",
  provides: [TuiViewContract, UiContract, TuiAppContract],
  requires: [
    AgentSessionContract,
    { contract: SessionStoreContract, optional: true },
    { contract: SettingsContract, optional: true },
    { contract: ResourcesContract, optional: true },
    // Plugins' slash commands (/login, /llama, ...), for `/` completion.
    { contract: CommandContract, optional: true },
    // Hooks' slash commands (extension commands, /mcp), for `/` completion.
    { contract: HooksContract, optional: true },
    // The host's plugin table, which /plugins lists.
    { contract: HostPluginsContract, optional: true },
    // The host's project-trust store, which /trust shows and saves to.
    { contract: HostTrustContract, optional: true },
    // Shortcuts other plugins add (pi extensions' registerShortcut).
    { contract: TuiShortcutsContract, optional: true },
    // What other plugins draw in the view (pi extensions' components and renderers).
    { contract: TuiSurfacesContract, optional: true },
    // The run's theme flags (--theme, --use-theme, --no-themes), project trust and packages' themes.
    { contract: HostEnvironmentContract, optional: true },
    // The --models / enabledModels scope, for the header's "Model scope" line.
    { contract: ModelsContract, optional: true },
  ],
  config: Type.Object({
    /** Where `themes/<name>.json` are looked up; default PI_CODING_AGENT_DIR or ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
  }),
  state: { version: STATE_VERSION, schema: ViewStateSchema, initial: initialViewState, migrate: migrateViewState },
  setup(ctx) {
    const agentDir = agentDirOf(ctx.config.agentDir);
    const settings = ctx.use(SettingsContract);
    const resources = ctx.useAll(ResourcesContract);
    const commands = ctx.useAll(CommandContract);
    const hooks = ctx.useAll(HooksContract);

    const hostPlugins = ctx.use(HostPluginsContract);
    const host = ctx.use(HostEnvironmentContract);
    const models = ctx.use(ModelsContract);
    const session = ctx.use(AgentSessionContract);
    let themes: { unwatch(): void } | undefined;
    ctx.onDispose(() => themes?.unwatch(), "stop watching the theme file");
    const shortcuts = ctx.useAll(TuiShortcutsContract);
    const surfaces = ctx.useAll(TuiSurfacesContract);

    // The state of a generation that retired is no longer this plugin's to touch.
    const liveState = (): ViewState | undefined => {
      try {
        return ctx.getState() as ViewState;
      } catch {
        return undefined;
      }
    };
    const changed = (): void => {
      const state = liveState();
      if (state === undefined) return;
      ctx.setState(state);
      ctx.emit(TUI_REDRAW_EVENT);
    };
    const dialogs = new DialogBroker(liveState, changed);
    ctx.onDispose(() => dialogs.settleAll(), "answer open dialogs with their defaults");

    const redraw = () => ctx.emit(TUI_REDRAW_EVENT);
    // Keys a replacement editor passes on run through the view; what they ask of the shell (exit...) is
    // returned by the key call that is running.
    let passedOn: KeyOutcome = {};
    const editorKey = (key: TuiKey): void => {
      const outcome = view.handleKey(key);
      if (!(outcome instanceof Promise)) passedOn = { ...passedOn, ...outcome };
    };
    const app = new TuiAppFront({ state: liveState, changed, redraw, editorKey, agentDir });
    const view = new LazyView(
      {
        state: () => ctx.getState() as ViewState,
        save: (state) => ctx.setState(state),
        session,
        store: ctx.use(SessionStoreContract),
        settings,
        hooks,
        trust: ctx.use(HostTrustContract),
        hostNotices: () => readHostEnvironment(host)?.notices ?? [],
        // The theme to show, once the settings and flags are read; the startup header's options too.
        async settingsTheme(cwd) {
          const values = settings.available ? await settings.api.get(cwd) : {};
          const environment = readHostEnvironment(host);
          const flags = environment?.flags ?? {};
          const { setStartupOptions, quietStartupOf, scopeLabels } = await import("./startup-header.js");
          setStartupOptions({
            quietStartup: quietStartupOf(values.quietStartup),
            verbose: flags.verbose === true,
            scope: await scopeLabels(flags.models ?? values.enabledModels, models, session),
          });
          // pi's `terminal.hyperlinks` (OSC 8 links; "auto" detects as pi does).
          (await import("./hyperlinks.js")).setHyperlinkSetting(
            ((values.terminal ?? {}) as { hyperlinks?: unknown }).hyperlinks ?? "auto",
          );
          // pi's `markdown.mermaid` (diagrams for mermaid blocks).
          (await import("./mermaid.js")).setMermaidMode(values.markdown);
          // pi's `showCacheMissNotices`.
          (await import("./cache-notices.js")).setCacheNotices(values.showCacheMissNotices);
          // pi's `terminal.showImages`, `terminal.imageWidthCells` and `terminal.images`.
          (await import("./image-render.js")).setImageOptions((values.terminal ?? {}) as Record<string, unknown>);
          const { ThemeRegistry, useThemes, settingThemePaths } = await import("./themes.js");
          const projectApplies = await projectFilesApply(host, cwd);
          const overrides = await readResourceOverrides(agentDir, cwd, projectApplies);
          const registry = new ThemeRegistry({
            agentDir,
            projectDir: projectApplies ? cwd : undefined,
            switchedOn: (file) => resourceEnabled(overrides, "themes", file),
            noThemes: flags.noThemes === true,
            themePaths: flags.themePaths ?? [],
            settingPaths: settingThemePaths(values.themes, agentDir),
            packagePaths: environment?.packages?.themes ?? [],
            // pi's `terminal.trueColor` (else PI_TRUE_COLOR, else detected from the environment).
            trueColor: (await import("./color-depth.js")).trueColorOf(
              ((values.terminal ?? {}) as { trueColor?: unknown }).trueColor,
            ),
          });
          useThemes(registry);
          themes = registry;
          for (const message of registry.problems)
            ctx.emit(SESSION_EVENT, { type: "notice", level: "warning", message });
          // pi hot-reloads the active theme when it is the user's <agent dir>/themes/<name>.json.
          registry.onChange = () => ctx.emit(TUI_REDRAW_EVENT);
          const setting = typeof values.theme === "string" && values.theme.trim() !== "" ? values.theme : undefined;
          return registry.select(flags.useTheme, setting);
        },
        async extraCommands(cwd) {
          const extra: Array<{ value: string; detail?: string }> = [];
          for (const command of commands.list()) {
            const api = command.peek();
            if (api !== undefined) extra.push({ value: api.name, detail: api.description });
          }
          for (const hook of hooks.list())
            for (const c of (await hook.peek()?.commands?.()) ?? [])
              extra.push({ value: c.name, detail: c.description });
          for (const source of resources.list()) {
            for (const t of await source.api.templates(cwd)) extra.push({ value: t.name, detail: t.description });
            for (const skill of await source.api.skills(cwd))
              extra.push({ value: `skill:${skill.name}`, detail: skill.description });
          }
          return extra;
        },
        redraw: () => ctx.emit(TUI_REDRAW_EVENT),
        requestReload: () => ctx.emit(HOST_RELOAD_REQUEST_EVENT, {}),
        settleDialog: (id, value) => dialogs.settle(id, value),
        settleAllDialogs: () => dialogs.settleAll(),
        plugins: () => readPluginTable(hostPlugins),
        agentDir,
        spawn: (command, args, options) => ownedSpawn(ctx, command, args, options),
        shortcut(keyId) {
          const owner = shortcuts.list().find((h) => h.peek()?.keys().includes(keyId) === true);
          if (owner === undefined) return false;
          void owner.api.run(keyId).catch(() => undefined);
          return true;
        },
        surfaceProviders: () => surfaces.list(),
        takeKeyOutcome() {
          const outcome = passedOn;
          passedOn = {};
          return outcome;
        },
      },
      () => app.load(),
    );
    ctx.provide(TuiViewContract, view);
    ctx.provide(TuiAppContract, app);
    ctx.provide(UiContract, new TuiUserInterface(liveState, dialogs, changed), { key: "interactive" });
  },
});
