/**
 * A small terminal emulator for tests: a screen of cells plus scrollback that understands exactly the
 * sequences a well-behaved renderer may send (text with wide characters, CR, LF, cursor movement CSI
 * A/B/C/D/G/H, erase J/K, insert/delete lines L/M, a scroll region (DECSTBM r) scrolled with CSI S, SGR,
 * private modes: the alternate screen 1049, SGR mouse reporting). Anything else throws, so a test notices a
 * renderer that emits something it should not. Colours are dropped: tests compare text.
 */
import stringWidth from "string-width";

const segmenter = new Intl.Segmenter();

export class VirtualTerminal {
  screen: string[][];
  scrollback: string[] = [];
  row = 0;
  col = 0;
  /** The cursor sits past the last column: the next printable character wraps first. */
  private pendingWrap = false;
  cursorVisible = true;
  bytes = 0;
  /** Set between CSI ? 2026 h and l. */
  syncDepth = 0;
  /** Synchronized-output frames seen. */
  frames = 0;
  /** On the alternate screen (CSI ? 1049 h); the normal screen and its scrollback wait in `saved`. */
  alternate = false;
  /** Mouse reporting modes turned on (1000, 1002, 1006). */
  readonly mouseModes = new Set<string>();
  private saved: { screen: string[][]; scrollback: string[]; row: number; col: number } | undefined = undefined;
  /** The scroll region's rows [top, bottom], 0-based inclusive. */
  private region: [number, number] | undefined = undefined;

  constructor(
    public width: number,
    public height: number,
  ) {
    this.screen = Array.from({ length: height }, () => this.blankRow());
  }

  private blankRow(): string[] {
    return Array.from({ length: this.width }, () => " ");
  }

  /** What the screen shows, one string per row, trailing spaces trimmed. */
  lines(): string[] {
    return this.screen.map((row) =>
      row
        .join("")
        .replace(/\u0000/g, "")
        .trimEnd(),
    );
  }

  /** Scrollback and screen together, as a user scrolling up would read them. */
  allLines(): string[] {
    return [...this.scrollback, ...this.lines()];
  }

  /** Changes the size; rows keep their content (cut or padded), as tmux does without reflow. */
  resize(width: number, height: number): void {
    const rows = this.screen.map((r) =>
      r.length >= width ? r.slice(0, width) : [...r, ...Array.from({ length: width - r.length }, () => " ")],
    );
    this.width = width;
    while (rows.length > height) {
      // Rows above the cursor go to scrollback first.
      if (this.row > 0) {
        this.scrollback.push(rows.shift()!.join("").trimEnd());
        this.row--;
      } else rows.pop();
    }
    while (rows.length < height) rows.push(this.blankRow());
    this.screen = rows;
    this.height = height;
    this.col = Math.min(this.col, width - 1);
  }

  /** The last write, for a test that wants to see what was sent. */
  lastWrite = "";

  write(data: string): void {
    this.bytes += Buffer.byteLength(data);
    this.lastWrite = data;
    let i = 0;
    while (i < data.length) {
      const ch = data[i]!;
      if (ch === "\x1b") {
        i = this.escape(data, i);
        continue;
      }
      if (ch === "\r") {
        this.col = 0;
        this.pendingWrap = false;
        i++;
        continue;
      }
      if (ch === "\n") {
        this.lineFeed();
        this.pendingWrap = false;
        i++;
        continue;
      }
      if (ch < " ") throw new Error(`unexpected control character 0x${ch.charCodeAt(0).toString(16)}`);
      // Take the run of printable text up to the next control character.
      let end = i;
      while (end < data.length && data[end]! >= " " && data[end] !== "\x1b") end++;
      for (const { segment } of segmenter.segment(data.slice(i, end))) this.print(segment);
      i = end;
    }
  }

  private print(segment: string): void {
    const w = Math.max(1, stringWidth(segment));
    if (this.pendingWrap || this.col + w > this.width) {
      this.col = 0;
      this.lineFeed();
      this.pendingWrap = false;
    }
    const row = this.screen[this.row]!;
    // Overwriting half of a wide character blanks its other half.
    if (row[this.col] === "\u0000" && this.col > 0) row[this.col - 1] = " ";
    row[this.col] = segment;
    if (w === 2) row[this.col + 1] = "\u0000";
    if (row[this.col + w] === "\u0000") row[this.col + w] = " ";
    this.col += w;
    if (this.col >= this.width) {
      this.col = this.width - 1;
      this.pendingWrap = true;
    }
  }

  private lineFeed(): void {
    if (this.region !== undefined && this.row === this.region[1]) {
      this.scrollRegion(1);
      return;
    }
    if (this.alternate && this.row === this.height - 1) {
      // The alternate screen has no scrollback.
      this.screen.shift();
      this.screen.push(this.blankRow());
      return;
    }
    if (this.row === this.height - 1) {
      this.scrollback.push(
        this.screen
          .shift()!
          .join("")
          .replace(/\u0000/g, "")
          .trimEnd(),
      );
      this.screen.push(this.blankRow());
    } else this.row++;
  }

  /** The window title last set with OSC 0. */
  title = "";
  /** Light/dark reports asked for (mode 2031). */
  schemeReports = false;
  /** The hyperlink open now (OSC 8), "" when none; `links` every URL opened. */
  link = "";
  links: string[] = [];

