/**
 * The text of each system prompt section, as pure functions of their inputs, in the shape pi's prompt
 * has (so models tuned on pi behave the same): the tools with one-line descriptions and their
 * guidelines, the project context files each under its path, the skills as an <available_skills> list
 * per the Agent Skills integration guide, and the date and working folder last.
 */
import type { PromptInput } from "pi-host";
import type { ContextFile } from "./context-files.js";
import type { LoadedSkill } from "./skills.js";

/** Section numbers: sections of all sources are joined in ascending order. */
export const SECTION_ORDER = { preamble: 10, tools: 20, append: 30, context: 40, skills: 50, environment: 60 } as const;

const EXPLORATION_TOOLS = ["grep", "find", "ls"];

/** Section 20: the active tools, one line each, then the guidelines that apply to them. */
export function toolsSectionText(tools: PromptInput["tools"]): string {
  const names = new Set(tools.map((t) => t.name));
  const list = tools.length === 0 ? "(none)" : tools.map((t) => `- ${t.name}: ${firstLine(t.description)}`).join("\n");
  const guidelines: string[] = [];
  const add = (line: string): void => {
    const text = line.trim();
    if (text !== "" && !guidelines.includes(text)) guidelines.push(text);
  };
  if (names.has("bash")) {
    if (EXPLORATION_TOOLS.some((name) => names.has(name)))
      add("Prefer the grep, find and ls tools to bash for exploring files: they are faster and respect .gitignore.");
    else add("Use bash for file operations such as ls, rg and find.");
  }
  for (const tool of tools) for (const guideline of tool.guidelines ?? []) add(guideline);
  let text = `Available tools:\n${list}\n\nOther tools may also be available, depending on the project.`;
  if (guidelines.length > 0) text += `\n\nTool guidelines:\n${guidelines.map((g) => `- ${g}`).join("\n")}`;
  return text;
}

/** The heading that opens section 40. */
export const CONTEXT_HEADING =
  "# Project Context\n\nInstructions and conventions for this project, from its context files:";

/** One context file of section 40, under its path. */
export function contextFileText(file: ContextFile): string {
  return `## ${file.path}\n\n${file.content.trim()}`;
}

/**
 * Section 50: name, description and location of each skill the model may use, and how to use one.
 * Empty when no skill qualifies (so the section is left out).
 */
export function skillsSectionText(skills: LoadedSkill[]): string {
  const listed = skills.filter((s) => s.disableModelInvocation !== true);
  if (listed.length === 0) return "";
  const entries = listed.map((s) =>
    [
      "  <skill>",
      `    <name>${escapeXml(s.name)}</name>`,
      `    <description>${escapeXml(s.description)}</description>`,
      `    <location>${escapeXml(s.path)}</location>`,
      "  </skill>",
    ].join("\n"),
  );
  return [
    "The skills below give specialised instructions for particular tasks.",
    "When a task matches a skill's description, use the read tool to load its file before you start, then follow it.",
    "Paths inside a skill file are relative to the skill's folder (the folder holding the file); turn them into absolute paths when you use them in tool calls.",
    "",
    "<available_skills>",
    ...entries,
    "</available_skills>",
  ].join("\n");
}

/** Section 60: today's local date and the working folder (with forward slashes, as pi writes it). */
export function environmentSectionText(cwd: string, now: Date): string {
  const date = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  return `Current date: ${date}\nCurrent working directory: ${cwd.replace(/\\/g, "/")}`;
}

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
