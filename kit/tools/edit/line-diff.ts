/**
 * The diff an edit reports in `details.diff`, in pi's layout so pi's renderers and session viewers
 * show it unchanged: one line per entry, "+<n> text" for added lines (new numbering), "-<n> text" for
 * removed ones (old numbering), " <n> text" for up to 4 context lines around each change and
 * " <pad> ..." where unchanged lines are skipped. Lines are compared with Myers' O(ND) algorithm.
 */

/** A run of lines that are equal in both versions, or one change region. */
type DiffBlock = { kind: "equal"; lines: string[] } | { kind: "change"; removed: string[]; added: string[] };

/** The rendered diff and the first changed line in the new file (for editor navigation). */
export interface LineDiff {
  diff: string;
  firstChangedLine: number | undefined;
}

/** Beyond this many differences the middle is reported as removed-then-added instead of searched. */
const MAX_EDIT_DISTANCE = 2_000;

/** Renders the difference between two LF texts with `contextLines` of context around each change. */
export function renderLineDiff(oldText: string, newText: string, contextLines = 4): LineDiff {
  const oldLines = toLines(oldText, newText);
  const newLines = toLines(newText, oldText);
  const width = String(Math.max(oldLines.length, newLines.length)).length;
  const number = (n: number) => String(n).padStart(width, " ");
  const skipped = ` ${"".padStart(width, " ")} ...`;
  const output: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let firstChangedLine: number | undefined;

  const blocks = diffBlocks(oldLines, newLines);
  blocks.forEach((block, index) => {
    if (block.kind === "change") {
      firstChangedLine ??= newLine;
      for (const line of block.removed) output.push(`-${number(oldLine++)} ${line}`);
      for (const line of block.added) output.push(`+${number(newLine++)} ${line}`);
      return;
    }
    const afterChange = index > 0;
    const beforeChange = index < blocks.length - 1;
    const lines = block.lines;
    const head = afterChange ? Math.min(contextLines, lines.length) : 0;
    const tail = beforeChange ? Math.min(contextLines, lines.length - head) : 0;
    const context = (line: string) => {
      output.push(` ${number(oldLine)} ${line}`);
      oldLine++;
      newLine++;
    };
    lines.slice(0, head).forEach(context);
    const hidden = lines.length - head - tail;
    if (hidden > 0) {
      if (afterChange || beforeChange) output.push(skipped);
      oldLine += hidden;
      newLine += hidden;
    }
    lines.slice(lines.length - tail).forEach(context);
  });
  return { diff: output.join("\n"), firstChangedLine };
}

/** Splits into lines; a final newline present in both texts adds no empty last line. */
function toLines(text: string, other: string): string[] {
  const lines = text.split("\n");
  if (text.endsWith("\n") && other.endsWith("\n")) lines.pop();
  return lines;
}

/** Alternating equal runs and change regions, from a shortest edit script. */
function diffBlocks(a: string[], b: string[]): DiffBlock[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;

  const blocks: DiffBlock[] = [];
  const pushEqual = (line: string) => {
    const last = blocks.at(-1);
    if (last?.kind === "equal") last.lines.push(line);
    else blocks.push({ kind: "equal", lines: [line] });
  };
  const pushChange = (side: "removed" | "added", line: string) => {
    const last = blocks.at(-1);
    if (last?.kind === "change") last[side].push(line);
    else
      blocks.push({ kind: "change", removed: side === "removed" ? [line] : [], added: side === "added" ? [line] : [] });
  };

  a.slice(0, prefix).forEach(pushEqual);
  const middleA = a.slice(prefix, a.length - suffix);
  const middleB = b.slice(prefix, b.length - suffix);
  for (const step of editScript(middleA, middleB)) {
    if (step.kind === "added") pushChange("added", middleB[step.newIndex]);
    else if (step.kind === "removed") pushChange("removed", middleA[step.oldIndex]);
    else pushEqual(middleA[step.oldIndex]);
  }
  a.slice(a.length - suffix).forEach(pushEqual);
  return blocks;
}

type Step = { kind: "equal" | "removed"; oldIndex: number } | { kind: "added"; newIndex: number };

/**
 * Myers' greedy shortest edit script from `a` to `b`. Each round d keeps the furthest x reached on
 * every diagonal k = x - y; the rounds are saved (2d + 3 numbers each) to walk back from the end.
 */
function editScript(a: string[], b: string[]): Step[] {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const furthest = new Int32Array(2 * offset + 1);
  const rounds: Int32Array[] = [];
  let distance = -1;

  for (let d = 0; d <= Math.min(n + m, MAX_EDIT_DISTANCE) && distance < 0; d++) {
    rounds.push(furthest.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && furthest[offset + k - 1] < furthest[offset + k + 1]);
      let x = down ? furthest[offset + k + 1] : furthest[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      furthest[offset + k] = x;
      if (x >= n && y >= m) {
        distance = d;
        break;
      }
    }
  }
  if (distance < 0) {
    return [
      ...a.map((_, oldIndex): Step => ({ kind: "removed", oldIndex })),
      ...b.map((_, newIndex): Step => ({ kind: "added", newIndex })),
    ];
  }

  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = distance; d >= 0; d--) {
    const before = rounds[d];
    const at = (k: number) => before[k + d + 1];
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
      steps.push({ kind: "equal", oldIndex: x });
    }
    if (d === 0) break;
    if (x === previousX) steps.push({ kind: "added", newIndex: previousY });
    else steps.push({ kind: "removed", oldIndex: previousX });
    x = previousX;
    y = previousY;
  }
  return steps.reverse();
}
