/**
 * `/share` as pi 1.6.0 does it without Radius: the session as HTML in a secret GitHub gist made by the
 * GitHub CLI (`gh gist create --public=false`), answered with the viewer link and the gist link. The
 * `sessionShareDestination` setting picks the destination; pi-host has no Radius account, so "radius"
 * is pi's error and "auto" means the gist. The child runs through the plugin's spawn, so the kernel
 * owns it.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportOpenSession, type UserBashSpawn } from "pi-host";

/** pi's viewer, which reads a gist by id after `#`; PI_SHARE_VIEWER_URL overrides it. */
const DEFAULT_SHARE_VIEWER_URL = "https://pi.dev/session/";

/** What sharing needs. */
export interface ShareInputs {
  sessionFile: string | undefined;
  leafId: string | null | undefined;
  cwd: string;
  destination: unknown;
  spawn: UserBashSpawn;
  env?: NodeJS.ProcessEnv;
}

/** The answer: one notice, at its level. */
export interface ShareOutcome {
  level: "info" | "error";
  message: string;
}

/** Runs the whole share; never throws (every failure is pi's one-line error). */
export async function shareSession(inputs: ShareInputs): Promise<ShareOutcome> {
  const env = inputs.env ?? process.env;
  if (inputs.destination === "radius")
    return { level: "error", message: "Radius authentication is not configured. Run '/login radius' first." };
  const folder = mkdtempSync(join(tmpdir(), "pi-share-"));
  try {
    const auth = await run(inputs.spawn, ["auth", "status"], inputs.cwd, env);
    if (auth.missing)
      return { level: "error", message: "GitHub CLI (gh) is not installed. Install it from https://cli.github.com/" };
    if (auth.code !== 0) return { level: "error", message: "GitHub CLI is not logged in. Run 'gh auth login' first." };
    let html: string;
    try {
      html = exportOpenSession(inputs.sessionFile, inputs.leafId, join(folder, "session.html"), inputs.cwd);
    } catch (error) {
      return { level: "error", message: `Failed to export session: ${(error as Error).message}` };
    }
    const gist = await run(inputs.spawn, ["gist", "create", "--public=false", html], inputs.cwd, env);
    if (gist.code !== 0)
      return { level: "error", message: `Failed to create gist: ${gist.stderr.trim() || "Unknown error"}` };
    const gistUrl = gist.stdout.trim();
    const gistId = gistUrl.split("/").pop();
    if (!gistId) return { level: "error", message: "Failed to parse gist ID from gh output" };
    const viewer = `${env.PI_SHARE_VIEWER_URL || DEFAULT_SHARE_VIEWER_URL}#${gistId}`;
    return { level: "info", message: `Share URL: ${viewer}\nGist: ${gistUrl}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs `gh` with `args`; `missing` when it is not on PATH. */
function run(
  spawn: UserBashSpawn,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn("gh", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      resolve({ code: null, stdout: "", stderr: (error as Error).message, missing: true });
      return;
    }
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr?.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ code: null, stdout, stderr: stderr || error.message, missing: error.code === "ENOENT" }),
    );
    child.on("close", (code) => resolve({ code, stdout, stderr, missing: false }));
  });
}
