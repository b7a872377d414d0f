/**
 * The remote tools plugin: pi's seven tools (read, bash, edit, write, grep, find, ls) acting on a folder
 * of another machine over SSH, or inside a container, while sessions and credentials stay here. It
 * provides the same ToolContract slots as the local tool plugins; its tools are offered when the run
 * chose `--remote` (HostFlags.remote) or the plugin's `target` setting names one, and the local tools
 * step aside for the same flag — so `pi --remote ...` and a distribution with only this plugin both work.
 * A hook makes the system prompt's working folder the remote one.
 */
import { Type } from "@sinclair/typebox";
import {
  chosenRemote,
  definePlugin,
  HooksContract,
  HostEnvironmentContract,
  readHostEnvironment,
  ToolContract,
  type AgentTool,
} from "pi-host";
import { RemoteCommands, createRemoteBash } from "./remote-bash.js";
import { createRemoteEdit, createRemoteLs, createRemoteRead, createRemoteWrite } from "./remote-file-tools.js";
import type { HostSource } from "./remote-host.js";
import { createRemoteFind, createRemoteGrep } from "./remote-search-tools.js";
import { remotePromptHook } from "./remote-prompt.js";
import { RemoteConnections } from "./remote-setup.js";

export default definePlugin({
  id: "tools-remote",
  version: "1.0.0",
  description: "The seven built-in tools on a remote folder over SSH (or in a container): pi --remote user@host:/path",
  provides: [ToolContract, HooksContract],
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** Where the tools act when the run gives no `--remote`: `user@host[:port]:/path` or `docker:name[:/path]`. */
    target: Type.Optional(Type.String({ minLength: 1 })),
    /** A private key file instead of ~/.ssh/id_ed25519 and ~/.ssh/id_rsa (PI_REMOTE_IDENTITY beats it). */
    identityFile: Type.Optional(Type.String({ minLength: 1 })),
    /** The known_hosts file instead of ~/.ssh/known_hosts (PI_REMOTE_KNOWN_HOSTS beats it). */
    knownHostsFile: Type.Optional(Type.String({ minLength: 1 })),
    /** "auto": the remote's rg and fd when present; "posix": always grep and find. */
    searchPrograms: Type.Union([Type.Literal("auto"), Type.Literal("posix")], { default: "auto" }),
    /** How long to wait for the SSH handshake and authentication. */
    connectTimeoutMs: Type.Number({ minimum: 1, default: 20_000 }),
  }),
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    const connections = new RemoteConnections(ctx.config);
    const commands = new RemoteCommands();
    ctx.onDispose(async () => {
      await commands.stopAll();
      await connections.closeAll();
    }, "stop remote commands and close remote connections");
    const target = (): string | undefined => chosenRemote(host) ?? ctx.config.target;
    const enabled = (): boolean => target() !== undefined;
    // The target is looked up at each call, so the run's `--remote` is honoured (handles bind after setup).
    const source: HostSource = {
      host: () => {
        const chosen = target();
        if (chosen === undefined) throw new Error("Remote tools: no target; run pi --remote user@host:/path");
        return connections.get(chosen).host();
      },
    };
    const tools: AgentTool<any, any>[] = [
      createRemoteRead(source),
      createRemoteBash(source, commands),
      createRemoteEdit(source),
      createRemoteWrite(source),
      createRemoteGrep(source),
      createRemoteFind(source),
      createRemoteLs(source),
    ];
    for (const tool of tools) ctx.provide(ToolContract, { ...tool, enabled }, { key: tool.name });
    ctx.provide(HooksContract, remotePromptHook({ localCwd: () => readHostEnvironment(host)?.cwd, target, source }), {
      key: "remote-cwd",
    });
  },
});
