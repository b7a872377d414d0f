/**
 * Boots the tools-remote plugin in a kernel against the test sshd, and the local tool plugins beside it
 * for comparison: the remote folder and the local cwd are separate temp folders on this machine, so a
 * test can check what the remote tools did on disk and that the local cwd stayed untouched.
 */
import { mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AgentTool,
  createFileLocks,
  type ToolContext,
  type ToolResult,
  ToolContract,
} from "../../../contracts/tool.js";
import remotePlugin from "../../../plugins/tools/tools-remote/index.js";
import { Kernel } from "../../schema-kernel.js";
import type { TestSshd } from "./sshd.js";

/** A fresh temp folder (real path). */
export function tempFolder(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** The tools of a booted tools-remote plugin, by name, and the kernel to shut down. */
export interface RemoteTools {
  kernel: Kernel;
  tools: Map<string, AgentTool<any, any>>;
  /** The local session folder handed to every call (must stay untouched). */
  localCwd: string;
  call(name: string, params: unknown, signal?: AbortSignal, onUpdate?: (p: ToolResult) => void): Promise<ToolResult>;
}

/** Boots tools-remote with `config` (target, keys, known_hosts...). */
export async function bootRemote(
  config: Record<string, unknown>,
  options: ConstructorParameters<typeof Kernel>[0] = {},
): Promise<RemoteTools> {
  const kernel = new Kernel(options);
  const boot = await kernel.boot([
    { id: "tools-remote", source: { kind: "inline", label: "tools-remote", definition: remotePlugin }, config },
  ]);
  if (boot.errors.length > 0) throw new Error(JSON.stringify(boot.errors));
  const tools = new Map<string, AgentTool<any, any>>();
  for (const handle of kernel.useAll(ToolContract).list()) {
    const tool = handle.peek();
    if (tool !== undefined)
      tools.set(tool.name, {
        ...tool,
        execute: (...args: Parameters<AgentTool["execute"]>) => handle.api.execute(...args),
      });
  }
  const localCwd = tempFolder("pi-remote-local-");
  const ctx: ToolContext = { cwd: localCwd, withFileLock: createFileLocks() };
  return {
    kernel,
    tools,
    localCwd,
    call: (name, params, signal, onUpdate) => {
      const tool = tools.get(name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      return tool.execute("call-1", params as never, signal, onUpdate, ctx);
    },
  };
}

/** The target and key settings for `sshd` and remote folder `folder`. */
export function sshConfig(
  sshd: TestSshd,
  folder: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    target: `${sshd.user}@127.0.0.1:${sshd.port}:${folder}`,
    identityFile: sshd.identity,
    knownHostsFile: sshd.knownHosts,
    ...extra,
  };
}

/** The text of a result. */
export function textOf(result: ToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("");
}

/** The names in a folder (to check the local cwd stayed empty). */
export function entriesOf(folder: string): string[] {
  return readdirSync(folder).sort();
}
