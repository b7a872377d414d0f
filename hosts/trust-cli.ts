/**
 * `pi trust [dir] [--no]`: saves a project-trust decision in `<agentDir>/trust.json` (the file pi 1.6.0
 * shares). A failed save (a full disk) prints one line, exits 1, and leaves the old file and no
 * temporary file behind.
 */
import { resolve } from "node:path";
import { nodeTrustFileAccess, saveTrustDecision, type TrustFileAccess } from "./trust.js";

/** `pi trust --help`. */
const TRUST_HELP = `Usage:
  pi trust [dir] [--no]

Save a project-trust decision for a folder (default: the current one) in the agent folder's trust.json.
A trusted project's .pi settings, extensions, skills, prompts, plugins and packages load; --no saves
"do not trust", so they stay skipped without asking. pi --approve trusts a project for one run only.
`;

/** Where the command runs and writes. */
export interface TrustCommandPlace {
  agentDir: string;
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  files?: TrustFileAccess;
}

/** Runs the command with the words after `trust`; resolves with the exit code. */
export async function runTrustCommand(args: string[], place: TrustCommandPlace): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    place.stdout.write(TRUST_HELP);
    return 0;
  }
  const refuse = args.includes("--no");
  const dirs = args.filter((a) => a !== "--no");
  const unknown = dirs.find((a) => a.startsWith("-"));
  if (unknown !== undefined || dirs.length > 1) {
    place.stderr.write(
      `pi: pi trust takes one folder and --no; ${unknown !== undefined ? `unknown flag ${unknown}` : `got ${dirs.length} folders`}\n`,
    );
    return 2;
  }
  const dir = resolve(place.cwd, dirs[0] ?? ".");
  try {
    const saved = await saveTrustDecision(place.agentDir, dir, !refuse, place.files ?? nodeTrustFileAccess);
    place.stdout.write(
      refuse
        ? `not trusting ${saved}: its .pi files and packages stay skipped (saved in trust.json)\n`
        : `trusted ${saved}: its .pi settings, extensions, skills, prompts, plugins and packages now load\n`,
    );
    return 0;
  } catch (error) {
    place.stderr.write(`pi: could not save the trust decision for ${dir}: ${(error as Error).message}\n`);
    return 1;
  }
}
