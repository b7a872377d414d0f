/**
 * The slash commands the view understands, with the one-line descriptions autocomplete and /help show.
 * The view runs them (they need its state and the session); this file is the list, and the parser of a
 * submitted line into command and arguments.
 */

/** One slash command. */
export interface CommandInfo {
  name: string;
  description: string;
}

/** Every command, in the order /help and the completion list show them. */
export const COMMANDS: CommandInfo[] = [
  { name: "settings", description: "Open settings (every setting, saved to settings.json)" },
  { name: "model", description: "Pick the model (or /model <search>)" },
  { name: "scoped-models", description: "Configure the models used by interactive cycling (Ctrl+P)" },
  { name: "thinking", description: "Set the thinking level (/thinking [level])" },
  { name: "tree", description: "Navigate the session tree: switch branch, label entries" },
  { name: "fork", description: "Fork a new session from an earlier user message" },
  { name: "clone", description: "Duplicate the session at its current position into a new session" },
  { name: "compact", description: "Summarize older messages to free context (/compact [instructions])" },
  { name: "resume", description: "Open another session of this folder" },
  { name: "new", description: "Start a new session" },
  { name: "session", description: "Show the session's file, id, messages, tokens and cost" },
  { name: "name", description: "Name the session (/name <name>)" },
  { name: "copy", description: "Copy the last assistant message to the clipboard" },
  { name: "import", description: "Import a JSONL session, preserving its ID and working directory (/import <path>)" },
  { name: "export", description: "Write the session as HTML (/export [path]; a .jsonl path: the branch)" },
  { name: "share", description: "Upload the session as a secret GitHub gist and return a viewer link" },
  { name: "bug", description: "Prepare a private bug report as a zip (/bug [description])" },
  { name: "trust", description: "Save a project trust decision for future pi processes" },
  { name: "reload", description: "Ask the host to reload plugins from source" },
  { name: "plugins", description: "List the plugins serving the session, with their generations" },
  { name: "theme", description: "Switch theme (/theme dark|light|<name>)" },
  { name: "hotkeys", description: "Show the keyboard shortcuts" },
  { name: "changelog", description: "Show changelog entries" },
  { name: "debug", description: "Write the rendered screen and the messages to the debug log" },
  { name: "help", description: "Show commands and keys" },
  { name: "quit", description: "Leave pi" },
];

/** The keys, for /help and /hotkeys. */
export const KEY_HELP: Array<[string, string]> = [
  ["enter", "send (while the agent works: steer it)"],
  ["alt+enter", "queue a follow-up for when the agent is done"],
  ["shift+enter, ctrl+j", "new line"],
  ["escape", "abort the answer / close a picker"],
  ["ctrl+c", "clear the editor; twice to exit"],
  ["ctrl+d", "exit when the editor is empty"],
  ["ctrl+p / shift+ctrl+p", "next / previous model"],
  ["ctrl+l", "model picker"],
  ["shift+tab", "cycle thinking level"],
  ["ctrl+t", "show or hide thinking"],
  ["ctrl+o", "expand or collapse tool output"],
  ["up / down", "history (on the first / last line)"],
  ["ctrl+k / ctrl+u / ctrl+w / alt+d", "kill to end / start of line, word back / forward"],
  ["ctrl+y / alt+y", "yank / rotate the kill ring"],
  ["ctrl+-", "undo"],
  ["ctrl+g", "edit the prompt in $VISUAL / $EDITOR"],
  ["ctrl+z", "suspend (fg to resume)"],
  ["alt+up", "put the queued messages back into the editor"],
  ["tab", "complete /commands and @files"],
];

/** A submitted line as a command, when it is one of ours. */
export function parseCommand(line: string): { name: string; args: string } | undefined {
  const match = /^\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (match === null) return undefined;
  const name = match[1]!;
  if (!COMMANDS.some((c) => c.name === name) && name !== "exit") return undefined;
  return { name: name === "exit" ? "quit" : name, args: (match[2] ?? "").trim() };
}
