/**
 * `pi session export --jsonl <id|path> [out]` and `pi session import <file.jsonl>`: move sessions
 * between whichever session store the distribution chooses and pi's JSONL files. Both go through the
 * session store contract only, so they work with any store plugin: export opens the session and writes
 * its header and entries as pi's version-3 lines; import opens the file, which a store that keeps
 * sessions elsewhere (in a database) takes in under the same ids.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { SessionStoreContract, type SessionHeader, type SessionSummary } from "../contracts/session.js";
import { composeForCli, type PackagePaths } from "./cli-compose.js";

const USAGE = "usage: pi session export --jsonl <id|path> [out.jsonl] | pi session import <file.jsonl>";

/** Runs one `pi session` subcommand; returns the exit code (2 for bad input). */
export async function runSessionCommand(
  argv: string[],
  where: { agentDir: string; cwd: string; paths: PackagePaths },
): Promise<number> {
  const distributions: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--distribution" && argv[i + 1] !== undefined) distributions.push(argv[++i]!);
    else rest.push(argv[i]!);
  }
  const [command, ...args] = rest;
  const jsonl = args.indexOf("--jsonl");
  if (jsonl !== -1) args.splice(jsonl, 1);
  if (
    !(command === "export" && jsonl !== -1 && args.length >= 1 && args.length <= 2) &&
    !(command === "import" && args.length === 1)
  )
    return fail(USAGE);
  const composed = await composeForCli({ distributions, plugins: [], noPlugins: [] }, {}, where);
  if (typeof composed === "number") return composed;
  const { kernel } = composed;
  try {
    const store = kernel.use(SessionStoreContract);
    if (!store.available)
      return fail(`no plugin provides the session store ("${SessionStoreContract.id}"); enable one in plugins.json`);
    if (command === "import") {
      const opened = await store.api.open(resolve(where.cwd, args[0]!));
      process.stdout.write(`${opened.id}\t${opened.path ?? ""}\n`);
      return 0;
    }
    const all = await store.api.list({});
    const wanted = args[0]!;
    const found = findSession(all, wanted, where.cwd);
    if (found === undefined) return fail(`no session id starts with "${wanted}"; list sessions with "pi -r"`);
    await store.api.open(found.path);
    const info = store.api.current()!;
    const header: SessionHeader = { type: "session", version: 3, id: info.id, timestamp: found.created, cwd: info.cwd };
    if (info.parentSession !== undefined) header.parentSession = info.parentSession;
    const text = [header, ...store.api.entries()].map((line) => `${JSON.stringify(line)}\n`).join("");
    if (args[1] === undefined) process.stdout.write(text);
    else writeFileSync(resolve(where.cwd, args[1]), text, { mode: 0o600, flag: "wx" });
    return 0;
  } catch (error) {
    return fail(`pi session ${command}: ${(error as Error).message.split("\n")[0]}`, 1);
  } finally {
    await kernel.shutdown();
  }
}

/** The session named by a path or an id prefix (this store's listing, newest first). */
function findSession(all: SessionSummary[], wanted: string, cwd: string): SessionSummary | undefined {
  const path = resolve(cwd, wanted);
  return all.find((s) => s.path === path || s.path === wanted) ?? all.find((s) => s.id.startsWith(wanted));
}

function fail(message: string, code = 2): number {
  process.stderr.write(`${message}\n`);
  return code;
}