  private escape(data: string, start: number): number {
    if (data.startsWith("\x1b]8;", start)) {
      // An OSC 8 hyperlink mark (ended by ST): it takes no cell; the open link is recorded.
      const end = data.indexOf("\x1b\\", start);
      if (end < 0) throw new Error("unterminated OSC 8 sequence");
      const url = data
        .slice(start + 4, end)
        .split(";")
        .slice(1)
        .join(";");
      this.link = url;
      if (url !== "") this.links.push(url);
      return end + 2;
    }
    if (data[start + 1] === "]") {
      // Ended by BEL, or by ST (ESC \\) as the program status (OSC 7501) is.
      const bel = data.indexOf("\x07", start);
      const st = data.indexOf("\x1b\\", start + 2);
      const end = bel >= 0 && (st < 0 || bel < st) ? bel : st;
      if (end < 0) throw new Error("unterminated OSC sequence");
      const [code, ...text] = data.slice(start + 2, end).split(";");
      if (code === "7501") return end === st ? end + 2 : end + 1;
      if (code !== "0") throw new Error(`unexpected OSC ${code}`);
      this.title = text.join(";");
      return end === st ? end + 2 : end + 1;
    }
    if (data[start + 1] !== "[") throw new Error(`unexpected escape ${JSON.stringify(data.slice(start, start + 4))}`);
    let end = start + 2;
    while (end < data.length && !/[@-~]/.test(data[end]!)) end++;
    const params = data.slice(start + 2, end);
    const final = data[end]!;
    const n = (fallback: number): number => (params === "" ? fallback : Number.parseInt(params, 10));
    this.pendingWrap = final === "m" ? this.pendingWrap : false;
    if (params.startsWith("?")) {
      if (params === "?2026") {
        this.syncDepth += final === "h" ? 1 : -1;
        if (final === "h") this.frames++;
      } else if (params === "?25") this.cursorVisible = final === "h";
      else if (params === "?1049") this.switchScreen(final === "h");
      else if (params === "?1000" || params === "?1002" || params === "?1006") {
        if (final === "h") this.mouseModes.add(params);
        else this.mouseModes.delete(params);
      } else if (params === "?2031") this.schemeReports = final === "h";
      else if (params !== "?2004") throw new Error(`unexpected private mode ${params}${final}`);
      return end + 1;
    }
    switch (final) {
      case "m":
        break;
      case "A":
        this.row = Math.max(0, this.row - n(1));
        break;
      case "B":
        this.row = Math.min(this.height - 1, this.row + n(1));
        break;
      case "C":
        this.col = Math.min(this.width - 1, this.col + n(1));
        break;
      case "D":
        this.col = Math.max(0, this.col - n(1));
        break;
      case "G":
        this.col = Math.min(this.width - 1, n(1) - 1);
        break;
      case "H": {
        const [r, c] = params.split(";").map((p) => Number.parseInt(p || "1", 10));
        this.row = Math.min(this.height - 1, (r ?? 1) - 1);
        this.col = Math.min(this.width - 1, (c ?? 1) - 1);
        break;
      }
      case "J":
        if (params === "" || params === "0") {
          this.screen[this.row]!.fill(" ", this.col);
          for (let r = this.row + 1; r < this.height; r++) this.screen[r] = this.blankRow();
        } else if (params === "2") this.screen = Array.from({ length: this.height }, () => this.blankRow());
        else if (params === "3") this.scrollback = [];
        else throw new Error(`unexpected erase ${params}J`);
        break;
      case "K":
        if (params === "2") this.screen[this.row] = this.blankRow();
        else if (params === "" || params === "0") this.screen[this.row]!.fill(" ", this.col);
        else throw new Error(`unexpected erase ${params}K`);
        break;
      case "L": {
        // Insert lines at the cursor row; rows pushed past the bottom are lost (not scrolled back).
        const k = Math.min(n(1), this.height - this.row);
        this.screen.splice(this.height - k, k);
        this.screen.splice(this.row, 0, ...Array.from({ length: k }, () => this.blankRow()));
        this.col = 0;
        break;
      }
      case "M": {
        const k = Math.min(n(1), this.height - this.row);
        this.screen.splice(this.row, k);
        for (let i = 0; i < k; i++) this.screen.push(this.blankRow());
        this.col = 0;
        break;
      }
      case "r": {
        const [top, bottom] = params.split(";").map((p) => Number.parseInt(p, 10));
        this.region =
          params === "" || (top === 1 && bottom === this.height)
            ? undefined
            : [(top ?? 1) - 1, Math.min(this.height, bottom ?? this.height) - 1];
        this.row = 0;
        this.col = 0;
        break;
      }
      case "S":
        this.scrollRegion(n(1));
        break;
      default:
        throw new Error(`unexpected sequence CSI ${params}${final}`);
    }
    return end + 1;
  }

  /** Scrolls the region (or the whole screen) up by `count` rows; nothing goes to scrollback. */
  private scrollRegion(count: number): void {
    const [top, bottom] = this.region ?? [0, this.height - 1];
    for (let i = 0; i < count; i++) {
      this.screen.splice(top, 1);
      this.screen.splice(bottom, 0, this.blankRow());
    }
  }

  private switchScreen(on: boolean): void {
    if (on === this.alternate) return;
    if (on) {
      this.saved = { screen: this.screen, scrollback: this.scrollback, row: this.row, col: this.col };
      this.screen = Array.from({ length: this.height }, () => this.blankRow());
      this.scrollback = [];
    } else if (this.saved !== undefined) {
      this.screen = this.saved.screen;
      this.scrollback = this.saved.scrollback;
      this.row = this.saved.row;
      this.col = this.saved.col;
      this.saved = undefined;
    }
    this.alternate = on;
  }
}
