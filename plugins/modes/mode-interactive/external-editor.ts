/**
 * pi 1.6.0's external editor (Ctrl+G): the prompt goes to a temp `prompt.md`, `$VISUAL` (else `$EDITOR`,
 * else nano) runs on it with the terminal's stdio, and the file is read back — a trailing newline dropped —
 * when it exits 0. Anything else leaves the prompt as it was and says why in one line.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The editor's result: the new text, or a one-line reason the prompt stays unchanged. */
export type ExternalEditResult = { ok: true; content: string } | { ok: false; message: string };

/** The editor command as pi picks it. */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.VISUAL || env.EDITOR || (process.platform === "win32" ? "notepad" : "nano");
}

/** Edits `content` in the external editor; the terminal must already be handed back (cooked, normal screen). */
export async function editExternally(content: string, command = editorCommand()): Promise<ExternalEditResult> {
  const directory = mkdtempSync(join(tmpdir(), "pi-editor-"));
  const file = join(directory, "prompt.md");
  try {
    writeFileSync(file, content, "utf8");
    const [program, ...args] = command.split(" ").filter((part) => part !== "");
    const exit = await new Promise<number | string | null>((resolve) => {
      const child = spawn(program ?? "", [...args, file], { stdio: "inherit" });
      child.on("error", () => resolve(null));
      child.on("close", (code, signal) => resolve(code ?? signal));
    });
    if (exit === null) return { ok: false, message: `Failed to launch external editor: ${command}` };
    if (exit !== 0) {
      const how = typeof exit === "number" ? `code ${exit}` : exit;
      return { ok: false, message: `External editor exited with ${how}; prompt unchanged` };
    }
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return { ok: false, message: "External editor left no file; prompt unchanged" };
    }
    return { ok: true, content: text.replace(/^\uFEFF/, "").replace(/\n$/, "") };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
