/**
 * The tools of one turn: tool plugins first, then tools listed by tool sources (MCP servers,
 * extensions), chosen by the run's selection as pi 1.6.0 defines `--tools` and `--exclude-tools`. Each
 * call goes through a stable handle, so a tool edited mid-session serves the next call while a running
 * call finishes on its old code. A name already taken is skipped, unless a source's tool says it replaces
 * a tool plugin's tool (a pi extension overriding `read`); a tool source that fails to list its tools is
 * reported and left out.
 */
import {
  isToolOffered,
  type AgentTool,
  type ManyHandle,
  type SessionEvent,
  type ToolSource,
  type ToolSpecOf,
} from "pi-host";

/** Where the tools come from and what the run allows. */
export interface ToolAssembly {
  tools: ManyHandle<AgentTool<any, any>>;
  toolSources: ManyHandle<ToolSource>;
  /**
   * The selection, pi's `--tools` language: names or `*` patterns (an allow-list that keeps `mcp__`
   * tools unless an entry starts with `mcp__`), and `+name`/`-name` entries that add to or remove from
   * the rest. Undefined = every enabled tool, [] = none.
   */
  allowed: string[] | undefined;
  /** Names or `*` patterns taken out after everything else, MCP tools included (`--exclude-tools`). */
  excluded?: string[];
  /** `-nbt`: the built-in tools are off unless the selection names them (`--tools read`, `+read`). */
  withoutBuiltins?: boolean;
  cwd: string;
  emit: (event: SessionEvent) => void;
}

/** The turn's tools, in order, each name once: the ones declared to the model. */
export async function activeTools(assembly: ToolAssembly): Promise<AgentTool<any, any>[]> {
  return (await activeToolSet(assembly)).tools;
}

/**
 * The turn's declared tools, and the names of the selected tools a source lists with an `exposure`
 * (MCP tools reached from codemode scripts or loaded by `tool_search`): selected like any tool, never
 * declared, so a tool that runs other tools (codemode) may still call them.
 */
export async function activeToolSet(
  assembly: ToolAssembly,
): Promise<{ tools: AgentTool<any, any>[]; undeclared: string[] }> {
  const offered: { spec: ToolSpecOf; execute: AgentTool<any, any>["execute"] }[] = [];
  const builtin = new Set<string>();
  const offer = (spec: ToolSpecOf, execute: AgentTool<any, any>["execute"]): void => {
    const taken = offered.findIndex((t) => t.spec.name === spec.name);
    if (taken === -1) offered.push({ spec, execute });
    // A source's tool that replaces a tool plugin's takes its place (once: the first source wins).
    else if (spec.replacesBuiltin === true && builtin.delete(spec.name)) offered[taken] = { spec, execute };
  };
  // The tool's description and schema are read from the provider (inspection); calls go through the handle.
  for (const handle of assembly.tools.list()) {
    const tool = handle.peek();
    if (isToolOffered(tool) && !builtin.has(tool.name)) {
      offer(tool, (...args) => handle.api.execute(...args));
      builtin.add(tool.name);
    }
  }
  const sources = assembly.toolSources.list();
  const listings = new Map<(typeof sources)[number], ToolSpecOf[]>();
  for (const source of sources) listings.set(source, await listSource(assembly, source, undefined));
  const allNames = [...offered.map((t) => t.spec.name), ...[...listings.values()].flat().map((s) => s.name)];
  const selected = selectToolNames(allNames, assembly.allowed, assembly.excluded);
  if (assembly.withoutBuiltins)
    dropBuiltins(
      selected,
      offered.map((t) => t.spec.name),
      assembly.allowed,
    );
  // Inactive tools (codemode with nothing needing it) stay off unless the selection names them.
  const named = new Set((assembly.allowed ?? []).map((e) => (e.startsWith("+") ? e.slice(1) : e)));
  for (const spec of [...listings.values()].flat())
    if (spec.inactive === true && !named.has(spec.name)) selected.delete(spec.name);
  const restricted = assembly.allowed !== undefined || (assembly.excluded ?? []).length > 0;
  for (const source of sources) {
    let specs = listings.get(source) ?? [];
    // A source whose tool describes the others (codemode) lists again, told the names this run selected.
    if (restricted && specs.some((s) => selected.has(s.name)))
      specs = await listSource(assembly, source, [...selected]);
    for (const spec of specs) offer(spec, (...args) => source.api.executeTool(spec.name, ...args));
  }
  const tools: AgentTool<any, any>[] = [];
  const undeclared: string[] = [];
  for (const { spec, execute } of offered) {
    if (!selected.has(spec.name) || tools.some((t) => t.name === spec.name)) continue;
    if (spec.exposure !== undefined) {
      if (!undeclared.includes(spec.name)) undeclared.push(spec.name);
      continue;
    }
    const { name, label, description, parameters, guidelines, executionMode, prepareArguments } = spec;
    tools.push({ name, label, description, parameters, guidelines, executionMode, prepareArguments, execute });
  }
  return { tools, undeclared };
}

