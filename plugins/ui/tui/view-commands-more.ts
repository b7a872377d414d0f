/**
 * The slash commands pi 1.6.0 has beyond the session basics: /settings, /scoped-models, /import,
 * /share, /trust, /bug, /changelog and /debug. Each opens a picker (whose keys are in
 * ./command-pickers.ts) or answers with a notice, and reaches the agent only through contracts
 * (`agent/session`, `settings`, `host/trust`, `session/store`).
 */
import type { KeyOutcome } from "pi-host";
import { BUG_DISCLAIMER, TRANSCRIPT_CHOICES, TRANSCRIPT_NOTE } from "./bug-report.js";
import { changelogText } from "./changelog.js";
import { settingsItems } from "./command-pickers.js";
import { debugLogText, writeDebugLog } from "./debug-log.js";
import { shareSession } from "./share.js";
import type { PickerItem, ViewState } from "./state.js";
import { notice } from "./transcript.js";
import { syncCall, type ViewActions } from "./view-deps.js";
import { openPicker } from "./view-pickers.js";

/** The commands this file runs. */
export const MORE_COMMANDS = new Set([
  "settings",
  "scoped-models",
  "import",
  "share",
  "trust",
  "bug",
  "changelog",
  "debug",
]);

/** Runs one of MORE_COMMANDS. */
export function runMoreCommand(view: ViewActions, s: ViewState, name: string, args: string): KeyOutcome {
  switch (name) {
    case "settings":
      openSettings(view, s);
      break;
    case "scoped-models":
      openScopedModels(view, s);
      break;
    case "import":
      importCommand(view, s, args);
      break;
    case "share":
      share(view, s);
      break;
    case "trust":
      openTrust(view, s);
      break;
    case "bug":
      openPicker(view, s, { kind: "bug", title: "Include the session transcript?", query: "" }, async () =>
        TRANSCRIPT_CHOICES.map((label) => ({ label, value: label })),
      );
      Object.assign(s.picker!, { header: [BUG_DISCLAIMER, TRANSCRIPT_NOTE], subject: args });
      // pi asks what went wrong first when the command did not say (optional: Enter on nothing goes on).
      if (args === "") s.picker!.labelEdit = "";
      break;
    case "changelog":
      notice(s, changelogText());
      break;
    case "debug":
      debug(view, s);
      break;
  }
  return {};
}

/** `/settings`: every setting with its value; Enter cycles or edits one. */
function openSettings(view: ViewActions, s: ViewState): void {
  const settings = view.deps.settings;
  if (settings === undefined || !settings.available) {
    notice(s, "Settings are not available: no plugin provides the settings contract.", "error");
    return;
  }
  openPicker(view, s, { kind: "settings", title: "Settings", query: "" }, async () =>
    settingsItems(await settings.api.get(s.cwd)),
  );
  s.picker!.hint = "enter change · type to filter · esc close (saved to settings.json at once)";
}

/** `/scoped-models`: the models Ctrl+P cycles through, toggled for this session; Ctrl+S saves them. */
function openScopedModels(view: ViewActions, s: ViewState): void {
  const session = view.deps.session;
  openPicker(view, s, { kind: "scoped-models", title: "Model Configuration", query: "" }, async () => {
    const models = await session.api.availableModels();
    const order = syncCall(() => session.api.scopedModels(), [] as string[]);
    const scoped = new Set(order);
    const items = models.map((m) =>
      scopedItem(`${m.provider}/${m.id}`, scoped.size === 0 || scoped.has(`${m.provider}/${m.id}`)),
    );
    // The scope's models first, in their cycle order; the others after them.
    const rank = (value: string): number => (scoped.has(value) ? order.indexOf(value) : order.length);
    return items.sort((a, b) => rank(a.value) - rank(b.value));
  });
  s.picker!.header = ["Session-only. ctrl+s to save to settings."];
  s.picker!.hint =
    "enter toggle · ctrl+a all · ctrl+x clear · ctrl+p provider · alt+↑/↓ reorder · ctrl+s save · esc close";
}

/** A model row of /scoped-models, its check mark in the label. */
export function scopedItem(value: string, enabled: boolean): PickerItem {
  return { label: `${enabled ? "✓" : " "} ${value}`, value, current: enabled };
}

