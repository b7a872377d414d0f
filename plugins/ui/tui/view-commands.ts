/**
 * The slash commands the terminal view answers itself (those in ./commands.ts): help, quit, the pickers,
 * session housekeeping, reload, plugins and themes. Each drives the agent through the `agent/session`
 * contract, so the view stays a front end.
 */
import { currentThemes } from "./themes.js";
import { copyToClipboard, type KeyOutcome, type PluginTableEntry, THINKING_LEVELS, type ThinkingLevel } from "pi-host";
import { exportOpenSession } from "pi-host";
import { COMMANDS, KEY_HELP } from "./commands.js";
import { shortPath } from "./footer.js";
import type { ViewState } from "./state.js";
import { oneLine } from "./text.js";
import { notice } from "./transcript.js";
import { syncCall, type ViewActions } from "./view-deps.js";
import { MORE_COMMANDS, runMoreCommand } from "./view-commands-more.js";
import { openPicker } from "./view-pickers.js";
import { loadResumeItems, refreshResumeHeader } from "./resume-picker.js";
import { sessionChangeAllowed } from "./session-gate.js";
import { openTree } from "./view-tree.js";

/** Runs one of the view's own slash commands (`/model`, `/tree`, `/session`, ...); unknown names do nothing. */
export function runCommand(view: ViewActions, s: ViewState, name: string, args: string): KeyOutcome {
  if (MORE_COMMANDS.has(name)) return runMoreCommand(view, s, name, args);
  const session = view.deps.session;
  switch (name) {
    case "quit":
      return { exit: true };
    case "help":
    case "hotkeys": {
      const keys = KEY_HELP.map(([k, what]) => `  ${k.padEnd(34)} ${what}`);
      const commands =
        name === "help" ? ["Commands:", ...COMMANDS.map((c) => `  /${c.name.padEnd(14)} ${c.description}`), ""] : [];
      notice(s, [...commands, name === "hotkeys" ? "Keyboard Shortcuts" : "Keys:", ...keys].join("\n"));
      return {};
    }
    case "model":
      openPicker(view, s, { kind: "model", title: "Select a model", query: args }, async () => {
        const models = await session.api.availableModels();
        const current = view.sessionState()?.model;
        return models.map((m) => ({
          label: `${m.provider}/${m.id}`,
          value: `${m.provider}/${m.id}`,
          detail: m.name !== m.id ? m.name : undefined,
          current: current?.provider === m.provider && current.id === m.id,
        }));
      });
      return {};
    case "thinking":
      thinking(view, s, args);
      return {};
    case "clone":
      view.background(
        "clone",
        () => session.api.clone(),
        (info) =>
          view.later((state) =>
            notice(state, `Cloned into a new session${info?.path ? `: ${shortPath(info.path)}` : ""}`),
          ),
      );
      return {};
    case "copy":
      copyLastAnswer(view, s);
      return {};
    case "tree":
      openTree(view, s, args);
      return {};
    case "fork":
      openPicker(view, s, { kind: "fork", title: "Fork from a message", query: args }, async () =>
        [...(await session.api.forkPoints())].reverse().map((p) => ({ label: oneLine(p.text), value: p.entryId })),
      );
      return {};
    case "resume":
      openPicker(view, s, { kind: "resume", title: "Resume a session", query: args }, () =>
        loadResumeItems(view, s.cwd),
      );
      s.picker!.sortMode = "threaded";
      refreshResumeHeader(s.picker!);
      return {};
    case "new":
      view.background("new session", async () => {
        if ((await sessionChangeAllowed(view, { kind: "new" })).go) await session.api.newSession();
      });
      return {};
    case "export": {
      // pi's /export [path]: the HTML page, or the active branch for a path ending in .jsonl.
      const output = args.replace(/^(["'])(.*)\1$/, "$2").trim();
      try {
        const file = syncCall(() => session.api.state(), undefined)?.sessionFile;
        const leafId = view.deps.store.available ? view.deps.store.api.leafId() : undefined;
        const written = exportOpenSession(file, leafId, output === "" ? undefined : output, s.cwd);
        notice(s, `Session exported to: ${written}`);
      } catch (error) {
        notice(s, `Failed to export session: ${(error as Error)?.message ?? String(error)}`, "error");
      }
      return {};
    }
    case "compact":
      view.background("compact", async () => {
        const instructions = args === "" ? undefined : args;
        const allowed = await sessionChangeAllowed(view, { kind: "compact", customInstructions: instructions });
        if (allowed.go) await session.api.compact(allowed.customInstructions ?? instructions);
      });
      return {};
    case "name":
      // pi's /name: alone it shows the current name (or the usage); with a name it sets it.
      if (args === "") {
        const current = view.sessionState()?.sessionName;
        if (current) notice(s, `Session name: ${current}`);
        else notice(s, "Usage: /name <name>", "warning");
      } else
        view.background(
          "name",
          () => session.api.setSessionName(args),
          () => view.later((state) => notice(state, `Session name set: ${view.sessionState()?.sessionName ?? args}`)),
        );
      return {};
    case "session": {
      const st = syncCall(() => session.api.state(), undefined);
      const stats = syncCall(() => session.api.stats(), undefined);
      const lines = [
        `Session ${st?.sessionName ? `"${st.sessionName}" ` : ""}${st?.sessionId ?? "(none)"}`,
        `  file: ${st?.sessionFile ? shortPath(st.sessionFile) : "(not saved)"}`,
        `  model: ${st?.model ? `${st.model.provider}/${st.model.id}` : "(none)"}, thinking ${st?.thinkingLevel ?? "off"}`,
      ];
      if (stats) {
        lines.push(
          `  messages: ${stats.userMessages} user, ${stats.assistantMessages} assistant, ${stats.toolCalls} tool calls (${stats.totalMessages} in all)`,
        );
        lines.push(
          `  tokens: ${stats.tokens.input} in, ${stats.tokens.output} out, ${stats.tokens.cacheRead} cache read, ${stats.tokens.cacheWrite} cache write; cost $${stats.cost.toFixed(4)}`,
        );
      }
      notice(s, lines.join("\n"));
      return {};
    }
    case "reload":
      view.deps.requestReload();
      notice(
        s,
        "Reloading plugins loaded from source (edited ones take effect; under pi --watch, saving a file does this by itself).",
      );
      return {};
    case "plugins": {
      const plugins = view.deps.plugins();
      if (plugins === undefined) notice(s, "The plugin table is not available: no host provides host/plugins.");
      else notice(s, pluginsReport(plugins));
      return {};
    }
    case "theme":
      if (args === "")
        notice(
          s,
          `Theme: ${s.theme} (available: ${currentThemes(view.deps.agentDir).names().join(", ")}; add one in ${shortPath(view.deps.agentDir)}/themes/<name>.json)`,
        );
      else view.useTheme(s, args);
      return {};
  }
  return {};
}

/** `/thinking low` sets the level; `/thinking` alone opens a picker of the levels, the current one marked. */
function thinking(view: ViewActions, s: ViewState, level: string): void {
  const session = view.deps.session;
  if (level !== "") {
    if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
      notice(s, `unknown thinking level "${level}"; use one of ${THINKING_LEVELS.join(", ")}`, "warning");
      return;
    }
    view.background(
      "thinking",
      () => session.api.setThinkingLevel(level as ThinkingLevel),
      () => view.later((state) => notice(state, `Thinking level: ${level}`)),
    );
    return;
  }
  openPicker(view, s, { kind: "thinking", title: "Thinking level", query: "" }, async () => {
    const current = view.sessionState()?.thinkingLevel;
    return THINKING_LEVELS.map((l) => ({ label: l, value: l, current: l === current }));
  });
}

/** `/copy`: the last assistant message onto the clipboard (a tool, or OSC 52 with the next frame). */
function copyLastAnswer(view: ViewActions, s: ViewState): void {
  const text = syncCall(() => view.deps.session.api.lastAssistantText(), undefined);
  if (text === undefined || text === "") {
    notice(s, "Nothing to copy: no assistant message yet", "warning");
    return;
  }
  view.background(
    "copy",
    () => copyToClipboard(text),
    (result) =>
      view.later((state) => {
        if (!result.copied) {
          notice(state, `Could not copy: ${result.reason}`, "error");
          return;
        }
        if (result.osc52 !== undefined) view.writeToTerminal(result.osc52);
        notice(state, "Copied the last assistant message");
      }),
  );
}

/** `/plugins`: the plugins serving the session with their generations and contracts, then the ones that are not. */
function pluginsReport(plugins: readonly PluginTableEntry[]): string {
  const serving = plugins.filter((p) => p.state === "active");
  const others = plugins.filter((p) => p.state !== "active");
  const lines = ["Plugins serving this session:", ...serving.map(pluginLine)];
  if (others.length > 0) lines.push("Not serving:", ...others.map(pluginLine));
  return lines.join("\n");
}

/**
 * One plugin: id, generation (or state) and provided contracts; a failure is shown when it is why the
 * plugin does not serve, or when it is newer than the serving generation (a reload that did not take).
 */
function pluginLine(p: PluginTableEntry): string {
  const contracts = [...new Set(p.provides.map((c) => c.contract))].join(", ");
  const where = p.state === "active" ? `gen ${String(p.generation ?? "-").padEnd(4)}` : p.state.padEnd(8);
  const error = p.lastError;
  const failure =
    error !== undefined && (p.state !== "active" || error.generation > (p.generation ?? 0))
      ? `  (${error.phase} failed: ${oneLine(error.message)})`
      : "";
  return `  ${p.id.padEnd(20)} ${where} ${contracts}${failure}`.trimEnd();
}
