/**
 * The Agent Skills rules for a skill's frontmatter, as pi documents them (docs/skills.md): a name of
 * 1-64 lowercase letters, digits and single hyphens, not starting or ending with one, equal to the
 * folder holding SKILL.md; a description of 1-1024 characters. pi loads rule-breaking skills with a
 * warning; we skip them with the reason, so what the model is told about always follows the standard.
 */

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;

/**
 * Why `name` is not a valid skill name for a skill whose folder (or, for a single-file skill, file
 * name without `.md`) is `expected`; an empty list when it is valid.
 */
export function skillNameProblems(name: unknown, expected: string): string[] {
  if (typeof name !== "string" || name === "") return ["name must be a non-empty string"];
  const problems: string[] = [];
  if (name.length > MAX_NAME_LENGTH) problems.push(`name exceeds ${MAX_NAME_LENGTH} characters (${name.length})`);
  if (!/^[a-z0-9-]+$/.test(name)) problems.push(`name "${name}" may contain only lowercase a-z, 0-9 and hyphens`);
  if (name.startsWith("-") || name.endsWith("-")) problems.push(`name "${name}" must not start or end with a hyphen`);
  if (name.includes("--")) problems.push(`name "${name}" must not contain consecutive hyphens`);
  if (name !== expected) problems.push(`name "${name}" does not match its folder "${expected}"`);
  return problems;
}

/** Why `description` is not a valid skill description; an empty list when it is valid. */
export function skillDescriptionProblems(description: unknown): string[] {
  if (
    description === undefined ||
    description === null ||
    (typeof description === "string" && description.trim() === "")
  ) {
    return ["description is required"];
  }
  if (typeof description !== "string") return ["description must be text"];
  if (description.length > MAX_DESCRIPTION_LENGTH)
    return [`description exceeds ${MAX_DESCRIPTION_LENGTH} characters (${description.length})`];
  return [];
}
