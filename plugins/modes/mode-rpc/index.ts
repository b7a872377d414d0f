/**
 * The RPC mode plugin: `pi --mode rpc`, pi's headless JSON protocol over stdin/stdout (commands in;
 * responses, session events and extension UI requests out; one JSON record per LF-terminated line).
 * It drives `agent/session` and, while it runs, is the `ui` other plugins reach the user through.
 * Protocol notes and our additions (`get_entries`, `get_tree`, delta events): docs/rpc.md.
 */
import { SESSION_EVENT, AgentSessionContract, type SessionEvent } from "pi-host";
import { ModeContract, type Mode } from "pi-host";
import { CommandContract, HooksContract, ResourcesContract } from "pi-host";
import { SessionStoreContract } from "pi-host";
import { UiContract } from "pi-host";
import { definePlugin, ownedSpawn } from "pi-host";
import { RpcConnection } from "./connection.js";
import { RpcUserInterface } from "./rpc-ui.js";

export default definePlugin({
  id: "mode-rpc",
  version: "1.0.0",
  description: "pi's RPC mode: JSON commands on stdin; responses, events and UI requests on stdout",
  provides: [ModeContract, UiContract],
  requires: [
    AgentSessionContract,
    { contract: SessionStoreContract, optional: true },
    { contract: ResourcesContract, optional: true },
    // Hooks list the slash commands they handle (extension commands, /mcp) for get_commands.
    { contract: HooksContract, optional: true },
    // The plugins' slash commands (/llama ...), listed by get_commands too.
    { contract: CommandContract, optional: true },
  ],
  setup(ctx) {
    const session = ctx.use(AgentSessionContract);
    const store = ctx.use(SessionStoreContract);
    const resources = ctx.useAll(ResourcesContract);
    const hooks = ctx.useAll(HooksContract);
    const commands = ctx.useAll(CommandContract);
    const ui = new RpcUserInterface();
    let active: RpcConnection | undefined;

    ctx.on(SESSION_EVENT, (event: SessionEvent) => active?.onSessionEvent(event));
    // Retiring this generation settles every open dialog with its default and clears its timers.
    ctx.onDispose(() => ui.detach(), "settle open UI dialogs");

    const mode: Mode = {
      name: "rpc",
      async run(input, io) {
        if (active !== undefined) {
          io.stderr.write("pi: rpc mode is already running on other streams; run one at a time\n");
          return 1;
        }
        const connection = new RpcConnection(input, io, {
          session,
          store,
          resources,
          hooks,
          commands,
          ui,
          spawn: (command, args, options) => ownedSpawn(ctx, command, args, options),
          publish: (event) => ctx.emit(SESSION_EVENT, event),
        });
        active = connection;
        try {
          return await connection.run();
        } finally {
          active = undefined;
        }
      },
    };
    ctx.provide(ModeContract, mode, { key: "rpc" });
    ctx.provide(UiContract, ui, { key: "rpc" });
  },
});
