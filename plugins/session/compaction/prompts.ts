/**
 * The summarizer's prompts. Every summary has the same six sections (pi's format), so a model picking
 * up a compacted or branched session always finds the goal, the rules, the progress, the decisions,
 * the next steps and the facts it needs in the same places.
 */

/** Keeps the summarizer from answering the conversation instead of summarizing it. */
export const SUMMARY_SYSTEM_PROMPT = `You write context summaries. You are given a conversation between a user and an AI coding assistant, and you produce a structured summary of it in exactly the format you are asked for.

Never continue the conversation and never answer questions asked in it. Output the structured summary and nothing else.`;

const CLOSING_RULE =
  "Be brief in every section. Keep file paths, function names and error messages exactly as written.";

/** The six-section format, with what belongs in each section for a first summary. */
const NEW_SUMMARY_FORMAT = `## Goal
[What the user wants to achieve; list several goals if the session moved between tasks.]

## Constraints & Preferences
- [Requirements, limits and preferences the user stated]
- [Write "(none)" when there are none]

## Progress
### Done
- [x] [Finished tasks and changes]

### In Progress
- [ ] [Work under way]

### Blocked
- [What stops progress, if anything]

## Key Decisions
- **[Decision]**: [Why it was made, in a few words]

## Next Steps
1. [What to do next, in order]

## Critical Context
- [Data, examples or references needed to carry on]
- [Write "(none)" when nothing applies]`;

/** The same six sections, with how to fold new messages into an existing summary. */
const UPDATED_SUMMARY_FORMAT = `## Goal
[The existing goals, plus any new ones the task grew into]

## Constraints & Preferences
- [The existing ones, plus any new ones found]

## Progress
### Done
- [x] [Everything already done, plus what the new messages finished]

### In Progress
- [ ] [Current work, as the new messages leave it]

### Blocked
- [Blockers that still hold; drop the resolved ones]

## Key Decisions
- **[Decision]**: [Why it was made, in a few words] (keep the earlier ones, add new ones)

## Next Steps
1. [What to do next, given what has now been done]

## Critical Context
- [The important existing context, plus anything new that is needed]`;

/** Asks for a first summary of the conversation above it. */
export const NEW_SUMMARY_PROMPT = `The conversation above is to be summarized. Write a structured checkpoint summary that another LLM will use to carry on with the work.

Use exactly this format:

${NEW_SUMMARY_FORMAT}

${CLOSING_RULE}`;

/** Asks to update the summary in <previous-summary> with the (new) conversation above it. */
export const UPDATE_SUMMARY_PROMPT = `The conversation above holds NEW messages. Fold them into the existing summary given in the <previous-summary> tags.

Update that structured summary. RULES:
- KEEP everything in the previous summary that still matters
- ADD the progress, decisions and context of the new messages
- MOVE items from "In Progress" to "Done" once they are finished
- REVISE "Next Steps" to match what has been done
- KEEP file paths, function names and error messages exactly as written
- You may drop what is no longer relevant

Use exactly this format:

${UPDATED_SUMMARY_FORMAT}

${CLOSING_RULE}`;

/** For a turn too large to keep whole: summarizes its beginning so the kept end makes sense. */
export const TURN_PREFIX_PROMPT = `The conversation above is the BEGINNING of one turn that was too large to keep. The END of the turn (the most recent work) stays in the context.

Summarize the beginning so the kept end can be understood:

## Original Request
[What the user asked for in this turn]

## Early Progress
- [Decisions taken and work done in this beginning]

## Context for Suffix
- [What is needed to make sense of the kept recent work]

Be brief; cover only what the kept end depends on.`;

/** Asks for a summary of a branch the user is leaving, in the same six sections. */
export const BRANCH_SUMMARY_PROMPT = `The conversation above is a branch of the session that the user is leaving. Write a structured summary of it, to be read when the work comes back to this point.

Use exactly this format:

## Goal
[What the user wanted to achieve in this branch]

## Constraints & Preferences
- [Requirements, limits and preferences that were stated]
- [Write "(none)" when there are none]

## Progress
### Done
- [x] [Finished tasks and changes]

### In Progress
- [ ] [Work that was started and not finished]

### Blocked
- [What stopped progress, if anything]

## Key Decisions
- **[Decision]**: [Why it was made, in a few words]

## Next Steps
1. [What would continue this work]

## Critical Context
- [Data, examples or references needed to carry on]
- [Write "(none)" when nothing applies]

${CLOSING_RULE}`;

/** Put before a branch summary so the model knows where it comes from. */
export const BRANCH_SUMMARY_PREAMBLE = `Before coming back here, the user explored another branch of the conversation.
What happened there:

`;

/** Joins the parts of a turn split by a compaction into one summary. */
export function mergeSplitTurnSummary(historySummary: string, turnPrefixSummary: string): string {
  return `${historySummary}\n\n---\n\n**Turn Context (split turn):**\n\n${turnPrefixSummary}`;
}

/** Stands in for the history part of a split turn when there is no earlier history at all. */
export const NO_EARLIER_HISTORY = "No earlier history.";

/**
 * The user prompt sent to the summarizer: the transcript in <conversation> tags, the previous summary
 * in <previous-summary> tags when updating, then the instructions, with `/compact` focus appended.
 */
export function buildSummaryPrompt(parts: {
  conversation: string;
  previousSummary?: string;
  instructions: string;
  focus?: string;
}): string {
  let prompt = `<conversation>\n${parts.conversation}\n</conversation>\n\n`;
  if (parts.previousSummary !== undefined)
    prompt += `<previous-summary>\n${parts.previousSummary}\n</previous-summary>\n\n`;
  prompt += parts.instructions;
  const focus = parts.focus?.trim();
  if (focus) prompt += `\n\nAdditional focus: ${focus}`;
  return prompt;
}
