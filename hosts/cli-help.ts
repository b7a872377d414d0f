/**
 * `pi --help`: usage, commands, every flag of the table by group, distribution layers, environment.
 */
import { FLAGS } from "./cli-flag-table.js";

/** The help text: usage, commands, every flag of the table by group, distribution layers, environment. */
export function helpText(): string {
  const rows = FLAGS.map((f) => ({
    group: f.group,
    left: [...(f.short ?? []), `--${f.name}`].join(", ") + (f.value ? ` ${f.value}` : ""),
    help: f.help,
  }));
  const width = Math.max(...rows.map((r) => r.left.length)) + 2;
  const groups = [...new Set(rows.map((r) => r.group))];
  const flagText = groups
    .map(
      (group) =>
        `${group}:\n${rows
          .filter((r) => r.group === group)
          .map((r) => `  ${r.left.padEnd(width)}${r.help}`)
          .join("\n")}`,
    )
    .join("\n\n");
  return `pi — a terminal coding agent built as a plugin host

Usage:
  pi [options] [@files...] [messages...]

Commands:
  pi install <source> [-l]     Install a package (npm:, git:, URL or path) and add it to settings
  pi remove <source> [-l]      Remove a package from settings
  pi uninstall <source> [-l]   Alias for remove
  pi update [source|self|pi]   Update pi, installed packages (--extensions, --all), or the model
                               catalog (--models)
  pi list                      List installed packages from settings
  pi config [-l]               Open TUI to enable/disable resources (Tab switches scope)
  pi auth <command>            Log in or out, print credentials, or check provider readiness
  pi mcp <command>             Manage MCP servers: add, remove, list, log in and out
  pi plugins [--json]          List the distribution's plugins: id, version, status, generation,
                               provided contracts and source
  pi plugin new <name>         Write a new plugin from a template (--dir <folder>)
  pi plugin eject <id>         Copy a built-in plugin into your plugins folder to edit it
  pi trust [dir] [--no]        Trust a project folder (default: the current one) so its .pi
                               settings, extensions, skills, prompts, plugins and packages
                               load; --no saves "do not trust" (-a/--approve: one run only)
  pi eval <suite> [options]    Run a suite of behaviour evaluations through the agent and print
                               a results table (--model, --docs <folder>, --runs, --json)
  pi <command> --help          Show help for install/remove/uninstall/update/list/config/auth/mcp/
                               plugin/trust/eval

Mode: --mode rpc or acp > --mode json > print (-p, --mode text, or stdin/stdout not a terminal) > interactive.
Piped stdin and @file arguments join the first message (text files as <file name="...">...</file>,
images attached).

${flagText}

Distribution layers, later wins, merged by plugin id:
  the package's plugins.json < ~/.pi/agent/plugins.json < trusted .pi/plugins.json
  < --distribution < --plugin / --no-plugin

Environment:
  PI_CODING_AGENT_DIR           Agent folder (default ~/.pi/agent): plugins.json, models.json,
                                auth.json, settings.json, sessions/
  PI_CODING_AGENT_SESSION_DIR   Session folder; --session-dir wins
  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...   API keys

Examples:
  pi -p "List all .ts files in src/"
  cat README.md | pi -p "Summarize this text"
  pi -p @screenshot.png "What's in this image?"
  pi --mode json --model openai/gpt-4.1 "Review the diff" | jq -c 'select(.type == "message_end")'
  pi --tools read,grep,find,ls -p "Review the code"
`;
}
