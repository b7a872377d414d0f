/**
 * What an eval prints and saves: the results table (one row per run), the checks that did not hold,
 * a pass count per variant (with a doc set, the answer to "does the documentation help"), and the JSON
 * report with every run's checks and numbers.
 */
import type { DocsAs } from "./doc-set.js";
import type { RunResult, Variant } from "./run-task.js";

/** One variant's totals. */
export interface VariantSummary {
  runs: number;
  passed: number;
  failed: number;
  errors: number;
  tokens: number;
  cost: number;
  seconds: number;
}

/** The JSON report's shape, version 1. */
export interface EvalReport {
  version: 1;
  suite: string;
  model: string | undefined;
  docs: { folder: string; files: string[]; as: DocsAs } | undefined;
  runsPerTask: number;
  startedAt: string;
  seconds: number;
  /** Per variant: runs by outcome, and the tokens, cost and seconds they took together. */
  summary: Record<string, VariantSummary>;
  results: RunResult[];
}

/** Builds the report from the finished runs. */
export function buildReport(input: Omit<EvalReport, "version" | "summary">): EvalReport {
  const summary: EvalReport["summary"] = {};
  for (const result of input.results) {
    const row = (summary[result.variant] ??= {
      runs: 0,
      passed: 0,
      failed: 0,
      errors: 0,
      tokens: 0,
      cost: 0,
      seconds: 0,
    });
    row.runs++;
    row.tokens += result.tokens;
    row.cost += result.cost;
    row.seconds += result.seconds;
    if (result.status === "pass") row.passed++;
    else if (result.status === "fail") row.failed++;
    else row.errors++;
  }
  const { results, ...about } = input;
  return { version: 1, ...about, summary, results };
}

const HEADERS = ["task", "variant", "run", "result", "checks", "turns", "tokens", "cost", "time"];

/** The results table, the failures under it and one summary line per variant. */
export function formatReport(report: EvalReport): string {
  const rows = report.results.map((r) => [
    r.task,
    r.variant,
    String(r.run),
    r.status.toUpperCase(),
    `${r.checks.filter((c) => c.passed).length}/${r.checks.length}`,
    String(r.turns),
    String(r.tokens),
    `$${r.cost.toFixed(4)}`,
    `${r.seconds.toFixed(1)}s`,
  ]);
  const numeric = new Set([2, 5, 6, 7, 8]);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [line(HEADERS), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  const problems = report.results.flatMap((r) => {
    const where = `${r.task} (${r.variant}, run ${r.run})`;
    // A run that errored did not finish its work: its checks are in the JSON report, not here.
    const errors = r.status === "error" ? [`  ${where}: error: ${r.error ?? "the run failed"}`] : [];
    const failed =
      r.status === "fail" ? r.checks.filter((c) => !c.passed).map((c) => `  ${where}: ${c.label}: ${c.detail}`) : [];
    const kept = r.folder !== undefined ? [`  ${where}: kept in ${r.folder} (session in ${r.sessionDir})`] : [];
    return [...errors, ...failed, ...kept];
  });
  if (problems.length > 0) out.push("", "Details:", ...problems);
  if (report.runsPerTask > 1) out.push("", "Passes by task:", ...taskLines(report));
  out.push("", ...summaryLines(report));
  return `${out.join("\n")}\n`;
}

/** With several runs of each task: `  add-route: no-docs 1/3, docs 3/3`, one line per task. */
function taskLines(report: EvalReport): string[] {
  const tasks = [...new Set(report.results.map((r) => r.task))];
  return tasks.map((task) => {
    const mine = report.results.filter((r) => r.task === task);
    const variants = [...new Set(mine.map((r) => r.variant))];
    const counts = variants.map((variant) => {
      const runs = mine.filter((r) => r.variant === variant);
      return `${variant} ${runs.filter((r) => r.status === "pass").length}/${runs.length}`;
    });
    return `  ${task}: ${counts.join(", ")}`;
  });
}

/** `docs: 3/3 passed; 1200 tokens, $0.0100, 9.0s` per variant, and with both variants the difference. */
function summaryLines(report: EvalReport): string[] {
  const variants = Object.keys(report.summary) as Variant[];
  const lines = variants.map((variant) => {
    const s = report.summary[variant]!;
    const extra = [s.failed > 0 ? `${s.failed} failed` : "", s.errors > 0 ? `${s.errors} errors` : ""].filter(Boolean);
    const outcome = `${s.passed}/${s.runs} passed${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
    return `${variant}: ${outcome}; ${s.tokens} tokens, $${s.cost.toFixed(4)}, ${s.seconds.toFixed(1)}s`;
  });
  const without = report.summary["no-docs"];
  const withDocs = report.summary.docs;
  if (without !== undefined && withDocs !== undefined) {
    const delta = withDocs.passed - without.passed;
    const verdict =
      delta > 0
        ? `the docs helped (+${delta})`
        : delta < 0
          ? `the docs hurt (${delta})`
          : "the docs made no difference";
    lines.push(`with docs vs without: ${verdict}`);
  }
  return lines;
}