function listSource(
  assembly: ToolAssembly,
  source: ReturnType<ToolAssembly["toolSources"]["list"]>[number],
  selected: string[] | undefined,
): Promise<ToolSpecOf[]> {
  return source.api.listTools(assembly.cwd, selected).catch((error: unknown) => {
    assembly.emit({
      type: "notice",
      level: "warning",
      message: `a tool source failed to list its tools: ${(error as Error).message}`,
    });
    return [];
  });
}

/**
 * pi 1.6.0's selection over the names on offer. Plain entries replace the selection (MCP tools stay
 * unless an entry starts with `mcp__`); a list of only `+name`/`-name` entries changes every enabled
 * tool instead; exclusions apply last, to every tool.
 */
export function selectToolNames(
  names: readonly string[],
  allowed: readonly string[] | undefined,
  excluded: readonly string[] | undefined,
): Set<string> {
  const plain = (allowed ?? []).filter((e) => !e.startsWith("+") && !e.startsWith("-"));
  const adds = (allowed ?? []).filter((e) => e.startsWith("+")).map((e) => e.slice(1));
  const removes = (allowed ?? []).filter((e) => e.startsWith("-")).map((e) => e.slice(1));
  const deltasOnly = plain.length === 0 && adds.length + removes.length > 0;
  const filtersMcp = plain.some((e) => e.startsWith(MCP_PREFIX));
  const patterns = plain.map(toolPattern);
  const selected = new Set(
    names.filter(
      (name) =>
        allowed === undefined ||
        deltasOnly ||
        (plain.length > 0 && !filtersMcp && name.startsWith(MCP_PREFIX)) ||
        patterns.some((p) => p.test(name)),
    ),
  );
  for (const name of adds) if (names.includes(name)) selected.add(name);
  for (const name of removes) selected.delete(name);
  for (const pattern of (excluded ?? []).map(toolPattern))
    for (const name of [...selected]) if (pattern.test(name)) selected.delete(name);
  return selected;
}

const MCP_PREFIX = "mcp__";

/** pi's built-in tools, as `-nbt` means them: these names when a tool plugin (not an extension or MCP) offers them. */
const BUILTIN_TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "find", "ls"];

/**
 * `-nbt`: takes the tool plugins' built-in tools out of a default selection (none, or only `+`/`-`
 * changes), keeping those a `+name` adds back; a plain `--tools` list decides for itself, as in pi.
 */
function dropBuiltins(selected: Set<string>, pluginTools: string[], allowed: readonly string[] | undefined): void {
  if ((allowed ?? []).some((e) => !e.startsWith("+") && !e.startsWith("-"))) return;
  const added = new Set((allowed ?? []).filter((e) => e.startsWith("+")).map((e) => e.slice(1)));
  for (const name of pluginTools) if (BUILTIN_TOOL_NAMES.includes(name) && !added.has(name)) selected.delete(name);
}

/** A tool name or pattern: `*` matches any characters, everything else itself. */
function toolPattern(entry: string): RegExp {
  return new RegExp(`^${entry.split("*").map(escapeRegExp).join(".*")}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
