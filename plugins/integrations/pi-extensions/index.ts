/**
 * The pi-extensions plugin: runs pi extension modules (`export default function (pi: ExtensionAPI)`)
 * unchanged, mapping pi's ExtensionAPI onto pi-host's contracts:
 *
 *   - tools an extension registers → a tool source (tool/source);
 *   - `tool_call`, `tool_result`, `context`, `before_agent_start`, `input` and extension commands → a
 *     hooks provider (commands run when a prompt names them, through `beforePrompt`);
 *   - the other events → the session's events on the kernel bus;
 *   - `ctx.ui` → the running mode's ui contract; messages, names, models → agent/session; entries and
 *     labels → session/store; `exec` → owned child processes.
 *
 * Setup only declares. Extensions load on first use (the first prompt, tool listing or hook call),
 * through their own jiti instance whose virtual modules stand in for pi's packages. What is supported
 * and what throws "not supported yet": docs/extensions.md.
 */
import { Type } from "@sinclair/typebox";
import { SESSION_EVENT, AgentSessionContract, type SessionEvent } from "pi-host";
import { AuthContract, LlmContract, ModelsContract } from "pi-host";
import { HooksContract } from "pi-host";
import { FlagOwnerContract, HostEnvironmentContract } from "pi-host";
import { ResourcesContract, SettingsContract } from "pi-host";
import { SessionStoreContract } from "pi-host";
import { ToolContract, ToolSourceContract } from "pi-host";
import { TuiAppContract, TuiShortcutsContract, TuiSurfacesContract, UiContract } from "pi-host";
import { definePlugin } from "pi-host";
import { createExtensionHooks } from "./hooks.js";
import { createShortcuts } from "./shortcuts.js";
import { useKeybindings } from "./pi-tui-controls.js";
import { useEditorHost } from "./pi-tui-editor.js";
import { ExtensionRuntime } from "./runtime.js";
import { createExtensionToolSource } from "./tool-source.js";

const Config = Type.Object(
  {
    /** Extension files or folders (pi's `extensions` setting works too), relative to the working folder. */
    extensions: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** Extensions installed packages bring (the host fills this from the `packages` setting), loaded after `extensions`. */
    packageExtensions: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** `-e/--extension` paths of this run, loaded after the package extensions. */
    commandLineExtensions: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** pi's `--no-extensions`: skip `.pi/extensions/` and `<agentDir>/extensions/`; listed paths still load. */
    noExtensions: Type.Boolean({ default: false }),
    /** The agent folder; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
    /** Values of flags extensions register (`pi.registerFlag`), by flag name. */
    flags: Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()]), { default: {} }),
  },
  { additionalProperties: false },
);

export default definePlugin({
  id: "pi-extensions",
  version: "1.0.0",
  description: "Runs pi extensions: their tools, commands, event handlers and UI calls on pi-host's contracts",
  provides: [
    ToolSourceContract,
    HooksContract,
    ResourcesContract,
    TuiShortcutsContract,
    TuiSurfacesContract,
    FlagOwnerContract,
  ],
  requires: [
    AgentSessionContract,
    { contract: SessionStoreContract, optional: true },
    { contract: UiContract, optional: true },
    { contract: SettingsContract, optional: true },
    { contract: ModelsContract, optional: true },
    { contract: AuthContract, optional: true },
    { contract: LlmContract, optional: true },
    { contract: ToolContract, optional: true },
    { contract: ResourcesContract, optional: true },
    { contract: HostEnvironmentContract, optional: true },
    // The terminal view: theme colours, key bindings and redraws for extensions' components.
    { contract: TuiAppContract, optional: true },
    // Other plugins' flags (durable-runs' --durable) are theirs, not unknown extension flags.
    { contract: FlagOwnerContract, optional: true },
  ],
  config: Config,
  setup(ctx) {
    const runtime = new ExtensionRuntime({
      ctx,
      session: ctx.use(AgentSessionContract),
      store: ctx.use(SessionStoreContract),
      uis: ctx.useAll(UiContract),
      settings: ctx.use(SettingsContract),
      models: ctx.use(ModelsContract),
      auth: ctx.use(AuthContract),
      llm: ctx.use(LlmContract),
      tools: ctx.useAll(ToolContract),
      resources: ctx.useAll(ResourcesContract),
      host: ctx.use(HostEnvironmentContract),
      app: ctx.use(TuiAppContract),
      flagOwners: ctx.useAll(FlagOwnerContract),
    });
    ctx.provide(ToolSourceContract, createExtensionToolSource(runtime));
    ctx.provide(HooksContract, createExtensionHooks(runtime));
    // Skills and prompt templates of `resources_discover` paths.
    ctx.provide(ResourcesContract, runtime.resourcePaths.source(), { key: "pi-extensions" });
    ctx.provide(TuiShortcutsContract, createShortcuts(runtime), { key: "pi-extensions" });
    // Extensions' headers, footers, widgets, custom screens and overlays, and their renderers.
    ctx.provide(TuiSurfacesContract, runtime.tui.provider(), { key: "pi-extensions" });
    // pi-tui's getKeybindings() (SelectList, Input) reads the running TUI's keybindings.json.
    useKeybindings(() => (runtime.tui.app() === undefined ? undefined : runtime.tui.surfaces.keybindings));
    // pi-tui's Editor (and CustomEditor) is the view's own editor.
    useEditorHost(() => runtime.tui.app());
    // The host refuses a command-line flag no extension registers before the run starts.
    // It also loads extensions early when the host needs their providers (`--list-models`, `--model`).
    ctx.provide(
      FlagOwnerContract,
      {
        registeredFlags: () => runtime.registeredFlags(),
        loadRegistrations: () => runtime.registeredFlags().then(() => undefined),
      },
      { key: "pi-extensions" },
    );
    ctx.on(SESSION_EVENT, (event: SessionEvent) => runtime.onSessionEvent(event));
    ctx.onDispose(() => runtime.shutdown(), "session_shutdown to extensions");
    ctx.onDispose(() => runtime.tui.dispose(), "dispose extensions' components and completion providers");
  },
});
