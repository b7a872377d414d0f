/**
 * `pi --export <session.jsonl> [output]`: writes the session as one self-contained HTML page (or, for
 * an output ending in `.jsonl`, its active branch) and exits, as pi 1.6.0 does: `Exported to: <path>`
 * on success; one `Error: ...` line and exit 1 for a missing or foreign file, with nothing written.
 */
import { exportSession, readSessionForExport } from "../kit/session/export/export-file.js";

/** Runs the export; returns the exit code. */
export function runExport(input: string, output: string | undefined, cwd: string): number {
  try {
    const session = readSessionForExport(input);
    const written = exportSession(session, input, output, cwd);
    process.stdout.write(`Exported to: ${written}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
