/**
 * Boots the agent-session stack (tests/plugins/agent-session/harness.ts) with the pi-extensions plugin
 * loading fixture extensions from tests/fixtures/pi-extensions/, and a recording user interface that
 * answers dialogs from a script and keeps every notify/status/widget call.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionEvent } from "../../../contracts/agent-session.js";
import { UiContract, type UserInterface } from "../../../contracts/ui.js";
import { definePlugin, type PluginDefinition, type PluginEntry } from "../../../kernel/index.js";
import piExtensions from "../../../plugins/integrations/pi-extensions/index.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";

/** The absolute path of a fixture extension. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/pi-extensions/${name}`, import.meta.url));
}

/** The plugin's distribution entry with the given config. */
export function extensionsEntry(config: Record<string, unknown>): PluginEntry {
  return { id: "pi-extensions", source: { kind: "inline", label: "pi-extensions", definition: piExtensions }, config };
}

/** One call the recording UI received. */
export type UiCall = { method: string; args: unknown[] };

/** A UI provider that answers dialogs with `answer` and records everything. */
export function recordingUi(answer: (method: string, args: unknown[]) => unknown = () => undefined): {
  plugin: PluginDefinition<any, any>;
  calls: UiCall[];
  notes: () => string[];
} {
  const calls: UiCall[] = [];
  const record =
    (method: string) =>
    (...args: unknown[]): any => {
      calls.push({ method, args });
      return answer(method, args);
    };
  const ui: UserInterface = {
    hasUI: () => true,
    select: async (...args) => record("select")(...args),
    confirm: async (...args) => record("confirm")(...args) ?? false,
    input: async (...args) => record("input")(...args),
    editor: async (...args) => record("editor")(...args),
    notify: record("notify"),
    setStatus: record("setStatus"),
    setWidget: record("setWidget"),
    setTitle: record("setTitle"),
    setEditorText: record("setEditorText"),
  };
  const plugin = definePlugin({
    id: "test-ui",
    version: "1.0.0",
    provides: [UiContract],
    setup: (ctx) => ctx.provide(UiContract, ui, { key: "test" }),
  });
  return { plugin, calls, notes: () => calls.filter((c) => c.method === "notify").map((c) => String(c.args[0])) };
}

/** Options of bootSession, plus further config for the pi-extensions plugin. */
export type ExtensionBootOptions = Parameters<typeof bootSession>[0] & { extensionConfig?: Record<string, unknown> };

/** bootSession's options with the pi-extensions entry added; its agent folder is the session's (a fresh temp folder). */
export function withExtensions(
  extensions: string[],
  options: ExtensionBootOptions = {},
): Parameters<typeof bootSession>[0] {
  const { extensionConfig, ...rest } = options;
  const agentDir = rest.agentDir ?? mkdtempSync(join(tmpdir(), "pi-ext-agent-"));
  return {
    ...rest,
    agentDir,
    entries: [...(rest.entries ?? []), extensionsEntry({ extensions, agentDir, ...extensionConfig })],
  };
}

/** The session stack running the given extensions. */
export function bootWithExtensions(extensions: string[], options: ExtensionBootOptions = {}): Promise<SessionHarness> {
  return bootSession(withExtensions(extensions, options));
}

/** Every notice the plugin published, as text. */
export function notices(events: SessionEvent[]): string[] {
  return events
    .filter((e): e is Extract<SessionEvent, { type: "notice" }> => e.type === "notice")
    .map((e) => e.message);
}
