/**
 * `pi config`'s interactive list, as pi 1.6.0 draws it: a title with its key hints, the settings file
 * it writes, a search line, then groups (User, Project) with their kinds and one `[x]`/`[ ]` line per
 * resource. Up/Down move, Space or Enter switches the selected resource, typing filters, Tab changes
 * between the global and the project's settings (when the project is trusted), Esc closes, Ctrl+C
 * quits. It draws on the terminal's alternate screen and gives the terminal back as it found it.
 */
import { KIND_LABELS, type ResourceGroup, type ResourceItem } from "./catalog.js";

/** Which settings file a switch is written to. */
export type WriteScope = "global" | "project";

/** What the screen asks of its owner. */
export interface ScreenModel {
  /** The groups to show for a scope (re-read after every switch). */
  groups(scope: WriteScope): Promise<ResourceGroup[]>;
  /** Switches one resource in the scope's settings file. */
  toggle(item: ResourceItem, scope: WriteScope): Promise<void>;
  /** The file a scope writes, for the header. */
  file(scope: WriteScope): string;
  projectAvailable: boolean;
}

/** A terminal: raw key input and output. */
export interface ScreenTerminal {
  input: NodeJS.ReadStream;
  write(text: string): void;
  rows(): number;
}

type Row = { kind: "group"; text: string } | { kind: "heading"; text: string } | { kind: "item"; item: ResourceItem };

/** Runs the list until Esc or Ctrl+C. */
export async function runScreen(model: ScreenModel, terminal: ScreenTerminal, start: WriteScope): Promise<void> {
  let scope = start;
  let query = "";
  let selected = 0;
  let rows: Row[] = [];
  let message = "";
  const reload = async (): Promise<void> => {
    rows = flatten(await model.groups(scope), query);
    const items = rows.flatMap((r, i) => (r.kind === "item" ? [i] : []));
    if (!items.includes(selected)) selected = items[0] ?? 0;
  };
  const draw = (): void => {
    const lines = frame(model, scope, query, rows, selected, message, Math.max(5, terminal.rows() - 6));
    terminal.write(`\x1b[H\x1b[2J${lines.join("\r\n")}`);
  };
  const move = (step: number): void => {
    for (let i = selected + step; i >= 0 && i < rows.length; i += step)
      if (rows[i]!.kind === "item") {
        selected = i;
        return;
      }
  };
  await reload();
  const input = terminal.input;
  input.setRawMode?.(true);
  terminal.write("\x1b[?1049h\x1b[?25l");
  try {
    await new Promise<void>((resolve) => {
      let busy = Promise.resolve();
      let closed = false;
      const onData = (data: Buffer): void => {
        for (const key of splitKeys(data.toString("utf8"))) busy = busy.then(() => onKey(key));
      };
      const onKey = async (key: string): Promise<void> => {
        if (closed) return;
        message = "";
        if (key === "\x03" || key === "\x1b") {
          closed = true;
          input.off("data", onData);
          resolve();
          return;
        }
        if (key === "\x1b[A" || key === "\x1bOA") move(-1);
        else if (key === "\x1b[B" || key === "\x1bOB") move(1);
        else if (key === "\t") {
          if (model.projectAvailable) {
            scope = scope === "global" ? "project" : "global";
            await reload();
          }
        } else if (key === " " || key === "\r") {
          const row = rows[selected];
          if (row?.kind === "item" && (scope === "project" || row.item.scope === "user")) {
            try {
              await model.toggle(row.item, scope);
            } catch (error) {
              message = `Error: ${(error as Error).message}`;
            }
            await reload();
          }
        } else if (key === "\x7f" || key === "\b") {
          query = query.slice(0, -1);
          await reload();
        } else if (/^[^\x00-\x1f\x7f]+$/.test(key) && !key.startsWith("\x1b")) {
          query += key;
          await reload();
        }
        draw();
      };
      input.on("data", onData);
      input.resume();
      // Drawn once keys are read: what a user types on seeing the list reaches it.
      draw();
    });
  } finally {
    input.setRawMode?.(false);
    input.pause();
    terminal.write("\x1b[?25h\x1b[?1049l");
  }
}