/** pi's path argument: the first word, or a quoted path. */
export function pathArgument(args: string): string | undefined {
  const text = args.trim();
  if (text === "") return undefined;
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, 1);
    return end < 0 ? undefined : text.slice(1, end);
  }
  return text.split(/\s/)[0];
}

/** `/import <file>`: asks first, as pi does, then imports and switches. */
function importCommand(view: ViewActions, s: ViewState, args: string): void {
  const path = pathArgument(args);
  if (path === undefined) {
    notice(s, "Usage: /import <path.jsonl>", "error");
    return;
  }
  openPicker(view, s, { kind: "confirm", title: "Import session", query: "" }, async () => [
    { label: "Yes", value: "yes" },
    { label: "No", value: "no" },
  ]);
  Object.assign(s.picker!, { header: [`Replace current session with ${path}?`], subject: path });
}

/** `/share`: the session in a secret gist; the answer is a notice. */
function share(view: ViewActions, s: ViewState): void {
  const file = syncCall(() => view.deps.session.api.state(), undefined)?.sessionFile;
  const leafId = view.deps.store.available ? syncCall(() => view.deps.store.api.leafId(), null) : undefined;
  s.statuses.share = "Creating gist…";
  view.background(
    "share",
    async () => {
      const settings = view.deps.settings?.available ? await view.deps.settings.api.get(s.cwd) : {};
      return shareSession({
        sessionFile: file,
        leafId,
        cwd: s.cwd,
        destination: settings.sessionShareDestination,
        spawn: view.deps.spawn,
      });
    },
    (outcome) =>
      view.later((state) => {
        delete state.statuses.share;
        notice(state, outcome.message, outcome.level);
      }),
  );
}

/** `/trust`: the saved decision and this session's, and the choices pi offers. */
function openTrust(view: ViewActions, s: ViewState): void {
  const trust = view.deps.trust;
  if (trust === undefined || !trust.available) {
    notice(s, "Project trust is not available: no host provides host/trust.", "error");
    return;
  }
  openPicker(view, s, { kind: "trust", title: "Project trust", query: "" }, async () => {
    const status = await trust.api.status(s.cwd);
    const saved = status.saved;
    const decision =
      saved === undefined
        ? "none"
        : `${saved.trusted ? "trusted" : "untrusted"} (${saved.dir === status.dir ? saved.dir : `inherited from ${saved.dir}`})`;
    view.later((state) => {
      if (state.picker?.kind !== "trust") return;
      state.picker.header = [
        status.dir,
        `Saved decision: ${decision}`,
        `Current session: ${status.currentSession ? "trusted" : "untrusted"}`,
      ];
    });
    const items: PickerItem[] = [{ label: "Trust", value: JSON.stringify([{ dir: status.dir, value: true }]) }];
    if (status.parent !== undefined)
      items.push({
        label: `Trust parent folder (${status.parent})`,
        value: JSON.stringify([
          { dir: status.parent, value: true },
          { dir: status.dir, value: null },
        ]),
      });
    items.push({ label: "Do not trust", value: JSON.stringify([{ dir: status.dir, value: false }]) });
    const savedAt = (label: string): boolean =>
      saved !== undefined &&
      ((label === "Trust" && saved.trusted && saved.dir === status.dir) ||
        (label.startsWith("Trust parent") && saved.trusted && saved.dir === status.parent) ||
        (label === "Do not trust" && !saved.trusted && saved.dir === status.dir));
    return items.map((item) => ({ ...item, current: savedAt(item.label) }));
  });
  s.picker!.hint = "↑↓ navigate · enter save · esc cancel";
}

/** `/debug`: the frame and the messages into `<agentDir>/pi-debug.log`. */
function debug(view: ViewActions, s: ViewState): void {
  try {
    const frame = view.renderedFrame();
    const messages = syncCall(() => view.deps.session.api.messages(), []);
    const path = writeDebugLog(view.deps.agentDir, debugLogText(frame, messages));
    notice(s, `✓ Debug log written\n${path}`);
  } catch (error) {
    notice(s, `Failed to write the debug log: ${(error as Error).message}`, "error");
  }
}
