/**
 * The only way this store adds to a session file. The descriptor is opened with O_APPEND ("a"), and each
 * call hands the kernel one buffer holding whole lines, so every write lands at the end of the file even
 * when another process appends too, and lines never interleave. A write that fails part-way (a full
 * disk) is cut back off the file before the error is passed on, so the file always ends on a line
 * boundary and the next append cannot glue itself onto half a line. Files are created 0600 and their
 * folders 0700: they hold prompts and tool output.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** The file mode of every session file this store creates (owner read/write only). */
export const SESSION_FILE_MODE = 0o600;
/** The mode of every session folder this store creates (owner only). */
export const SESSION_DIR_MODE = 0o700;

/**
 * The system calls an append makes, so a test can inject a failing disk (ENOSPC part-way through a
 * write) without filling a real one.
 */
export interface AppendIo {
  write(fd: number, buffer: Buffer, offset: number, length: number): number;
}

/** Node's own calls. */
export const nodeAppendIo: AppendIo = {
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
};

/** Where the file stands compared with the descriptor this object holds. */
export type FilePresence = "present" | "missing";

/** An append-only session file; the descriptor opens on the first write and stays open until `close`. */
export class AppendFile {
  private fd: number | undefined = undefined;
  private openedIno: number | undefined = undefined;
  private openedDev: number | undefined = undefined;
  /**
   * A failed write left bytes on the file that could not be cut back: the next write must start with a
   * newline so that half a line stays a line of its own (the loader sets it aside) instead of poisoning
   * the next entry.
   */
  private leftPartialLine = false;

  constructor(
    readonly path: string,
    private readonly io: AppendIo = nodeAppendIo,
  ) {}

  /**
   * Appends whole lines (each must end with "\n"). On failure nothing of this call stays on the file
   * (the written part is truncated away, or, when even that fails, the next append starts a new line),
   * and the error is thrown.
   */
  append(text: string): void {
    const prefix = this.leftPartialLine ? "\n" : "";
    const buffer = Buffer.from(prefix + text, "utf8");
    const fd = this.open();
    let written = 0;
    try {
      while (written < buffer.length) {
        const count = this.io.write(fd, buffer, written, buffer.length - written);
        if (count <= 0) throw Object.assign(new Error("the disk accepted no bytes"), { code: "EIO" });
        written += count;
      }
    } catch (error) {
      if (written > 0) this.cutBack(fd, written);
      throw error;
    }
    this.leftPartialLine = false;
  }

  /**
   * Whether the file is still where it was opened. "missing" when it was deleted (or never created and
   * not yet opened); a file replaced under the same name (another program's atomic rewrite) makes this
   * object drop its descriptor, so the next append goes to the file now at the path.
   */
  presence(): FilePresence {
    let stat: { ino: number; dev: number };
    try {
      stat = statSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
      return "present"; // Unknown trouble (permissions, I/O): the append itself will report it.
    }
    if (this.fd !== undefined && (stat.ino !== this.openedIno || stat.dev !== this.openedDev)) this.close();
    return "present";
  }

  /** Forces what was appended onto the disk (fsync); a no-op before the first append. Throws what fsync threw. */
  sync(): void {
    if (this.fd !== undefined) fsyncSync(this.fd);
  }

  /** Closes the descriptor; a later append reopens it. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    this.openedIno = undefined;
    this.openedDev = undefined;
    try {
      closeSync(fd);
    } catch {
      // Closing a descriptor whose file is gone cannot lose anything more.
    }
  }

  private open(): number {
    if (this.fd === undefined) {
      mkdirSync(dirname(this.path), { recursive: true, mode: SESSION_DIR_MODE });
      const fd = openSync(this.path, "a", SESSION_FILE_MODE);
      const stat = fstatSync(fd);
      this.fd = fd;
      this.openedIno = stat.ino;
      this.openedDev = stat.dev;
    }
    return this.fd;
  }

  /** Removes the last `written` bytes (this call's partial write) from the end of the file. */
  private cutBack(fd: number, written: number): void {
    try {
      const size = fstatSync(fd).size;
      ftruncateSync(fd, Math.max(0, size - written));
    } catch {
      this.leftPartialLine = true;
    }
  }
}
