/**
 * Boots a real kernel with the real loop, session store, compactor and session plugins, plus a scripted
 * provider and test tools, in a temp agent folder — the agent session exactly as a mode sees it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import {
  SESSION_EVENT,
  AgentSessionContract,
  type AgentSession,
  type SessionEvent,
} from "../../../contracts/agent-session.js";
import { AiProviderContract, ModelsContract, type Model, type ModelCatalog } from "../../../contracts/ai/index.js";
import { ToolContract, type AgentTool } from "../../../contracts/tool.js";
import * as typebox from "@sinclair/typebox";
import * as api from "../../../hosts/api.js";
import {
  definePlugin,
  type Handle,
  type PluginDefinition,
  type PluginEntry,
  type PluginSource,
} from "../../../kernel/index.js";
import { Kernel } from "../../../hosts/host-kernel.js";
import llm from "../../../plugins/ai/llm/index.js";
import agentLoop from "../../../plugins/session/agent-loop/index.js";
import agentSession from "../../../plugins/session/agent-session/index.js";
import compaction from "../../../plugins/session/compaction/index.js";
import resources from "../../../plugins/config/resources/index.js";
import { createFauxProvider, type FauxOptions, type FauxProvider } from "../../../plugins/ai/provider-faux/faux.js";
import sessionJsonl from "../../../plugins/session/session-jsonl/index.js";
import { fixedCatalogMembers } from "../../support/fixed-catalog.js";

/** A catalog that knows only the faux provider's models. */
function fauxModels(faux: FauxProvider): PluginDefinition<any, any> {
  const catalog: ModelCatalog = {
    list: () => faux.models,
    find: (provider, id) => faux.models.find((m) => m.provider === provider && m.id === id),
    search: (query) => faux.models.filter((m) => m.id.includes(query)),
    resolve: (reference) => {
      const [ref, thinking] = reference.split(":");
      const id = ref!.includes("/") ? ref!.split("/")[1]! : ref!;
      const model = faux.models.find((m) => m.id === id);
      if (model === undefined) throw new Error(`unknown model "${reference}"`);
      return { model, thinking: thinking as never };
    },
    // Tests choose their model by config; none is picked for them.
    initialModel: () => undefined,
    scope: () => ({ models: [], warnings: [] }),
    ...fixedCatalogMembers,
  };
  return definePlugin({
    id: "test-models",
    version: "1.0.0",
    provides: [ModelsContract],
    setup: (ctx) => ctx.provide(ModelsContract, catalog),
  });
}

/** A plugin offering the given tools. */
export function toolsPlugin(tools: AgentTool<any, any>[], id = "test-tools"): PluginDefinition<any, any> {
  return definePlugin({
    id,
    version: "1.0.0",
    provides: [ToolContract],
    setup(ctx) {
      for (const tool of tools) ctx.provide(ToolContract, tool, { key: tool.name });
    },
  });
}

/** A tool from a function, for tests. */
export function testTool(name: string, run: (args: any) => Promise<string>): AgentTool<any, any> {
  return {
    name,
    description: `test tool ${name}`,
    parameters: Type.Object({}, { additionalProperties: true }),
    async execute(_id, args) {
      return { content: [{ type: "text", text: await run(args) }] };
    },
  };
}

/** The running kernel, the session handle, the faux provider and every session event. */
export interface SessionHarness {
  kernel: Kernel;
  session: Handle<AgentSession>;
  faux: FauxProvider;
  model: Model;
  events: SessionEvent[];
  agentDir: string;
  cwd: string;
}

/** Boots the stack; `config` goes to the agent-session plugin (session, model, tools...). */
export async function bootSession(
  options: {
    faux?: FauxOptions;
    tools?: AgentTool<any, any>[];
    config?: Record<string, unknown>;
    agentDir?: string;
    cwd?: string;
    extra?: PluginDefinition<any, any>[];
    /** Replaces the code of an entry by id (e.g. a file-based alternative loop). */
    sources?: Record<string, PluginSource>;
    /** Further entries, e.g. file plugins. */
    entries?: PluginEntry[];
    /** Boots the resources plugin on the temp agent folder: slash commands, skills, templates, prompt sections. */
    resources?: boolean;
  } = {},
): Promise<SessionHarness> {
  const agentDir = options.agentDir ?? mkdtempSync(join(tmpdir(), "pi-session-agent-"));
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "pi-session-cwd-"));
  const faux = createFauxProvider(options.faux);
  const fauxPlugin = definePlugin({
    id: "provider-faux",
    version: "1.0.0",
    provides: [AiProviderContract],
    setup: (ctx) => ctx.provide(AiProviderContract, faux, { key: faux.api }),
  });
  const kernel = new Kernel({ virtualModules: { "pi-host": api, "@sinclair/typebox": typebox } });
  const inline = (definition: PluginDefinition<any, any>, config?: unknown): PluginEntry => ({
    id: definition.id,
    source: options.sources?.[definition.id] ?? { kind: "inline", label: definition.id, definition },
    config,
  });
  const boot = await kernel.boot([
    inline(fauxModels(faux)),
    inline(fauxPlugin),
    inline(llm),
    inline(sessionJsonl, { agentDir }),
    inline(compaction),
    inline(agentLoop),
    inline(toolsPlugin(options.tools ?? [])),
    ...(options.resources ? [inline(resources, { agentDir })] : []),
    ...(options.extra ?? []).map((d) => inline(d)),
    ...(options.entries ?? []),
    inline(agentSession, { cwd, model: "faux/faux-1", ...options.config }),
  ]);
  if (boot.errors.length > 0 || !boot.ok)
    throw new Error(`boot failed: ${JSON.stringify(boot.errors.map((e) => e.cause.message))}`);
  const events: SessionEvent[] = [];
  kernel.on(SESSION_EVENT, (e: SessionEvent) => events.push(e));
  return { kernel, session: kernel.use(AgentSessionContract), faux, model: faux.model(), events, agentDir, cwd };
}
