/**
 * The eval plugin: `pi eval <suite>`, behaviour evaluations of the agent (docs/eval.md). Each run of a
 * task spawns this very `pi` in JSON mode in a fresh copy of the task's fixture, so it is the agent a
 * user's `pi -p` is — same distribution, settings, models and keys — and a run cannot leak state into
 * the next. Setup only declares the command; the runner is imported when `pi eval` runs.
 */
import { Type } from "@sinclair/typebox";
import { CliCommandContract, definePlugin } from "pi-host";
import type { PiLauncher } from "./run-task.js";

export default definePlugin({
  id: "eval",
  version: "1.0.0",
  description: "pi eval <suite>: run behaviour evaluations (tasks, fixtures, checks) through the agent",
  provides: [CliCommandContract],
  config: Type.Object({
    /**
     * The program and leading arguments that start pi for a run, e.g. `["pi"]`; default this process's
     * own Node and CLI script, so the runs use the pi that runs `pi eval`.
     */
    command: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
  }),
  setup(ctx) {
    const { command } = ctx.config;
    ctx.provide(
      CliCommandContract,
      {
        name: "eval",
        description: "Run behaviour evaluations of the agent: pi eval <suite> [--model] [--docs] [--runs] [--json]",
        run: async (args, io) => (await import("./eval-cli.js")).runEvalCli(args, io, launcher(command)),
      },
      { key: "eval" },
    );
  },
});

/** The configured command, or this process's Node with its flags and the CLI script it runs. */
function launcher(command: string[] | undefined): PiLauncher {
  if (command !== undefined) return { command: command[0]!, args: command.slice(1) };
  const script = process.argv[1];
  if (script === undefined) throw new Error("pi eval: cannot tell which pi runs; set the eval plugin's `command`");
  // Node's flags carry over (a loader, a memory limit), except a debugger's, whose port only one process can hold.
  const flags = process.execArgv.filter((flag) => !/^--(inspect|debug-port)/.test(flag));
  return { command: process.execPath, args: [...flags, script] };
}
