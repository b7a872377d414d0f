/**
 * `pi --help` lists every subcommand (pi 1.6.0's help has a Commands section; pi-host's did not list the
 * package and plugin commands), and each listed command answers its own `--help`.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { helpText } from "../../hosts/cli-flags.js";
import { PI_BIN } from "../e2e/run-pi.js";

const COMMANDS = [
  "install",
  "remove",
  "uninstall",
  "update",
  "list",
  "config",
  "auth",
  "mcp",
  "plugins",
  "plugin",
  "trust",
  "eval",
];

describe("pi --help: commands", () => {
  const commands = helpText().slice(helpText().indexOf("\nCommands:\n"), helpText().indexOf("\nMode:"));

  it("lists every subcommand", () => {
    for (const command of COMMANDS) expect(commands).toMatch(new RegExp(`^  pi ${command}\\b`, "m"));
  });

  it("each package and plugin command answers --help with its usage, exit 0", () => {
    for (const command of [
      "install",
      "remove",
      "uninstall",
      "update",
      "list",
      "config",
      "auth",
      "mcp",
      "plugin",
      "trust",
      "eval",
    ]) {
      const run = spawnSync(process.execPath, [PI_BIN, command, "--help"], { encoding: "utf8" });
      expect(run.status, command).toBe(0);
      expect(run.stdout, command).toMatch(/^Usage:/);
    }
  });
});
