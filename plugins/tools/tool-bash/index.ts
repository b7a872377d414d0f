/**
 * The bash tool plugin: provides pi's `bash` tool (ToolContract, key "bash"). Commands run in their own
 * process groups; when this generation retires (reload, disable, shutdown) every running command's
 * group is killed and awaited, so a reload never leaves orphan processes behind.
 */
import { Type } from "@sinclair/typebox";
import { SettingsContract } from "pi-host";
import { ToolContract } from "pi-host";
import { HostEnvironmentContract, localToolEnabled } from "pi-host";
import { definePlugin } from "pi-host";
import { createBashTool } from "./bash-tool.js";
import { RunningCommands } from "./running-commands.js";

export default definePlugin({
  id: "tool-bash",
  version: "1.0.0",
  description: "pi's bash tool: run shell commands in the session's folder",
  provides: [ToolContract],
  requires: [
    { contract: SettingsContract, optional: true },
    { contract: HostEnvironmentContract, optional: true },
  ],
  config: Type.Object({
    /** A shell to use instead of /bin/bash (pi's `shellPath` setting). */
    shellPath: Type.Optional(Type.String({ minLength: 1 })),
    /** Lines run before every command; without it, pi's `shellCommandPrefix` setting (a project's only when trusted). */
    commandPrefix: Type.Optional(Type.String()),
  }),
  setup(ctx) {
    const enabled = localToolEnabled(ctx.use(HostEnvironmentContract));
    const running = new RunningCommands();
    ctx.onDispose(() => running.stopAll(), "stop running bash commands");
    const settings = ctx.use(SettingsContract);
    const commandPrefixFor = async (cwd: string): Promise<string | undefined> => {
      if (!settings.available) return undefined;
      const prefix = (await settings.api.get(cwd)).shellCommandPrefix;
      return typeof prefix === "string" && prefix !== "" ? prefix : undefined;
    };
    ctx.provide(
      ToolContract,
      {
        ...createBashTool({
          running,
          shellPath: ctx.config.shellPath,
          commandPrefix: ctx.config.commandPrefix,
          commandPrefixFor,
        }),
        enabled,
      },
      { key: "bash" },
    );
  },
});
