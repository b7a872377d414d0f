/**
 * The tools of one turn: tool plugins first, then tools listed by tool sources (MCP servers,
 * extensions), filtered by the run's allow-list. Each call goes through a stable handle, so a tool edited
 * mid-session serves the next call while a running call finishes on its old code. A name already taken
 * is skipped; a tool source that fails to list its tools is reported and left out.
 */
import type { AgentTool, ManyHandle, SessionEvent, ToolSource } from "pi-host";

/** Where the tools come from and what the run allows. */
export interface ToolAssembly {
  tools: ManyHandle<AgentTool<any, any>>;
  toolSources: ManyHandle<ToolSource>;
  /** Allowed tool names; undefined = every enabled tool, [] = none. */
  allowed: string[] | undefined;
  cwd: string;
  emit: (event: SessionEvent) => void;
}

/** The turn's tools, in order, each name once. */
export async function activeTools(assembly: ToolAssembly): Promise<AgentTool<any, any>[]> {
  const { allowed } = assembly;
  const tools: AgentTool<any, any>[] = [];
  const add = (spec: Omit<AgentTool<any, any>, "execute">, execute: AgentTool<any, any>["execute"]): void => {
    if ((allowed !== undefined && !allowed.includes(spec.name)) || tools.some((t) => t.name === spec.name)) return;
    const { name, label, description, parameters, guidelines, executionMode, prepareArguments } = spec;
    tools.push({ name, label, description, parameters, guidelines, executionMode, prepareArguments, execute });
  };
  // The tool's description and schema are read from the provider (inspection); calls go through the handle.
  for (const handle of assembly.tools.list()) {
    const tool = handle.peek();
    if (tool !== undefined) add(tool, (...args) => handle.api.execute(...args));
  }
  for (const source of assembly.toolSources.list()) {
    const listed = await source.api.listTools(assembly.cwd, allowed).catch((error: unknown) => {
      assembly.emit({
        type: "notice",
        level: "warning",
        message: `a tool source failed to list its tools: ${(error as Error).message}`,
      });
      return [];
    });
    for (const spec of listed) add(spec, (...args) => source.api.executeTool(spec.name, ...args));
  }
  return tools;
}