/** One chunk of terminal input as keys: CSI and SS3 sequences whole, anything else a character each. */
export function splitKeys(data: string): string[] {
  const keys: string[] = [];
  const sequence = /^\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O[@-~])/;
  for (let i = 0; i < data.length; ) {
    const match = sequence.exec(data.slice(i));
    const key = match?.[0] ?? String.fromCodePoint(data.codePointAt(i)!);
    keys.push(key);
    i += key.length;
  }
  return keys;
}

/** The rows shown for a query: every item whose name or path holds it, under its group and kind. */
function flatten(groups: ResourceGroup[], query: string): Row[] {
  const rows: Row[] = [];
  const q = query.toLowerCase();
  for (const group of groups) {
    const items = group.items.filter(
      (i) => q === "" || i.name.toLowerCase().includes(q) || i.path.toLowerCase().includes(q) || i.kind.includes(q),
    );
    if (items.length === 0) continue;
    rows.push({ kind: "group", text: group.label });
    let kind: string | undefined;
    for (const item of items) {
      if (item.kind !== kind) rows.push({ kind: "heading", text: KIND_LABELS[item.kind] });
      kind = item.kind;
      rows.push({ kind: "item", item });
    }
  }
  return rows;
}

/** One frame: header, search line, the visible window of rows. */
function frame(
  model: ScreenModel,
  scope: WriteScope,
  query: string,
  rows: Row[],
  selected: number,
  message: string,
  visible: number,
): string[] {
  const title = scope === "project" ? "Project Local Resources" : "Global Resources";
  const action = scope === "project" ? "space cycle inherit/+/-" : "space toggle";
  const hints = `${model.projectAvailable ? "tab switch mode · " : ""}${action} · esc close`;
  const file = scope === "project" ? `${model.file(scope)} · inherited global resources are dimmed` : model.file(scope);
  const lines = [`${title}    ${hints}`, `\x1b[2m${file}\x1b[22m`, "", `> ${query}`, ""];
  if (rows.length === 0) lines.push("  No resources found");
  const first = Math.max(0, Math.min(selected - Math.floor(visible / 2), rows.length - visible));
  for (const [i, row] of rows.slice(first, first + visible).entries()) {
    if (row.kind === "group") lines.push(`  ${row.text}`);
    else if (row.kind === "heading") lines.push(`    ${row.text}`);
    else
      lines.push(`${first + i === selected ? ">" : " "}     ${checkbox(row.item)} ${row.item.name}${suffix(row.item)}`);
  }
  if (message !== "") lines.push("", message);
  return lines;
}

/** pi's box: `[x]`/`[ ]`, or in project mode `[+]`/`[-]` for the project's own switch. */
function checkbox(item: ResourceItem): string {
  if (item.projectState === "load") return "[+]";
  if (item.projectState === "unload") return "[-]";
  return item.enabled ? "[x]" : "[ ]";
}

/** pi's note after a project switch. */
function suffix(item: ResourceItem): string {
  if (item.projectState === "load") return "  project load";
  if (item.projectState === "unload") return "  project unload";
  return "";
}

/** The list as text, for `pi config` without a terminal. */
export function listText(groups: ResourceGroup[], title: string, file: string): string {
  let out = `${title} (${file})\n`;
  if (groups.length === 0) return `${out}  No resources found\n`;
  for (const row of flatten(groups, "")) {
    if (row.kind === "group") out += `  ${row.text}\n`;
    else if (row.kind === "heading") out += `    ${row.text}\n`;
    else out += `      ${checkbox(row.item)} ${row.item.name}${suffix(row.item)}\n`;
  }
  return out;
}
