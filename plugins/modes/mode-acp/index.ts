/**
 * The ACP mode plugin: `pi --mode acp` speaks the Agent Client Protocol on stdin/stdout, so editors
 * (Zed and others) drive pi-host natively: initialize, new and load session, prompts with streamed message,
 * thought and tool-call updates, permission requests before tool calls that change things, cancel. The
 * official SDK is imported only when the mode runs, so a distribution with this plugin pays nothing for
 * it at start-up. While ACP runs, the plugin's hooks provider turns `beforeToolCall` into the client's
 * permission dialog. Protocol notes and limits: docs/acp.md.
 */
import { Type } from "@sinclair/typebox";
import { SESSION_EVENT, AgentSessionContract, type SessionEvent } from "pi-host";
import { HooksContract } from "pi-host";
import { ModeContract, type Mode } from "pi-host";
import { SessionStoreContract } from "pi-host";
import { definePlugin } from "pi-host";
import { AcpConnection } from "./connection.js";
import { DEFAULT_ASK_PERMISSION } from "./permissions.js";

const VERSION = "1.0.0";

export default definePlugin({
  id: "mode-acp",
  version: VERSION,
  description: "Agent Client Protocol over stdio (pi --mode acp) for editors, on the official SDK",
  provides: [ModeContract, HooksContract],
  requires: [AgentSessionContract, { contract: SessionStoreContract, optional: true }],
  config: Type.Object(
    {
      /** Tools whose calls ask the client for permission first; "*" means every tool, [] none. */
      askPermission: Type.Array(Type.String({ minLength: 1 }), { default: DEFAULT_ASK_PERMISSION }),
    },
    { additionalProperties: false },
  ),
  setup(ctx) {
    const session = ctx.use(AgentSessionContract);
    const store = ctx.use(SessionStoreContract);
    let active: AcpConnection | undefined;

    ctx.on(SESSION_EVENT, (event: SessionEvent) => active?.onSessionEvent(event));

    const mode: Mode = {
      name: "acp",
      async run(input, io) {
        if (active !== undefined) {
          io.stderr.write("pi: acp mode is already running on other streams; run one at a time\n");
          return 1;
        }
        const connection = new AcpConnection(input, io, {
          session,
          store,
          askPermission: ctx.config.askPermission,
          agentInfo: { name: "pi-host", title: "pi", version: VERSION },
        });
        active = connection;
        try {
          return await connection.run();
        } finally {
          active = undefined;
        }
      },
    };
    ctx.provide(ModeContract, mode, { key: "acp" });
    // Consulted on every tool call in any mode; it acts only while an ACP connection runs.
    ctx.provide(
      HooksContract,
      {
        beforeToolCall: async (call, signal) => active?.beforeToolCall(call, signal),
        afterToolCall: async (call) => active?.afterToolCall(call),
      },
      { key: "acp-permissions" },
    );
  },
});
